// A hunk's lines as the hunk view draws them (old and new line numbers, the
// kind of each line), and its new side as text for "Edit".

import type { GitHunk } from "@pier/protocol";

export interface HunkRow {
  kind: "ctx" | "add" | "del" | "note";
  text: string;
  old: number | null;
  new: number | null;
}

export function hunkRows(hunk: Pick<GitHunk, "lines" | "oldStart" | "newStart">): HunkRow[] {
  let oldLine = hunk.oldStart;
  let newLine = hunk.newStart;
  return hunk.lines.map((line): HunkRow => {
    const text = line.slice(1);
    switch (line[0]) {
      case "+":
        return { kind: "add", text, old: null, new: newLine++ };
      case "-":
        return { kind: "del", text, old: oldLine++, new: null };
      case "\\":
        return { kind: "note", text: text.trim(), old: null, new: null };
      default:
        return { kind: "ctx", text, old: oldLine++, new: newLine++ };
    }
  });
}

/** The hunk's new side (context and added lines) as the text "Edit" starts from. */
export function hunkNewText(hunk: Pick<GitHunk, "lines">): string {
  const out: string[] = [];
  hunk.lines.forEach((line, i) => {
    if (line[0] !== " " && line[0] !== "+") return;
    const noNewline = hunk.lines[i + 1]?.startsWith("\\") === true;
    out.push(line.slice(1) + (noNewline ? "" : "\n"));
  });
  return out.join("");
}

/**
 * A key for a hunk that survives the reload after another hunk was acted on
 * (every id changes then, since ids cover the file's sides): the side that
 * did not move — the working tree's lines for unstaged hunks, HEAD's for
 * staged ones.
 */
export function stableHunkKey(hunk: Pick<GitHunk, "oldStart" | "oldCount" | "newStart" | "newCount">, side: "staged" | "unstaged"): string {
  return side === "unstaged" ? `n${hunk.newStart},${hunk.newCount}` : `o${hunk.oldStart},${hunk.oldCount}`;
}
