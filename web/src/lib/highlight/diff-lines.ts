// Unified diffs as rows a view can render: from pi's own patch (an edit
// result's `details.patch`) or built from an edit's replacements before the
// result is in. Pure; jsdiff does the diffing and the patch parsing.

import { parsePatch, structuredPatch, type StructuredPatchHunk } from "diff";

export type DiffLineKind = "hunk" | "add" | "del" | "context" | "note";

export interface DiffLine {
  kind: DiffLineKind;
  /** The line without its leading marker (`+`, `-`, ` `). */
  text: string;
  /** Line number in the old file (del/context), null otherwise. */
  oldNo: number | null;
  /** Line number in the new file (add/context), null otherwise. */
  newNo: number | null;
}

export type { DiffStats } from "./patch-stats.ts";
import type { DiffStats } from "./patch-stats.ts";

function hunkLines(hunk: StructuredPatchHunk): DiffLine[] {
  const rows: DiffLine[] = [
    {
      kind: "hunk",
      text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
      oldNo: null,
      newNo: null,
    },
  ];
  let oldNo = hunk.oldStart;
  let newNo = hunk.newStart;
  for (const line of hunk.lines) {
    const marker = line[0];
    const text = line.slice(1);
    if (marker === "+") rows.push({ kind: "add", text, oldNo: null, newNo: newNo++ });
    else if (marker === "-") rows.push({ kind: "del", text, oldNo: oldNo++, newNo: null });
    else if (marker === "\\") rows.push({ kind: "note", text: line.slice(2), oldNo: null, newNo: null });
    else rows.push({ kind: "context", text, oldNo: oldNo++, newNo: newNo++ });
  }
  return rows;
}

/** Rows of a unified patch (all files in it, headers dropped); [] when it does not parse. */
export function parseUnifiedPatch(patch: string): DiffLine[] {
  try {
    return parsePatch(patch).flatMap((file) => file.hunks.filter((h) => Number.isFinite(h.oldStart) && Number.isFinite(h.newStart)).flatMap(hunkLines));
  } catch {
    return [];
  }
}

/**
 * Rows for one replacement, `oldText` → `newText`, every line of both
 * snippets shown. No line numbers: where the snippet sits in the file is only
 * known once pi has applied the edit (then prefer its patch).
 */
export function replacementLines(oldText: string, newText: string): DiffLine[] {
  const patch = structuredPatch("a", "b", oldText, newText, undefined, undefined, { context: Number.MAX_SAFE_INTEGER });
  return patch.hunks
    .flatMap(hunkLines)
    .filter((row) => row.kind !== "hunk")
    .map((row) => ({ ...row, oldNo: null, newNo: null }));
}

export function diffStats(lines: readonly DiffLine[]): DiffStats {
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.kind === "add") added++;
    else if (line.kind === "del") removed++;
  }
  return { added, removed };
}
