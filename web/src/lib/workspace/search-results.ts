// Search records grouped by file, as the Search view lists them. git finds
// a file's lines together, so a record either continues the last file or
// starts the next one.

import type { SearchMatchRecord } from "@pier/protocol";

export type SearchFileResult = { path: string; lines: SearchMatchRecord[]; matches: number };

/** `files` with `records` added (new arrays for the changed parts, so a raw $state sees the change). */
export function addMatches(files: readonly SearchFileResult[], records: readonly SearchMatchRecord[]): SearchFileResult[] {
  const next = [...files];
  // The last file is copied once per batch, then grown in place.
  let last: SearchFileResult | undefined = next.at(-1);
  if (last) last = next[next.length - 1] = { ...last, lines: [...last.lines] };
  for (const record of records) {
    const count = record.matchCount ?? Math.max(1, record.ranges.length);
    if (last && last.path === record.path) {
      last.lines.push(record);
      last.matches += count;
    } else {
      last = { path: record.path, lines: [record], matches: count };
      next.push(last);
    }
  }
  return next;
}

/** A line's text in pieces, the matches marked, for highlighting without HTML. */
export function highlightPieces(text: string, ranges: readonly (readonly [number, number])[]): { text: string; match: boolean }[] {
  const pieces: { text: string; match: boolean }[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start < at || end <= start) continue;
    if (start > at) pieces.push({ text: text.slice(at, start), match: false });
    pieces.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), match: false });
  return pieces;
}

/**
 * A line as a narrow list shows it: when its first match starts far in,
 * the text before is cut to `keep` characters (`lead` says so), so the
 * match is on screen.
 */
export function focusOn(text: string, ranges: readonly (readonly [number, number])[], keep = 12): { text: string; ranges: [number, number][]; lead: boolean } {
  const first = ranges[0]?.[0] ?? 0;
  if (first <= keep + 4) return { text, ranges: ranges.map(([s, e]) => [s, e]), lead: false };
  const from = first - keep;
  return { text: text.slice(from), ranges: ranges.map(([s, e]) => [s - from, e - from]), lead: true };
}

/** Where Monaco puts the cursor for a result line (1-based column of its first match in the whole line). */
export function matchColumn(record: SearchMatchRecord): number {
  return (record.cutBefore ?? 0) + (record.ranges[0]?.[0] ?? 0) + 1;
}

/** "src/app.ts" → { name: "app.ts", folder: "src" }. */
export function splitPath(path: string): { name: string; folder: string } {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? { name: path, folder: "" } : { name: path.slice(slash + 1), folder: path.slice(0, slash) };
}
