// What a file a run changed is now, for its row in the run's list: which
// side of git's status to review (what is not staged first, else what is
// staged), in words, or "no changes now" when git lists it no more (it was
// committed or reverted since). Pure, for tests.
import { statusBadge } from "../workspace/git-status.ts";
import type { GitChange } from "../workspace/workspace-api-types.ts";

export type RunFileState = { kind: "changed"; change: GitChange; side: "staged" | "unstaged"; words: string; tone: string } | { kind: "clean"; words: string };

export function runFileState(change: GitChange | undefined): RunFileState {
  if (change === undefined) return { kind: "clean", words: "no changes now" };
  if (change.status === "untracked") return { kind: "changed", change, side: "unstaged", words: "new, not staged", tone: "added" };
  if (change.status === "conflicted") return { kind: "changed", change, side: "unstaged", words: "conflict", tone: "conflict" };
  const worktree = change.worktree;
  const index = change.index;
  // A relay without git's letters: everything is a change of the working tree.
  if (worktree === undefined || index === undefined || worktree !== " ") {
    const badge = statusBadge(worktree !== undefined && worktree !== " " ? worktree : change.status);
    return { kind: "changed", change, side: "unstaged", words: `${badge.label.toLowerCase()}${index !== undefined && index !== " " ? ", partly staged" : ""}`, tone: badge.tone };
  }
  const badge = statusBadge(index);
  return { kind: "changed", change, side: "staged", words: `${badge.label.toLowerCase()}, staged`, tone: badge.tone };
}
