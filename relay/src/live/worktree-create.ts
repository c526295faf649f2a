// A new branch and its git worktree, made from a workspace's current HEAD
// (`git worktree add -b`, so `git worktree list` shows it). Every bad input
// is refused with a sentence before anything is made: not a folder, not a
// repository, no commits yet, a branch name git refuses, a branch that
// exists, a folder already at the worktree's location. A detached HEAD is
// allowed: the worktree's base then has no branch (nothing to merge into).
import { lstat, mkdir, rmdir } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { checkFolder } from "./folder-check.ts";
import { worktreeLocation } from "./git-parse.ts";
import { firstLine, gitWords, runGit } from "./git-run.ts";
import { folderTrusted, refusal, type WorktreeRecord, type WorktreeRefusal } from "./worktrees.ts";

const MAX_BRANCH_LENGTH = 200;

export type NewWorktree = WorktreeRecord & {
  /** Where the agent starts: the worktree's copy of the folder it was asked for in (a subfolder of the repository), else its top. */
  start: string;
};

export async function createWorktree(workspaceInput: unknown, branchInput: unknown, worktreesDir: string | null): Promise<NewWorktree | WorktreeRefusal> {
  if (typeof workspaceInput !== "string" || !isAbsolute(workspaceInput) || workspaceInput.includes("\0")) {
    return refusal(400, "bad_request", "say which workspace the agent branches from (its absolute path, as /home/you/project)");
  }
  if (typeof branchInput !== "string" || branchInput.trim() === "") return refusal(400, "bad_request", "name the new branch (as agent/fix-login)");
  const branch = branchInput;
  const folder = await checkFolder(workspaceInput);
  if (!folder.ok) return refusal(400, "not_a_folder", folder.message);
  const top = await runGit(folder.path, ["rev-parse", "--show-toplevel"]);
  if (!top.ok || firstLine(top) === "") return refusal(400, "not_a_repository", `${folder.path} is not in a git repository (with a working tree), so an agent cannot get a branch of its own there`);
  const repo = firstLine(top);
  const prefix = firstLine(await runGit(folder.path, ["rev-parse", "--show-prefix"]));

  const nameRefused = await checkBranchName(repo, branch);
  if (nameRefused !== null) return nameRefused;
  const head = await runGit(repo, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
  if (!head.ok) return refusal(409, "no_commits", `the repository ${repo} has no commits yet: make a first commit, then start an agent on a branch`);
  const commit = firstLine(head);
  const onBranch = await runGit(repo, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  const baseBranch = onBranch.ok ? firstLine(onBranch) || null : null;
  const exists = await runGit(repo, ["show-ref", "--verify", "--quiet", `refs/heads/${branch}`]);
  if (exists.ok) return refusal(409, "branch_exists", `a branch named ${branch} exists already in ${repo}: choose another name`);

  const path = worktreeLocation(repo, branch, worktreesDir);
  if (
    await lstat(path).then(
      () => true,
      () => false,
    )
  )
    return refusal(409, "folder_exists", `a folder already exists at ${path}, where the worktree would go: choose another branch name or move that folder`);
  const parent = dirname(path);
  const madeParent = await mkdir(parent, { recursive: true }).catch((error: NodeJS.ErrnoException) => error);
  if (madeParent instanceof Error) return refusal(409, "cannot_create", `the folder ${parent} for worktrees cannot be made (${madeParent.code ?? madeParent.message})`);

  // The repository's filters (a checkout runs smudge filters) only where pi trusts it; never its hooks.
  const added = await runGit(repo, ["worktree", "add", "--quiet", "-b", branch, path, commit], { guarded: !(await folderTrusted(repo)) });
  if (!added.ok) {
    // An empty folder made just now for it goes again (mkdir made it, nothing else is in it).
    await rmdir(parent).catch(() => {});
    return refusal(409, "worktree_failed", `git could not make the worktree: ${gitWords(added)}`);
  }
  const inside = join(path, prefix);
  const start =
    prefix !== "" &&
    (await lstat(inside).then(
      (info) => info.isDirectory(),
      () => false,
    ))
      ? inside
      : path;
  return { branch, base: { branch: baseBranch, commit }, path, repo, start };
}

/** git's own judgement of a new branch's name; also refuses what would read as an option or a shorthand ("@{-1}", "-x"). */
async function checkBranchName(repo: string, branch: string): Promise<WorktreeRefusal | null> {
  const why = (reason: string) => refusal(400, "bad_branch", `git refuses the branch name ${JSON.stringify(branch)}: ${reason}`);
  if (branch.length > MAX_BRANCH_LENGTH) return why(`it is longer than ${MAX_BRANCH_LENGTH} characters`);
  if (branch.startsWith("-")) return why("it starts with a dash");
  if (branch === "HEAD") return why("HEAD names the current commit");
  const checked = await runGit(repo, ["check-ref-format", "--branch", branch]);
  if (!checked.ok) return why("no spaces, ~ ^ : ? * [ \\, double dots, @{, a leading or trailing dot or slash, or .lock at the end");
  // `--branch` expands @{-1} and the like into another branch's name: only the name as given is a new branch.
  if (firstLine(checked) !== branch) return why("it names another branch (an @{…} shorthand)");
  return null;
}
