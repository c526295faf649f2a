// Committing the staged changes (POST /api/git/commit), or amending the last
// commit. Runs for a driver in a trusted folder only (workspace-api.ts), so
// the repository's hooks (pre-commit, commit-msg…) run as in a terminal; a
// hook that fails stops the commit and its output is returned, and the page
// keeps the message. The person's own git identity is used: without one the
// answer says how to set it, before git is asked.
import type { GitCommitResponse } from "@pier/protocol";
import { gitFailure, notARepo } from "./git-errors.ts";
import { gitDirOf, operationUnderWay, stagedCount } from "./git-repo-state.ts";
import type { GitRunner } from "./git-run.ts";
import { WorkspaceError } from "./workspace-error.ts";

/** A commit message beyond this is not a message (the request body is bounded too). */
const MAX_MESSAGE_CHARS = 32 * 1024;
/** Hooks may run a project's whole linter or test suite. */
const COMMIT_TIMEOUT_MS = 120_000;

export async function commitStaged(git: GitRunner, body: Record<string, unknown>): Promise<GitCommitResponse> {
  const { message, amend } = body;
  if (typeof message !== "string" || message.trim() === "") throw new WorkspaceError(400, "bad_request", "Write a commit message first: git refuses an empty one.");
  if (message.length > MAX_MESSAGE_CHARS) throw new WorkspaceError(400, "bad_request", `The commit message is longer than ${MAX_MESSAGE_CHARS} characters.`);
  if (amend !== undefined && typeof amend !== "boolean") throw new WorkspaceError(400, "bad_request", '"amend" must be true or false.');
  const gitDir = await gitDirOf(git);
  if (gitDir === null) throw notARepo();
  await requireIdentity(git);
  const head = await git.run(["rev-parse", "--verify", "--quiet", "HEAD"]);
  if (amend === true && head.code !== 0) throw new WorkspaceError(409, "git_failed", "There is no commit to amend yet: make the first commit instead.", { output: "" });
  // A merge (or an amend that only rewords) commits without anything newly staged.
  if (amend !== true && (await operationUnderWay(gitDir))?.kind !== "merge" && (await stagedCount(git)) === 0) {
    throw new WorkspaceError(409, "nothing_staged", "Nothing is staged, so there is nothing to commit: stage the changes you want in it first.", { output: "" });
  }
  const result = await git.run(["commit", "--cleanup=whitespace", "-F", "-", ...(amend === true ? ["--amend"] : [])], { repoCommands: true, input: message, timeoutMs: COMMIT_TIMEOUT_MS });
  if (result.code !== 0) throw gitFailure(result, amend === true ? "amend the last commit" : "commit");
  const made = await git.run(["log", "-1", "--format=%h%x00%s"]);
  const [commit = "", subject = ""] = made.stdout.trim().split("\0");
  return { commit, subject, output: result.output };
}

/** Throws `no_identity` when git does not know who commits (its `user.name`/`user.email`, or what it may guess). */
export async function requireIdentity(git: GitRunner): Promise<void> {
  const [author, committer] = await Promise.all([git.run(["var", "GIT_AUTHOR_IDENT"]), git.run(["var", "GIT_COMMITTER_IDENT"])]);
  if (author.code === 0 && committer.code === 0) return;
  throw new WorkspaceError(
    409,
    "no_identity",
    'git does not know who you are, so it cannot commit. Set your name and email once, in a terminal: git config --global user.name "Your Name" and git config --global user.email "you@example.com", then commit again.',
    { output: (author.code !== 0 ? author : committer).output },
  );
}
