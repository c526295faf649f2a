// The plain text a short Markdown text reads as once rendered, for one-line
// titles (the session tree names pi's answers and summaries by their start):
// "## Done\n**Fixed** `greet()`, see [notes](x.md)" reads "Done Fixed greet(), see notes".
//
// Not a Markdown parser: a few passes of regular expressions, so that titling
// the thousands of entries of a long session stays cheap (marked's lexer
// costs several times more per title). What it gets wrong is cosmetic, and
// only ever makes a title show a marker the chat does not. Code spans come
// out exactly as written (`Array<T>`, `a*b*c`): their content is never
// touched by the other rules.

/** A fenced code block (to the end of the text when unclosed, as in Markdown): its code is kept as it is. */
const FENCED_CODE = /^ {0,3}(`{3,}|~{3,})[^\n]*(?:\n|$)([\s\S]*?)(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm;
/** The closing hashes of a heading ("## Plan ##"). */
const HEADING_CLOSE = /^( {0,3}#{1,6}[ \t].*?)[ \t]+#+[ \t]*$/gm;
/** Line starts: quote markers, then a heading's hashes, a list item's bullet or number, a task box. */
const LINE_MARKERS = /^[ \t]*(?:>[ \t]?)*(?:#{1,6}(?=[ \t]|$)|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))?[ \t]*(?:\[[ xX]\][ \t]+)?/gm;
/** Whole lines that show nothing: rules and setext underlines, a table's delimiter row. */
const MARKER_LINES = /^ {0,3}(?:(?:[-*_=][ \t]*){3,}|\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*)$/gm;
/**
 * Inline syntax, left to right, each alternative a group: an escaped
 * character, a code span, an image or link (its text kept), an autolink, an
 * HTML tag (the sanitizer drops tags the chat does not know), and text in
 * emphasis or strike-through (a pair of delimiters around it; underscores
 * only at word edges, as in Markdown: snake_case stays).
 */
const INLINE =
  /\\([!-/:-@[-`{-~])|(`+)(?!`)([\s\S]*?[^`])\2(?!`)|!?\[([^\]\n]*)\](?:\([^)\n]*\)|\[[^\]\n]*\])|<((?:https?|mailto):[^\s<>]*)>|<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?\/?>|(\*{1,3}|~~?)(?=\S)([\s\S]*?\S)\6|(?<![\p{L}\p{N}_])(_{1,3})(?=\S)([\s\S]*?\S)\8(?![\p{L}\p{N}_])/gu;

function inline(text: string): string {
  return text.replace(INLINE, (_match, escaped?: string, _ticks?: string, code?: string, label?: string, url?: string, _stars?: string, starred?: string, _lines?: string, underlined?: string) => {
    if (escaped !== undefined) return escaped;
    // A code span's content, less the one space that may pad each end.
    if (code !== undefined) return code.length > 2 && code.startsWith(" ") && code.endsWith(" ") ? code.slice(1, -1) : code;
    if (url !== undefined) return url;
    const inner = label ?? starred ?? underlined;
    return inner === undefined ? "" : inline(inner);
  });
}

function prose(markdown: string): string {
  return inline(markdown.replace(MARKER_LINES, "").replace(HEADING_CLOSE, "$1").replace(LINE_MARKERS, ""));
}

/** What `markdown` reads as rendered, line breaks kept (see above). */
export function markdownAsText(markdown: string): string {
  let text = "";
  let at = 0;
  for (const fence of markdown.matchAll(FENCED_CODE)) {
    text += prose(markdown.slice(at, fence.index)) + fence[2]!;
    at = fence.index + fence[0].length;
  }
  return text + prose(markdown.slice(at));
}
