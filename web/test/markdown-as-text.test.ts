// @vitest-environment jsdom
// markdownAsText titles an answer by what the chat shows of it: checked
// rule by rule, and against the text of the chat's own rendering
// (renderMarkdown) for openings that answers and summaries have.
import { describe, expect, test } from "vitest";
import { markdownAsText } from "../src/lib/markdown/markdown-as-text.ts";
import { renderMarkdown } from "../src/lib/markdown/render-markdown.ts";

/** Whitespace collapsed, as a one-line title shows it. */
const flat = (text: string) => text.replace(/\s+/g, " ").trim();

function renderedText(markdown: string): string {
  const div = document.createElement("div");
  div.innerHTML = renderMarkdown(markdown);
  // Blocks end with a line break in the text, as markdownAsText keeps them.
  for (const block of div.querySelectorAll("p, h1, h2, h3, h4, h5, h6, li, pre")) block.append("\n");
  return div.textContent ?? "";
}

describe("markdownAsText", () => {
  test.each([
    ["emphasis and strong", "👋 **Welcome to Pier!** I'm Pier's *offline demo model*.", "👋 Welcome to Pier! I'm Pier's offline demo model."],
    ["underscores at word edges only", "__init__ runs _first_, then snake_case_name", "init runs first, then snake_case_name"],
    ["strike-through", "~~old~~ new", "old new"],
    ["code spans exactly as written", "Use `Array<T>` and `a*b*c` or `` a`b ``", "Use Array<T> and a*b*c or a`b"],
    ["links and images keep their text", "See [the **docs**](https://x.y/docs) and ![a chart](c.png) or [ref][1]", "See the docs and a chart or ref"],
    ["autolinks keep their address", "Open <https://example.com/a?b=1>", "Open https://example.com/a?b=1"],
    ["HTML tags go, as the sanitizer drops them", 'Press <kbd>Ctrl</kbd> <span class="x">now</span><br/>', "Press Ctrl now"],
    ["escaped characters", "2 \\* 3 is \\_not\\_ emphasis", "2 * 3 is _not_ emphasis"],
    ["headings", "## Plan\n### Step 1 ###\nText", "Plan Step 1 Text"],
    ["lists and tasks", "- one\n* two\n+ three\n1. four\n2) five\n- [ ] open\n- [x] done", "one two three four five open done"],
    ["quotes, nested and with a list", "> quoted\n> > deeper\n> - item", "quoted deeper item"],
    ["code fences: the code stays, the fences go", "Run:\n```sh\nnpm test\n```\n~~~\nx\n~~~", "Run: npm test x"],
    ["rules and setext underlines", "Title\n=====\nSub\n---\n\n***\n\nEnd", "Title Sub End"],
    ["a table's delimiter row", "| a | b |\n|---|:-:|\n| 1 | 2 |", "| a | b | | 1 | 2 |"],
  ])("%s", (_name, markdown, expected) => {
    expect(flat(markdownAsText(markdown))).toBe(expected);
  });

  test("leaves prose with look-alike characters alone", () => {
    for (const text of ["5 * 3 = 15", "a - b", "costs $5 (or ~4 €)", "file_name.ts and __dirname", "x < y > z", "1.5 is not a list"]) {
      expect(markdownAsText(text)).toBe(text);
    }
  });

  test.each([
    "I'll fix the **greeting** in `src/greet.js`, then run the tests.",
    "## Summary\n\nI changed [greet.js](src/greet.js): it now says *goodbye* too.\n\n- added `bye()`\n- a test for it",
    "> **Note:** the build uses `Map<string, number>`; see <https://example.com>.",
    "1. Read the file\n2. Edit ~~two~~ three lines\n3. Run `npm test`",
    "Done. `a_b_c` and __bold__ and _emph_ and snake_case.",
    "```ts\nconst x: Array<string> = [];\n```\nThat is the fix.",
    "# Title #\n> quoted **line**\n> > deeper\n\n***\n\nSetext\n---\nText with \\*stars\\* and ~single~ ~~double~~ strikes.",
  ])("reads as the chat renders it: %j", (markdown) => {
    expect(flat(markdownAsText(markdown))).toBe(flat(renderedText(markdown)));
  });
});
