// Discarding an agent's worktree: first what would be lost (uncommitted
// files, commits the base branch does not have), then — once confirmed —
// `git worktree remove --force` and the branch deleted. A worktree folder
// deleted behind pier's back is cleaned from git's records (`git worktree
// prune`) and said so.
import { rmdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { LiveDiscardPreview } from "@pier/protocol";
import { parseLogZ, parsePorcelainPathsZ } from "./git-parse.ts";
import { gitWords, runGit } from "./git-run.ts";
import { baseRef, refusal, worktreePresent, type WorktreeRecord, type WorktreeRefusal } from "./worktrees.ts";

const MAX_LISTED_COMMITS = 50;
const MAX_LISTED_FILES = 500;

export async function discardPreview(record: WorktreeRecord): Promise<LiveDiscardPreview> {
  const present = await worktreePresent(record);
  const run = { guarded: true };
  let uncommitted: string[] = [];
  if (present) {
    const status = await runGit(record.path, ["--no-optional-locks", "status", "--porcelain=v1", "-z", "--untracked-files=all"], run);
    uncommitted = status.ok ? parsePorcelainPathsZ(status.stdout.toString("utf8")).slice(0, MAX_LISTED_FILES) : [];
  }
  const log = await runGit(record.repo, ["log", "-z", `--max-count=${MAX_LISTED_COMMITS}`, "--format=%H%x00%s", `${await baseRef(record)}..refs/heads/${record.branch}`, "--"], run);
  const unmerged = log.ok ? parseLogZ(log.stdout.toString("utf8")) : [];
  return { uncommitted, unmerged, missing: !present };
}

export type Discarded = { path: string; branch: string; missing: boolean; message: string };

/** Removes the worktree (its files, uncommitted ones included) and deletes its branch. */
export async function discardWorktree(record: WorktreeRecord): Promise<Discarded | WorktreeRefusal> {
  const present = await worktreePresent(record);
  const run = { guarded: true };
  if (present) {
    // Twice --force: a locked worktree goes too (the person confirmed).
    const removed = await runGit(record.repo, ["worktree", "remove", "--force", "--force", record.path], run);
    if (!removed.ok) return refusal(409, "remove_failed", `git could not remove the worktree ${record.path}: ${gitWords(removed)}`);
  } else {
    const pruned = await runGit(record.repo, ["worktree", "prune"], run);
    if (!pruned.ok) return refusal(409, "prune_failed", `the worktree folder ${record.path} was already gone, and git could not clean its records: ${gitWords(pruned)}`);
  }
  const deleted = await runGit(record.repo, ["branch", "-D", "--quiet", record.branch], run);
  // The `<repo>.worktrees` folder goes when it held only this worktree (rmdir refuses a folder with anything in it).
  await rmdir(dirname(record.path)).catch(() => {});
  const branchNote = deleted.ok ? `branch ${record.branch} deleted` : `branch ${record.branch} kept (${gitWords(deleted)})`;
  const message = present
    ? `removed the worktree ${record.path}; ${branchNote}`
    : `the worktree folder ${record.path} had already been deleted outside pier: git's records of it were cleaned (git worktree prune); ${branchNote}`;
  return { path: record.path, branch: record.branch, missing: !present, message };
}
