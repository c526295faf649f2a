// The branch checked out in a folder, for the board's cards. `git
// symbolic-ref` reads HEAD only: no index refresh, no filters, no hooks, so
// it is safe in an untrusted repository.
import { execFile } from "node:child_process";

const TIMEOUT_MS = 5_000;

/** The short branch name; null when HEAD is detached, git is missing, or `cwd` is not in a repository. */
export function gitBranch(cwd: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile("git", ["symbolic-ref", "--quiet", "--short", "HEAD"], { cwd, timeout: TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
      const name = String(stdout).trim();
      resolve(error || name === "" ? null : name);
    });
  });
}
