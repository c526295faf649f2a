// Pull (fast-forward only) and push of the current branch (POST
// /api/git/pull, /api/git/push), and `git init` for a folder that is not a
// repository yet. Nothing may wait for a person (git-run.ts: no prompt, no
// askpass, ssh in batch mode, a timeout): a remote that wants a password
// fails with git's own words instead of hanging the page.
import type { GitInitResponse, GitRemoteResponse } from "@pier/protocol";
import { gitFailure, notARepo } from "./git-errors.ts";
import { gitDirOf } from "./git-repo-state.ts";
import type { GitRunner } from "./git-run.ts";
import { WorkspaceError } from "./workspace-error.ts";

const REMOTE_TIMEOUT_MS = 60_000;

/** The branch checked out and the remotes configured; refuses a detached HEAD or a repository without remotes. */
async function branchAndRemotes(git: GitRunner, doing: "pull" | "push"): Promise<{ branch: string; remotes: string[] }> {
  if ((await gitDirOf(git)) === null) throw notARepo();
  const [current, remotes] = await Promise.all([git.run(["symbolic-ref", "--quiet", "--short", "HEAD"]), git.run(["remote"])]);
  const branch = current.code === 0 ? current.stdout.trim() : "";
  if (branch === "") throw new WorkspaceError(409, "git_failed", `HEAD is detached (no branch is checked out): switch to a branch, or create one here, to ${doing}.`, { output: "" });
  const names = remotes.stdout.split("\n").filter((name) => name !== "");
  if (names.length === 0)
    throw new WorkspaceError(409, "no_remote", `This repository has no remote to ${doing} ${doing === "pull" ? "from" : "to"}: add one (git remote add origin <url>).`, { output: "" });
  return { branch, remotes: names };
}

/** The branch's upstream ("origin/main"), or null when none is set. */
async function upstreamOf(git: GitRunner): Promise<string | null> {
  const run = await git.run(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"]);
  return run.code === 0 ? run.stdout.trim() || null : null;
}

/** `git pull --ff-only` from the branch's upstream: a branch that diverged is left as it is, and the answer says so. */
export async function pull(git: GitRunner): Promise<GitRemoteResponse> {
  const { branch } = await branchAndRemotes(git, "pull");
  if ((await upstreamOf(git)) === null) {
    throw new WorkspaceError(409, "no_remote", `${branch} has no upstream branch to pull from: push it first (Push sets the upstream).`, { output: "" });
  }
  const result = await git.run(["pull", "--ff-only", "--no-edit"], { repoCommands: true, timeoutMs: REMOTE_TIMEOUT_MS });
  if (result.code !== 0) {
    if (/Not possible to fast-forward|fatal: Not possible to fast-forward|diverg/i.test(result.output) && !result.timedOut) {
      throw new WorkspaceError(
        409,
        "not_fast_forward",
        `${branch} and its upstream have both moved on, so the pull cannot fast-forward; nothing changed. Merge or rebase them (in a terminal), then push.`,
        { output: result.output },
      );
    }
    throw gitFailure(result, `pull into ${branch}`);
  }
  return { branch, output: result.output };
}

/** `git push`; a branch without an upstream is pushed with `-u` to origin (or the only remote), which sets it. */
export async function push(git: GitRunner): Promise<GitRemoteResponse> {
  const { branch, remotes } = await branchAndRemotes(git, "push");
  let args: string[];
  if ((await upstreamOf(git)) !== null) {
    args = ["push"];
  } else {
    const remote = remotes.includes("origin") ? "origin" : remotes.length === 1 ? remotes[0]! : null;
    if (remote === null) throw new WorkspaceError(409, "no_remote", `${branch} has no upstream, and with several remotes and none named origin, pier does not guess where to push it.`, { output: "" });
    args = ["push", "-u", remote, branch];
  }
  const result = await git.run(args, { repoCommands: true, timeoutMs: REMOTE_TIMEOUT_MS });
  if (result.code !== 0) throw gitFailure(result, `push ${branch}`);
  return { branch, output: result.output };
}

/** `git init` in the workspace, only when it is not in a repository already. Runs no hook (a new repository has none of its own). */
export async function initRepository(git: GitRunner): Promise<GitInitResponse> {
  if ((await gitDirOf(git)) !== null) throw new WorkspaceError(409, "already_a_repo", "This workspace is already in a git repository.");
  const result = await git.run(["init"]);
  if (result.code !== 0) throw gitFailure(result, "make this folder a repository");
  return { output: result.output };
}
