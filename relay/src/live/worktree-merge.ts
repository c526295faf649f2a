// Merging an agent's branch into its base branch, in the workspace it was
// made from. Everything that can refuse is checked before anything changes:
// the workspace must be on the base branch with a clean tree, the person's
// git identity must be known, and the merge must be clean — checked with
// `git merge-tree --write-tree` against a commit object of the agent's work
// made from a temporary index, which touches no working tree, no index and no
// branch. Only then is that commit put on the agent's branch (its
// uncommitted work, "Work of agent on <branch>"), and the branch merged with
// `git merge` (the repository's own hooks run, as for the person's own
// merge, in a repository pi trusts; elsewhere git runs guarded, hooks off).
// On a conflict nothing has changed anywhere; the answer names each
// conflicting file with both sides' text.
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LiveMergeConflict, LiveMergeDone } from "@pier/protocol";
import { parseMergeTreeZ, parsePorcelainPathsZ } from "./git-parse.ts";
import { firstLine, gitWords, runGit, type GitCall } from "./git-run.ts";
import { blobText } from "./worktree-diff.ts";
import { folderTrusted, gone, identityMissing, refusal, worktreePresent, type WorktreeRecord, type WorktreeRefusal } from "./worktrees.ts";

/** Conflicting files sent with their text at most; the rest are named only. */
const MAX_CONFLICT_TEXTS = 20;
/** Each side's text is capped at this (a conflict view needs the gist, not a huge file). */
const MAX_SIDE_BYTES = 256 * 1024;
const IDENTITY_ONLY = ["-c", "user.useConfigOnly=true"];

export type MergeMode = "ff" | "merge";

export async function mergeWorktree(record: WorktreeRecord, mode: MergeMode): Promise<LiveMergeDone | WorktreeRefusal> {
  const into = record.base.branch;
  if (into === null) {
    return refusal(
      409,
      "detached_base",
      `this worktree was made from a detached HEAD (commit ${record.base.commit.slice(0, 12)}), so there is no base branch to merge into: merge ${record.branch} by hand where you want it`,
    );
  }
  if (!(await worktreePresent(record))) return gone(record);
  const call: GitCall = { guarded: !(await folderTrusted(record.repo)) };

  // The base workspace: on the base branch, with nothing uncommitted.
  const onBranch = await runGit(record.repo, ["symbolic-ref", "--quiet", "--short", "HEAD"], call);
  const current = onBranch.ok ? firstLine(onBranch) : null;
  if (current !== into) {
    return refusal(409, "base_moved", `${record.repo} is on ${current === null ? "a detached HEAD" : `branch ${current}`}, not on ${into}: check out ${into} there (git switch ${into}), then merge`);
  }
  const dirty = await runGit(record.repo, ["status", "--porcelain=v1", "-z", "--untracked-files=no"], call);
  if (!dirty.ok) return refusal(409, "git_failed", `git could not read ${record.repo}'s status: ${gitWords(dirty)}`);
  const dirtyPaths = parsePorcelainPathsZ(dirty.stdout.toString("utf8"));
  if (dirtyPaths.length > 0) {
    return refusal(409, "base_dirty", `${record.repo} has uncommitted changes (${listed(dirtyPaths)}): commit or stash them there first, so the merge cannot mix with them`, {
      dirty: dirtyPaths.slice(0, 100),
    });
  }

  // The agent's branch: still checked out in its worktree.
  const wtBranch = await runGit(record.path, ["symbolic-ref", "--quiet", "--short", "HEAD"], call);
  if (!wtBranch.ok || firstLine(wtBranch) !== record.branch) {
    return refusal(
      409,
      "worktree_moved",
      `the worktree ${record.path} is no longer on its branch ${record.branch}${wtBranch.ok ? ` (it is on ${firstLine(wtBranch)})` : " (its HEAD is detached)"}: check ${record.branch} out there again first`,
    );
  }
  const head = firstLine(await runGit(record.path, ["rev-parse", "HEAD"], call));
  const status = await runGit(record.path, ["status", "--porcelain=v1", "-z", "--untracked-files=all"], call);
  if (!status.ok) return refusal(409, "git_failed", `git could not read the worktree's status: ${gitWords(status)}`);
  const uncommitted = parsePorcelainPathsZ(status.stdout.toString("utf8")).length > 0;
  if (uncommitted || mode === "merge") {
    const missing = (await identityMissing(record.path)) ?? (await identityMissing(record.repo));
    if (missing !== null) return missing;
  }
  const work = uncommitted ? await commitOfWork(record, head, call) : head;
  if (typeof work !== "string") return work;

  const baseTip = firstLine(await runGit(record.repo, ["rev-parse", `refs/heads/${into}`], call));
  if (mode === "ff") {
    const ancestor = await runGit(record.repo, ["merge-base", "--is-ancestor", baseTip, work], call);
    if (!ancestor.ok) return refusal(409, "not_fast_forward", `${into} has commits that ${record.branch} does not have, so it cannot be fast-forwarded: merge with a merge commit instead`);
  } else {
    const probe = await runGit(record.repo, ["merge-tree", "--write-tree", "--name-only", "-z", baseTip, work], call);
    if (!probe.ok && probe.code !== 1) return refusal(409, "git_failed", `git could not try the merge: ${gitWords(probe)}`);
    const { conflicts } = parseMergeTreeZ(probe.stdout.toString("utf8"), probe.code === 1);
    if (probe.code === 1) return conflictRefusal(record, into, baseTip, work, conflicts, call);
  }

  // Nothing refused: put the work on the branch (only if the branch did not move meanwhile), then merge.
  const baseNow = firstLine(await runGit(record.repo, ["rev-parse", "HEAD"], call));
  if (baseNow !== baseTip) return refusal(409, "base_moved", `${into} moved while pier was checking the merge (a new commit in ${record.repo}): try again`);
  if (work !== head) {
    const moved = await runGit(record.repo, ["update-ref", "-m", "pier: work of agent", `refs/heads/${record.branch}`, work, head], call);
    if (!moved.ok) return refusal(409, "branch_moved", `${record.branch} changed while pier was merging it (the agent committed?): try again`);
    // The worktree's index follows its new commit; its files stay as they are (what the agent wrote since stays uncommitted).
    await runGit(record.path, ["reset", "--quiet"], call);
  }
  const message = `Merge branch '${record.branch}'`;
  const merged = await runGit(
    record.repo,
    mode === "ff" ? ["merge", "--ff-only", "--quiet", record.branch] : [...IDENTITY_ONLY, "merge", "--no-ff", "--no-edit", "--quiet", "-m", message, record.branch],
    { ...call, hooks: true },
  );
  if (!merged.ok) {
    // A merge git stopped half-way (it conflicted after all: something changed under us) is taken back; the base is as it was.
    const midMerge = await runGit(record.repo, ["rev-parse", "--verify", "--quiet", "MERGE_HEAD"], call);
    if (midMerge.ok) await runGit(record.repo, ["merge", "--abort"], call);
    const kept = work !== head ? ` The agent's work is committed on ${record.branch} (${work.slice(0, 12)}); nothing is lost.` : "";
    return refusal(409, "merge_failed", `git did not merge: ${gitWords(merged)}.${kept}`);
  }
  return { mode, into, head: firstLine(await runGit(record.repo, ["rev-parse", "HEAD"], call)), committed: work !== head ? work : null };
}

/**
 * A commit of the worktree's files as they are now (untracked included,
 * ignored ones not), parented on its HEAD, made through a temporary index:
 * the worktree's own index, files and branch are untouched.
 */
async function commitOfWork(record: WorktreeRecord, head: string, call: GitCall): Promise<string | WorktreeRefusal> {
  const scratch = await mkdtemp(join(tmpdir(), "pier-merge-"));
  try {
    const index = join(scratch, "index");
    const indexed: GitCall = { ...call, env: { GIT_INDEX_FILE: index } };
    // A copy of the worktree's index keeps its cached file stats (adding is then quick); without one, HEAD's tree.
    const own = await runGit(record.path, ["rev-parse", "--path-format=absolute", "--git-path", "index"], call);
    const copied =
      own.ok &&
      (await copyFile(firstLine(own), index).then(
        () => true,
        () => false,
      ));
    const steps: string[][] = [...(copied ? [] : [["read-tree", head]]), ["add", "--all", "--", "."]];
    for (const args of steps) {
      const step = await runGit(record.path, args, indexed);
      if (!step.ok) return refusal(409, "git_failed", `git could not gather the agent's work: ${gitWords(step)}`);
    }
    const tree = await runGit(record.path, ["write-tree"], indexed);
    if (!tree.ok) return refusal(409, "git_failed", `git could not gather the agent's work: ${gitWords(tree)}`);
    const commit = await runGit(record.path, [...IDENTITY_ONLY, "commit-tree", firstLine(tree), "-p", head, "-m", `Work of agent on ${record.branch}`], call);
    if (!commit.ok) return refusal(409, "git_failed", `git could not commit the agent's work: ${gitWords(commit)}`);
    return firstLine(commit);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function conflictRefusal(record: WorktreeRecord, into: string, baseTip: string, work: string, paths: string[], call: GitCall): Promise<WorktreeRefusal> {
  const run = { guarded: call.guarded === true };
  const conflicts: LiveMergeConflict[] = await Promise.all(
    paths.slice(0, MAX_CONFLICT_TEXTS).map(async (path) => ({
      path,
      base: await blobText(record.repo, `${baseTip}:${path}`, run, MAX_SIDE_BYTES),
      worktree: await blobText(record.repo, `${work}:${path}`, run, MAX_SIDE_BYTES),
    })),
  );
  return refusal(
    409,
    "conflict",
    `${record.branch} and ${into} both changed ${listed(paths)}: the merge would conflict, so nothing was merged or committed. Resolve it in the agent's worktree (or ask the agent to), then merge again`,
    { conflicts, conflicted: paths },
  );
}

function listed(paths: readonly string[]): string {
  return paths.length <= 5 ? paths.join(", ") : `${paths.slice(0, 5).join(", ")} and ${paths.length - 5} more`;
}
