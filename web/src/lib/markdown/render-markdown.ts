// Markdown → sanitized HTML for model output, which is untrusted: a prompt
// injection can make the model write anything. Two independent layers:
//
// 1. marked renders GFM but never passes raw HTML through: an HTML block or
//    inline tag in the text is shown as literal text (that is also what a
//    reader expects when the model *talks about* `<script>` or `<div>`).
//    Images become plain links (see `image` below).
// 2. DOMPurify then filters the HTML against a strict allowlist, so a marked
//    bug or a future renderer change cannot smuggle markup through.
//
// The result is only ever inserted with Svelte's {@html}, into a page whose CSP
// also forbids inline scripts: a third layer we do not rely on here.

import DOMPurify, { type Config, type DOMPurify as Purifier } from "dompurify";
import { Marked, type Links, type Token, type Tokens, type TokensList } from "marked";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Images may only point at the web (no data:, which could carry anything). */
const SAFE_IMAGE_URL = /^https?:\/\//i;

const marked = new Marked({
  gfm: true, // tables, ~~strikethrough~~, task lists, autolinked URLs
  // Models do not hard-wrap prose: a single newline is meant as a line break.
  breaks: true,
  renderer: {
    // Raw HTML from the model is displayed, never interpreted.
    // An HTML block keeps its own paragraph and its line breaks.
    html: (token: Tokens.HTML | Tokens.Tag) => (token.block ? `<p>${escapeHtml(token.text.trim()).replace(/\n/g, "<br>")}</p>\n` : escapeHtml(token.text)),
    // No <img>: remote images are blocked by the CSP (img-src 'self') anyway,
    // and loading them would let model output fire tracking pixels. Show a
    // link to the image (named by its alt text) so the reader can choose.
    image: ({ href, text }: Tokens.Image) => {
      const label = escapeHtml(text || "image");
      const url = href.trim();
      return SAFE_IMAGE_URL.test(url) ? `<a href="${escapeHtml(url)}" title="Image (not loaded)">🖼 ${label}</a>` : label;
    },
  },
});

const SANITIZE: Config = {
  // Exactly what the GFM renderer above produces. Notably absent: script,
  // style (CSS can exfiltrate and restyle the app), iframe/object/embed,
  // form/button/textarea (phishing UI), img/video/audio (remote loads),
  // svg/math (mXSS namespace tricks), and div/span (nothing needs them).
  ALLOWED_TAGS: ["a", "blockquote", "br", "code", "del", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "input", "li", "ol", "p", "pre", "strong", "table", "tbody", "td", "th", "thead", "tr", "ul"],
  // No on* handlers and no style (DOMPurify only keeps listed attributes), no
  // class (model text could dress a link up as one of the app's buttons), no
  // id/name (DOM clobbering of the app's globals), no data-*/aria-*.
  // align: table columns; start: ordered lists not starting at 1;
  // type/checked/disabled: task-list checkboxes (forced inert below).
  ALLOWED_ATTR: ["href", "title", "align", "start", "type", "checked", "disabled"],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // DOMPurify strips whitespace and control characters before testing, so
  // " javascript:" and "java\tscript:" are caught; entities are already decoded
  // by the parser. Allowed: http(s):, mailto:, and anything without a scheme
  // (relative paths, #anchors, ?queries). Everything else loses its href.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
};

let purifier: Purifier | undefined;
let fragmentPurifier: Purifier | undefined;

/** marked's fence class (```ts → class="language-ts"): kept on <code> only, to pick a highlighter. */
const FENCE_CLASS = /^language-[a-z0-9+#.-]{1,30}$/i;

/** A private DOMPurify instance, so these hooks never affect other callers. */
function getPurifier(): Purifier {
  return (purifier ??= makePurifier(SANITIZE));
}

/**
 * The same, returning the sanitized nodes themselves (a DocumentFragment)
 * instead of their HTML: DOMPurify has parsed the HTML into nodes to filter
 * them, and handing those on spares serializing them and the page parsing
 * the string again (see renderBlocksToFragment).
 */
function getFragmentPurifier(): Purifier {
  return (fragmentPurifier ??= makePurifier({ ...SANITIZE, RETURN_DOM_FRAGMENT: true }));
}

function makePurifier(config: Config): Purifier {
  const instance = DOMPurify(window);
  // Set once: given with each call, DOMPurify parses the config again every
  // time (a tenth of its cost per call while an answer streams).
  instance.setConfig(config);
  // The one class that survives: a code fence's language, on <code>, in its
  // exact marked form (so it cannot borrow one of the app's own classes).
  instance.addHook("uponSanitizeAttribute", (node, data) => {
    if (data.attrName === "class" && node.nodeName === "CODE" && FENCE_CLASS.test(data.attrValue)) data.forceKeepAttr = true;
  });
  instance.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName === "A") {
      // Open outside the app: the app's tab (and its session cookie's page)
      // is never navigated away; noopener/noreferrer cut window.opener and the
      // Referer (which could carry the relay's address); nofollow for robots.
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer nofollow");
    } else if (node.nodeName === "INPUT") {
      // The only input marked emits is a task-list checkbox. Whatever came
      // in, what goes out is an inert checkbox: one the reader could tick
      // would suggest it means something.
      node.setAttribute("type", "checkbox");
      node.setAttribute("disabled", "");
    }
  });
  return instance;
}

/** Renders untrusted Markdown (GFM) to HTML that is safe for {@html}. */
export function renderMarkdown(text: string): string {
  if (text === "") return "";
  const html = marked.parse(text, { async: false });
  return getPurifier().sanitize(html);
}

/**
 * A little of every kind of Markdown, a kind per piece (see warmUpMarkdown).
 * The first piece also pays for the renderer's and the sanitizer's own first
 * run, so it is the plainest.
 */
const WARM_UP_PIECES = [
  "Some text.",
  "# Heading\n\nSome *emphasis*, **strong**, `code`, ~~strike~~ and <b>tags</b>.",
  "A [link](https://example.com), ![image](https://example.com/x.png) and www.example.com",
  "- item\n- [ ] task\n\n1. one\n2. two",
  "> quote\n\nSetext\n---\n\n***",
  "| a | b |\n|---|:-:|\n| 1 | 2 |",
  "```ts\nconst x = 1;\n```\n\n    indented",
];

/**
 * Runs the renderer and the sanitizer on samples, while the page is idle:
 * the first use of each kind of Markdown compiles its regular expressions
 * and code, which otherwise lands in the frames of the first answer. A
 * piece per idle callback: all at once was one task of ~80 ms of CPU, and
 * as this module loads when the first answer needs it, that task fell in
 * the middle of the answer streaming in (bench/stream.bench.ts, its
 * longest task with the inspector closed).
 */
export function warmUpMarkdown(): void {
  let next = 0;
  const later = (run: () => void) => (typeof requestIdleCallback === "function" ? requestIdleCallback(run, { timeout: 5000 }) : setTimeout(run, 200));
  const step = () => {
    renderMarkdown(WARM_UP_PIECES[next++]!);
    if (next < WARM_UP_PIECES.length) later(step);
  };
  later(step);
}

/**
 * The top-level blocks of `text` (marked's tokens, whose `raw`s are the
 * source), with the link reference definitions `links` already known, as
 * if they had come earlier in the same text. For live-markdown.ts, which
 * renders a growing text a block at a time.
 */
export function markdownBlocks(text: string, links: Readonly<Links> = {}): TokensList {
  const lexer = new marked.Lexer({ ...marked.defaults });
  Object.assign(lexer.tokens.links, links);
  return lexer.lex(text);
}

/**
 * Renders blocks from markdownBlocks to HTML that is safe for {@html},
 * exactly as renderMarkdown renders them as part of their whole text: the
 * same renderer, the same sanitizer.
 */
export function renderBlocks(blocks: Token[]): string {
  if (blocks.length === 0) return "";
  return getPurifier().sanitize(marked.parser(blocks));
}

/**
 * renderBlocks' result as nodes, for a caller that puts them into the page
 * (each fragment once: inserting it empties it). While an answer streams,
 * the HTML of each update was parsed twice more (after DOMPurify's own
 * parse: its serialized result by the page, again by the patch of the
 * block being written) and serialized once: in Chromium, rendering and
 * inserting the stream bench's 20,000 deltas took ~200 ms this way against
 * ~250-460 ms (a noisy machine; see the commit that made it).
 */
export function renderBlocksToFragment(blocks: Token[]): DocumentFragment {
  if (blocks.length === 0) return document.createDocumentFragment();
  return getFragmentPurifier().sanitize(marked.parser(blocks)) as unknown as DocumentFragment;
}
