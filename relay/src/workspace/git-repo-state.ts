// What the commit box and the branch menu show (GET /api/git/repo): HEAD,
// local branches with their upstream and ahead/behind, remotes, a merge or
// rebase under way, conflicted and staged counts, the last commit's message
// (for amending), and whether another git holds index.lock. Reads only:
// nothing here runs a hook, filter or fsmonitor (git-run.ts switches them off
// unless the caller may run them), so viewers may ask too.
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { GitBranch, GitOperationKind, GitRepoResponse } from "@pier/protocol";
import type { GitRunner } from "./git-run.ts";

export const MAX_BRANCHES = 1000;

/** The repository's git folder (absolute; a worktree's own), or null when the workspace is not in one. */
export async function gitDirOf(git: GitRunner): Promise<string | null> {
  const run = await git.run(["rev-parse", "--absolute-git-dir"]);
  return run.code === 0 ? run.stdout.trim() || null : null;
}

export async function readRepoState(git: GitRunner): Promise<GitRepoResponse> {
  const gitDir = await gitDirOf(git);
  if (gitDir === null) return { isRepo: false };
  const [symbolic, commit, refs, remotes, unmerged, staged, last, operation, locked] = await Promise.all([
    git.run(["symbolic-ref", "--quiet", "--short", "HEAD"]),
    git.run(["rev-parse", "--short", "--verify", "--quiet", "HEAD"]),
    git.run(["for-each-ref", `--count=${MAX_BRANCHES + 1}`, "--format=%(HEAD)%00%(refname:short)%00%(upstream:short)%00%(upstream:track,nobracket)", "refs/heads"]),
    git.run(["remote"]),
    git.run(["ls-files", "-u", "-z"]),
    stagedCount(git),
    git.run(["log", "-1", "--format=%h%x00%B"]),
    operationUnderWay(gitDir),
    exists(join(gitDir, "index.lock")),
  ]);
  const branches = parseBranches(refs.code === 0 ? refs.stdout : "");
  const truncated = branches.length > MAX_BRANCHES;
  const lastParts = last.code === 0 ? last.stdout.split("\0") : [];
  return {
    isRepo: true,
    head: { branch: symbolic.code === 0 ? symbolic.stdout.trim() || null : null, commit: commit.code === 0 ? commit.stdout.trim() || null : null },
    branches: truncated ? branches.slice(0, MAX_BRANCHES) : branches,
    ...(truncated ? { truncated } : {}),
    remotes: remotes.code === 0 ? remotes.stdout.split("\n").filter((name) => name !== "") : [],
    operation,
    conflicted: unmerged.code === 0 ? countUnmerged(unmerged.stdout) : 0,
    staged,
    lastCommit: lastParts.length >= 2 ? { commit: lastParts[0]!, message: lastParts.slice(1).join("\0").replace(/\n+$/, "") } : null,
    locked,
  };
}

/** Files staged for the next commit (with no commit yet, everything in the index is). */
export async function stagedCount(git: GitRunner): Promise<number> {
  // Unmerged paths (a conflict) are counted as conflicted, not staged.
  const run = await git.run(["diff", "--cached", "--name-only", "-z", "--no-ext-diff", "--no-textconv", "--no-renames", "--diff-filter=u"]);
  return run.code === 0 ? run.stdout.split("\0").filter((path) => path !== "").length : 0;
}

/** `for-each-ref` lines: "*" or " ", name, upstream, "ahead 1, behind 2" | "gone" | "". */
export function parseBranches(stdout: string): GitBranch[] {
  const branches: GitBranch[] = [];
  for (const line of stdout.split("\n")) {
    if (line === "") continue;
    const [head = "", name = "", upstream = "", track = ""] = line.split("\0");
    const ahead = /ahead (\d+)/.exec(track);
    const behind = /behind (\d+)/.exec(track);
    const branch: GitBranch = { name, current: head === "*", upstream: upstream || null, ahead: ahead ? Number(ahead[1]) : 0, behind: behind ? Number(behind[1]) : 0 };
    if (track === "gone") branch.upstreamGone = true;
    branches.push(branch);
  }
  return branches;
}

/** `ls-files -u -z`: one entry per conflict stage ("mode hash stage\tpath"); a path counts once. */
function countUnmerged(stdout: string): number {
  const paths = new Set<string>();
  for (const entry of stdout.split("\0")) {
    const tab = entry.indexOf("\t");
    if (tab !== -1) paths.add(entry.slice(tab + 1));
  }
  return paths.size;
}

/** A merge, rebase, cherry-pick or revert under way, from the files git keeps while it waits. */
export async function operationUnderWay(gitDir: string): Promise<{ kind: GitOperationKind; onto: string | null } | null> {
  for (const folder of ["rebase-merge", "rebase-apply"]) {
    if (await exists(join(gitDir, folder))) {
      const headName = (await readSmall(join(gitDir, folder, "head-name")))?.trim() ?? null;
      return { kind: "rebase", onto: headName ? headName.replace(/^refs\/heads\//, "") : null };
    }
  }
  if (await exists(join(gitDir, "MERGE_HEAD"))) {
    // MERGE_MSG's first line names what is merged: "Merge branch 'feature'", "Merge remote-tracking branch 'origin/x'".
    const message = (await readSmall(join(gitDir, "MERGE_MSG"))) ?? "";
    const named = /^Merge (?:remote-tracking )?(?:branch|tag|commit) '([^']+)'/.exec(message);
    return { kind: "merge", onto: named ? named[1]! : null };
  }
  if (await exists(join(gitDir, "CHERRY_PICK_HEAD"))) return { kind: "cherry-pick", onto: null };
  if (await exists(join(gitDir, "REVERT_HEAD"))) return { kind: "revert", onto: null };
  return null;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function readSmall(path: string): Promise<string | null> {
  try {
    const text = await readFile(path, "utf8");
    return text.slice(0, 4096);
  } catch {
    return null;
  }
}
