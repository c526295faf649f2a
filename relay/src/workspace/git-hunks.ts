// The hunks of one file's `git diff`, and applying chosen ones to a text in
// memory: forward (the old side becomes the new side: staging into the
// index text) or in reverse (the new side goes back to the old side:
// unstaging from the index text, reverting in the working file). Pure: no
// git, no file system; git-review.ts does the reading and writing.
//
// A hunk is applied only where its whole side is found, line for line and
// byte for byte (end-of-line characters included), at the line the diff
// named; anything else means the text moved since the diff was made, and
// the caller refuses the action as stale rather than guess.
import { createHash } from "node:crypto";

export type ParsedHunk = {
  /** "@@ -a,b +c,d @@ section" as git wrote it. */
  header: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** Each line with its one-character prefix: " " context, "-" removed, "+" added, "\" "No newline at end of file" after the line it is about. */
  lines: string[];
};

export type ParsedFileDiff = {
  binary: boolean;
  oldMode: string | null;
  newMode: string | null;
  newFile: boolean;
  deletedFile: boolean;
  hunks: ParsedHunk[];
};

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses the patch git printed for one file (`git diff -- <path>`, no colour). */
export function parseFileDiff(patch: string): ParsedFileDiff {
  const result: ParsedFileDiff = { binary: false, oldMode: null, newMode: null, newFile: false, deletedFile: false, hunks: [] };
  const lines = patch.split("\n");
  // git ends its output with "\n": the empty string after it is not a line.
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  let hunk: ParsedHunk | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of lines) {
    if (hunk !== null && (oldLeft > 0 || newLeft > 0 || line.startsWith("\\"))) {
      // A context line that diff.suppressBlankEmpty printed as "" is still a context line.
      const kind = line === "" ? " " : line[0];
      if (kind === "\\") {
        hunk.lines.push(line);
        continue;
      }
      if (kind === " " || kind === "-") oldLeft--;
      if (kind === " " || kind === "+") newLeft--;
      hunk.lines.push(line === "" ? " " : line);
      continue;
    }
    const header = HUNK_HEADER.exec(line);
    if (header !== null) {
      hunk = {
        header: line,
        oldStart: Number(header[1]),
        oldCount: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newCount: header[4] === undefined ? 1 : Number(header[4]),
        lines: [],
      };
      oldLeft = hunk.oldCount;
      newLeft = hunk.newCount;
      result.hunks.push(hunk);
      continue;
    }
    if (hunk !== null) continue;
    if (line.startsWith("old mode ")) result.oldMode = line.slice(9).trim();
    else if (line.startsWith("new mode ")) result.newMode = line.slice(9).trim();
    else if (line.startsWith("new file mode ")) result.newFile = true;
    else if (line.startsWith("deleted file mode ")) result.deletedFile = true;
    else if (line.startsWith("Binary files ") || line === "GIT binary patch") result.binary = true;
  }
  return result;
}

/** A text's lines, each with its own end of line ("\n"; the last may have none). */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf("\n", start);
    if (end === -1) {
      lines.push(text.slice(start));
      break;
    }
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  return lines;
}

/** One side of a hunk as the lines of text it stands for (ends of line included). */
export function hunkSide(hunk: Pick<ParsedHunk, "lines">, side: "old" | "new"): string[] {
  const keep = side === "old" ? "-" : "+";
  const out: string[] = [];
  const lines = hunk.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const kind = line[0];
    if (kind !== " " && kind !== keep) continue;
    const noNewline = lines[i + 1]?.startsWith("\\") === true;
    out.push(line.slice(1) + (noNewline ? "" : "\n"));
  }
  return out;
}

export class StaleHunkError extends Error {}

/**
 * `text` with `hunks` applied: "forward" puts each hunk's new side where its
 * old side is (text is the diff's old side), "reverse" the old side where
 * its new side is (text is the diff's new side). `replacement` gives a hunk
 * other new text (an edited hunk, forward only). Throws StaleHunkError when
 * a hunk's side is not exactly where the diff said.
 */
export function applyHunks(text: string, hunks: readonly ParsedHunk[], direction: "forward" | "reverse", replacement?: ReadonlyMap<ParsedHunk, string>): string {
  const lines = splitLines(text);
  const from = direction === "forward" ? "old" : "new";
  const to = direction === "forward" ? "new" : "old";
  const placed = hunks
    .map((hunk) => {
      const start = from === "old" ? hunk.oldStart : hunk.newStart;
      const count = from === "old" ? hunk.oldCount : hunk.newCount;
      // A side with no lines names the line after which the other side goes.
      return { hunk, at: count === 0 ? start : start - 1 };
    })
    .sort((a, b) => a.at - b.at);
  const out: string[] = [];
  let cursor = 0;
  for (const { hunk, at } of placed) {
    const expected = hunkSide(hunk, from);
    if (at < cursor || at + expected.length > lines.length) throw new StaleHunkError(`hunk ${hunk.header} does not fit the text`);
    for (let i = 0; i < expected.length; i++) {
      if (lines[at + i] !== expected[i]) throw new StaleHunkError(`hunk ${hunk.header} no longer matches line ${at + i + 1}`);
    }
    for (let i = cursor; i < at; i++) out.push(lines[i]!);
    const edited = replacement?.get(hunk);
    if (edited !== undefined) out.push(edited);
    else out.push(...hunkSide(hunk, to));
    cursor = at + expected.length;
  }
  for (let i = cursor; i < lines.length; i++) out.push(lines[i]!);
  return out.join("");
}

/** A hunk as the one hunk of a file that was empty (an untracked or new file's whole text). */
export function wholeTextHunk(text: string): ParsedHunk | null {
  const lines = splitLines(text);
  if (lines.length === 0) return null;
  const body: string[] = [];
  for (const line of lines) {
    if (line.endsWith("\n")) body.push("+" + line.slice(0, -1));
    else body.push("+" + line, "\\ No newline at end of file");
  }
  const header = lines.length === 1 ? "@@ -0,0 +1 @@" : `@@ -0,0 +1,${lines.length} @@`;
  return { header, oldStart: 0, oldCount: 0, newStart: 1, newCount: lines.length, lines: body };
}

/**
 * A hunk's identity for the page to name it by: what the two sides of the
 * diff were (blob ids / file versions) and the hunk itself. The same hunk in
 * a file that changed elsewhere gets another id, so a page that showed an
 * older diff is told its view is stale.
 */
export function hunkId(sides: string, hunk: Pick<ParsedHunk, "header" | "lines">): string {
  return createHash("sha256").update(sides).update("\0").update(hunk.header).update("\0").update(hunk.lines.join("\n")).digest("hex").slice(0, 32);
}

/**
 * `text` with `hunk` reversed where its new side is now, when the file moved
 * since the diff (a revert that met another change): the new side is looked
 * for line for line, nearest to the line the diff named (edits above it move
 * it). Null when it is nowhere (its own lines changed) or has no lines to find
 * it by: then there is nothing to offer but the refreshed diff.
 */
export function reverseHunkNear(text: string, hunk: ParsedHunk): string | null {
  const expected = hunkSide(hunk, "new");
  if (expected.length === 0) return null;
  const lines = splitLines(text);
  const named = hunk.newStart - 1;
  const fits = (at: number) => {
    for (let i = 0; i < expected.length; i++) if (lines[at + i] !== expected[i]) return false;
    return true;
  };
  const last = lines.length - expected.length;
  for (let offset = 0; offset <= Math.max(named, last - named); offset++) {
    for (const at of offset === 0 ? [named] : [named - offset, named + offset]) {
      if (at < 0 || at > last || !fits(at)) continue;
      return [...lines.slice(0, at), ...hunkSide(hunk, "old"), ...lines.slice(at + expected.length)].join("");
    }
  }
  return null;
}
