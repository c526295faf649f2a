// Running git for the worktree routes (worktrees.ts): execFile with an
// argument array (never a shell), a timeout, bounded output, git's messages
// in English (they are shown to people as "git's words"), and an environment
// that cannot point git at another repository than the folder's.
//
// Hooks are off unless a call asks for them (only the merge into the base
// branch does: that is the person's repository running its own post-merge
// hook, as it would for their own `git merge`). A `guarded` call also
// switches off what the repository configures for itself (filters, diff
// drivers, transports: git-repo-commands.ts); reads for viewers, and
// anything in a workspace pi does not trust, are guarded.
import { execFile } from "node:child_process";
import { parseConfigNames, repoCommandOverrides, REPO_COMMAND_PATTERN, withConfigOverrides } from "../workspace/git-repo-commands.ts";

const TIMEOUT_MS = 30_000;
const DEFAULT_MAX_OUTPUT = 16 * 1024 * 1024;

/** Variables that would point git at another repository, index or worktree. */
const REDIRECTING_ENV = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES"];

export type GitCall = {
  /** Switch off the repository's own commands (filters, drivers, transports). */
  guarded?: boolean;
  /** Let the repository's hooks run (default: off). */
  hooks?: boolean;
  /** More environment (e.g. a temporary GIT_INDEX_FILE, set on purpose). */
  env?: NodeJS.ProcessEnv;
  maxOutput?: number;
  timeoutMs?: number;
};

export type GitOutcome = { ok: boolean; code: number | null; stdout: Buffer; stderr: string; tooLarge: boolean; timedOut: boolean };

/** Runs `git -C cwd args…`; never throws for git's own failures (see `ok`, `code`, `stderr`). */
export async function runGit(cwd: string, args: readonly string[], call: GitCall = {}): Promise<GitOutcome> {
  let env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", LANGUAGE: "C" };
  for (const name of REDIRECTING_ENV) delete env[name];
  // No editor, no pager: nothing may wait for a person at pier's terminal.
  env.GIT_EDITOR = "true";
  env.GIT_MERGE_AUTOEDIT = "no";
  if (call.guarded === true) {
    env.GIT_NO_LAZY_FETCH = "1";
    const listing = await exec(cwd, ["config", "-z", "--name-only", "--get-regexp", REPO_COMMAND_PATTERN], env, 4 * 1024 * 1024, TIMEOUT_MS);
    const overrides = repoCommandOverrides(listing.ok ? parseConfigNames(listing.stdout.toString("utf8")) : []);
    // A config built to exhaust the override list: git is not run at all.
    if (overrides === null)
      return { ok: false, code: null, stdout: Buffer.alloc(0), stderr: "this repository's config names too many filters and drivers to switch off", tooLarge: false, timedOut: false };
    env = withConfigOverrides(env, overrides);
  }
  env = { ...env, ...call.env };
  const hooks = call.hooks === true ? [] : ["-c", "core.hooksPath=/dev/null"];
  return exec(cwd, ["--no-pager", "-c", "core.quotePath=false", ...hooks, ...args], env, call.maxOutput ?? DEFAULT_MAX_OUTPUT, call.timeoutMs ?? TIMEOUT_MS);
}

function exec(cwd: string, args: string[], env: NodeJS.ProcessEnv, maxBuffer: number, timeout: number): Promise<GitOutcome> {
  return new Promise((resolve) => {
    execFile("git", args, { cwd, env, encoding: "buffer", maxBuffer, timeout, windowsHide: true }, (error, stdout, stderr) => {
      const err = error as (Error & { code?: unknown; killed?: boolean; signal?: unknown }) | null;
      const code = err === null ? 0 : typeof err.code === "number" ? err.code : null;
      resolve({
        ok: err === null,
        code,
        stdout: Buffer.isBuffer(stdout) ? stdout : Buffer.from(stdout ?? ""),
        stderr: (Buffer.isBuffer(stderr) ? stderr.toString("utf8") : String(stderr ?? "")).trim(),
        tooLarge: err?.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER",
        timedOut: err !== null && err.killed === true && err.signal === "SIGTERM",
      });
    });
  });
}

/** git's own words for a failure, for a person (its last lines; "fatal: " kept). */
export function gitWords(outcome: GitOutcome): string {
  if (outcome.timedOut) return "git took too long and was stopped";
  const text = outcome.stderr || outcome.stdout.toString("utf8").trim();
  const lines = text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("hint:"));
  return lines.slice(-6).join("\n") || `git failed (exit code ${outcome.code ?? "none"})`;
}

/** stdout as one trimmed line. */
export function firstLine(outcome: GitOutcome): string {
  return outcome.stdout.toString("utf8").split("\n")[0]!.trim();
}
