// git's refusals as WorkspaceErrors a person can act on: the cases people
// meet (another git holding index.lock, a timeout, git missing) get a
// sentence of their own; everything else says what failed with git's first
// words, and every answer carries git's whole output (hooks' included).
import type { GitRunResult } from "./git-run.ts";
import { WorkspaceError } from "./workspace-error.ts";

/** The line of git's output that says what went wrong ("fatal: …", "error: …"), else its first line. */
export function gitReason(output: string): string {
  const lines = output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const said = lines.find((line) => /^(fatal|error):/.test(line)) ?? lines[0] ?? "";
  return said.length > 300 ? `${said.slice(0, 300)}…` : said;
}

/** The error for a git run that did not succeed; `doing` completes "git could not …" ("commit", "push main"). */
export function gitFailure(result: GitRunResult, doing: string): WorkspaceError {
  const extra = { output: result.output };
  if (result.missing) return new WorkspaceError(500, "internal", "git could not be started: is it installed on the machine pier runs on?", extra);
  if (result.timedOut) return new WorkspaceError(504, "git_timeout", `git could not ${doing}: it did not finish in time and was stopped (a remote that does not answer?).`, extra);
  if (/index\.lock'?: File exists/i.test(result.output)) {
    return new WorkspaceError(
      409,
      "git_locked",
      "Another git process is using this repository (.git/index.lock exists). Wait for it to finish; if no git is running, delete that file and try again.",
      extra,
    );
  }
  const reason = gitReason(result.output);
  return new WorkspaceError(409, "git_failed", `git could not ${doing}${reason ? `: ${reason}` : ` (exit code ${result.code})`}`, extra);
}

export const notARepo = () => new WorkspaceError(409, "not_a_repo", "This workspace is not a git repository. A driver can make it one (git init).");
