// Real git in a test's project folder, with a fixed identity (the machine
// may have none) and no system config, so a spec's commits never depend on
// who runs it.
import { execFileSync } from "node:child_process";

const IDENTITY = { GIT_AUTHOR_NAME: "Pier Test", GIT_AUTHOR_EMAIL: "t@example.invalid", GIT_COMMITTER_NAME: "Pier Test", GIT_COMMITTER_EMAIL: "t@example.invalid", GIT_CONFIG_NOSYSTEM: "1" };

/** Runs git in `dir`; its output, or a throw with git's reason. */
export function gitIn(dir: string): (...args: string[]) => string {
  return (...args) => execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, ...IDENTITY } });
}

/** Makes `dir` a repository on `main` whose first commit holds everything in it. */
export function commitAll(dir: string): (...args: string[]) => string {
  const git = gitIn(dir);
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "initial");
  return git;
}
