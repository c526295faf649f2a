// The words a worktree agent's card uses: where its branch came from, how
// much it changed, what a side of a file is when it has no text, and what a
// discard would lose. Pure, so tested without a page.
import type { LiveDiff, LiveDiffEntry, LiveDiscardPreview, LiveFileText, LiveWorktree } from "@pier/protocol";

/** "feature-x from main"; a detached base names its commit. */
export function branchLine(worktree: LiveWorktree): string {
  const base = worktree.base.branch ?? `commit ${worktree.base.commit.slice(0, 8)} (detached)`;
  return `${worktree.branch} from ${base}`;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "1 file, +3 −1" ("No changes yet" when there are none; "+" after the count when more changed than listed). */
export function diffSummary(diff: Pick<LiveDiff, "totals" | "truncated">): string {
  const { files, added, deleted } = diff.totals;
  if (files === 0) return "No changes yet";
  return `${plural(files, "file")}${diff.truncated ? "+" : ""} changed, +${added} −${deleted}`;
}

/** One changed file's counts: "+3 −1", or "binary". */
export function entryCounts(entry: LiveDiffEntry): string {
  if (entry.binary || entry.added === null || entry.deleted === null) return "binary";
  return `+${entry.added} −${entry.deleted}`;
}

/** The file's label in the review list: a rename shows its old path. */
export function entryLabel(entry: LiveDiffEntry): string {
  return entry.from === undefined ? entry.path : `${entry.from} → ${entry.path}`;
}

/** Why a side of a file shows no text; null when it has text. */
export function sideMissing(side: LiveFileText): string | null {
  if (side.content !== null) return null;
  if (side.reason === "absent") return "not there";
  if (side.reason === "binary") return "a binary file";
  return "too large to show";
}

/**
 * What a side-by-side diff can show of a file, or the sentence for why it cannot
 * (binary or too large on either side). A side that is absent is empty text.
 */
export function diffSides(base: LiveFileText, current: LiveFileText): { original: string; modified: string } | { reason: string } {
  for (const [side, name] of [
    [base, "base"],
    [current, "current"],
  ] as const) {
    if (side.content === null && side.reason !== "absent") return { reason: `The ${name} version is ${sideMissing(side)}, so there is no text diff.` };
  }
  return { original: base.content ?? "", modified: current.content ?? "" };
}

/** The question a discard asks: a sentence, then the uncommitted files and unmerged commits it would lose (each list empty when none). */
export function discardQuestion(branch: string, preview: LiveDiscardPreview): { lead: string; uncommitted: string[]; unmerged: string[] } {
  const uncommitted = preview.uncommitted;
  const unmerged = preview.unmerged.map((commit) => `${commit.commit.slice(0, 8)} ${commit.subject}`);
  let lead: string;
  if (preview.missing) lead = `The worktree's folder is gone already; discarding removes branch ${branch} and git's record of it.`;
  else if (uncommitted.length === 0 && unmerged.length === 0) lead = `Nothing unmerged would be lost: discard stops the agent and removes its worktree and branch ${branch}.`;
  else {
    const parts = [uncommitted.length > 0 ? plural(uncommitted.length, "uncommitted file") : null, unmerged.length > 0 ? plural(unmerged.length, "unmerged commit") : null].filter(
      (part) => part !== null,
    );
    lead = `Discarding stops the agent and deletes its worktree and branch ${branch}, losing ${parts.join(" and ")}:`;
  }
  return { lead, uncommitted, unmerged };
}
