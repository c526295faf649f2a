// Creating (from HEAD, then switched to), switching and deleting local
// branches (POST /api/git/branch/*). git's own refusals come back in its
// words: a switch that would overwrite uncommitted work, a branch not merged
// (deleted only when the person confirms a force delete). A name git would
// not accept is refused first, with a sentence.
import type { GitBranchResponse } from "@pier/protocol";
import { gitFailure, notARepo } from "./git-errors.ts";
import { gitDirOf } from "./git-repo-state.ts";
import type { GitRunner } from "./git-run.ts";
import { WorkspaceError } from "./workspace-error.ts";

const MAX_NAME_CHARS = 250;

/** The name, if git accepts it as a branch name; throws `bad_branch_name` otherwise. */
export async function validBranchName(git: GitRunner, name: unknown): Promise<string> {
  if (typeof name !== "string" || name.trim() === "") throw new WorkspaceError(400, "bad_branch_name", "Give the branch a name.");
  const refused = (why: string) => new WorkspaceError(400, "bad_branch_name", `git does not accept ${JSON.stringify(name)} as a branch name: ${why}`);
  if (name.length > MAX_NAME_CHARS) throw refused(`it is longer than ${MAX_NAME_CHARS} characters.`);
  // "-x" would be read as an option; "@{-1}" is git's "the branch before", which check-ref-format expands.
  if (name.startsWith("-")) throw refused('it starts with "-".');
  if (name.includes("@{")) throw refused('it contains "@{".');
  const check = await git.run(["check-ref-format", "--branch", name]);
  if (check.code !== 0 || check.stdout.trim() !== name) {
    throw refused('no spaces, no "..", "~", "^", ":", "?", "*", "[" or "\\", and no "/" or "." at either end or ".lock" at the end.');
  }
  return name;
}

async function requireRepo(git: GitRunner): Promise<void> {
  if ((await gitDirOf(git)) === null) throw notARepo();
}

/** `git switch -c <name>`: a new branch at HEAD (detached or not, or with no commit yet), checked out. */
export async function createBranch(git: GitRunner, body: Record<string, unknown>): Promise<GitBranchResponse> {
  await requireRepo(git);
  const name = await validBranchName(git, body.name);
  const result = await git.run(["switch", "--no-guess", "-c", name], { repoCommands: true });
  if (result.code !== 0) throw gitFailure(result, `create the branch ${name}`);
  return { name, output: result.output };
}

/** `git switch <name>`: refused by git (and so here) when it would overwrite uncommitted changes. */
export async function switchBranch(git: GitRunner, body: Record<string, unknown>): Promise<GitBranchResponse> {
  await requireRepo(git);
  const name = await validBranchName(git, body.name);
  const result = await git.run(["switch", "--no-guess", name], { repoCommands: true });
  if (result.code !== 0) throw gitFailure(result, `switch to ${name}`);
  return { name, output: result.output };
}

/** `git branch -d` (or `-D` with `force: true`); never the branch checked out. */
export async function deleteBranch(git: GitRunner, body: Record<string, unknown>): Promise<GitBranchResponse> {
  await requireRepo(git);
  const name = await validBranchName(git, body.name);
  if (body.force !== undefined && typeof body.force !== "boolean") throw new WorkspaceError(400, "bad_request", '"force" must be true or false.');
  const current = await git.run(["symbolic-ref", "--quiet", "--short", "HEAD"]);
  if (current.code === 0 && current.stdout.trim() === name) {
    throw new WorkspaceError(409, "git_failed", `${name} is the branch checked out here: switch to another branch before deleting it.`, { output: "" });
  }
  const result = await git.run(["branch", body.force === true ? "-D" : "-d", name], { repoCommands: true });
  if (result.code !== 0) {
    if (/not fully merged/.test(result.output)) {
      throw new WorkspaceError(409, "branch_not_merged", `${name} has commits that are on no other branch: deleting it loses them. Delete it anyway only if you are sure.`, {
        output: result.output,
      });
    }
    throw gitFailure(result, `delete ${name}`);
  }
  return { name, output: result.output };
}
