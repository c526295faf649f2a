// Terminal output → safe HTML. ansi_up escapes every character of the text
// (`<`, `>`, `&`, quotes) and only emits its own <span class="ansi-…"> tags,
// so the result can go into {@html}. OSC 8 hyperlinks are not turned into
// links: OSC sequences are stripped first, keeping the link text, so a click
// in a tool log never navigates away from the IDE.

import { AnsiUp } from "ansi_up";

export { hasAnsi, stripAnsi } from "./strip-ansi.ts";

// eslint-disable-next-line no-control-regex
const OSC_PATTERN = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/**
 * A carriage return without a line feed moves the cursor to the start of the
 * line: progress bars redraw themselves that way. Keep what a terminal would
 * finally show, the text after the last `\r` of each line.
 */
export function collapseCarriageReturns(text: string): string {
  if (!text.includes("\r")) return text;
  return text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => {
      const trimmed = line.endsWith("\r") ? line.slice(0, -1) : line;
      const last = trimmed.lastIndexOf("\r");
      return last === -1 ? trimmed : trimmed.slice(last + 1);
    })
    .join("\n");
}

/**
 * HTML for terminal output with its colours. A fresh converter per call:
 * streamed output is cumulative (each update replaces the text), so no state
 * may carry over from the previous snapshot.
 */
export function ansiToHtml(text: string): string {
  const converter = new AnsiUp();
  converter.use_classes = true;
  converter.escape_html = true;
  return converter.ansi_to_html(collapseCarriageReturns(text.replace(OSC_PATTERN, "")));
}
