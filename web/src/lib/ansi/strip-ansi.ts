// Escape sequences out of terminal text, for one-line summaries. No
// dependencies: the collapsed transcript uses it without loading ansi_up.

// eslint-disable-next-line no-control-regex
const ANSI_PATTERN = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, "");
}

/** True when the text carries any escape sequence worth converting. */
export function hasAnsi(text: string): boolean {
  return text.includes("\u001b");
}
