// A capture inside an HTML page: the text of a `<script type="application/x-pier-capture">`
// element, which the browser never runs and never decodes. Only the HTML
// parser reads it, and in a script element it stops at the first `</script`
// (any case), is thrown off by `<!--`, turns CR and CR LF into LF and NUL
// into U+FFFD. So the text is escaped so that none of that can happen, and
// losslessly: `&` → `&amp;`, `<` → `&lt;`, CR → `&#13;`, NUL → `&#0;`. The
// escaped text holds no `<` at all, so nothing in a capture (a prompt that
// says `</script><script>…`) can end the element or start another. The page
// reverses it (no `&`: nothing to do) and hands the text to the same
// untrusted reader as a dropped file (replay/open-capture.ts).

/** The element's type: not JavaScript, so never executed. */
export const CAPTURE_SCRIPT_TYPE = "application/x-pier-capture";
/** Its id, where the page looks for it. */
export const CAPTURE_ELEMENT_ID = "pier-capture";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", "\r": "&#13;", "\0": "&#0;" };
const UNESCAPES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&#13;": "\r", "&#0;": "\0" };

/** Text safe to put between `<script type="application/x-pier-capture">` and `</script>`. */
export function escapeForScript(text: string): string {
  return /[&<\r\0]/.test(text) ? text.replace(/[&<\r\0]/g, (c) => ESCAPES[c]!) : text;
}

/** The text escapeForScript was given. */
export function unescapeFromScript(text: string): string {
  // One pass, so "&amp;lt;" becomes "&lt;" (what was escaped), not "<".
  return text.includes("&") ? text.replace(/&(?:amp|lt|#13|#0);/g, (entity) => UNESCAPES[entity]!) : text;
}
