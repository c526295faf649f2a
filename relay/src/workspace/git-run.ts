// Runs git for the actions that change a repository (commit, branches, pull,
// push, init) and the facts the commit box reads. execFile-like, with an
// argument array (never a shell), the redirect-free environment git-facts.ts
// uses, and nothing that could wait for a person: no terminal prompt, no
// askpass program, no controlling terminal (git runs in a session of its
// own, so ssh, whichever command the user configured for it, fails where it
// would ask for a password or a host key), stdin closed unless we feed it, a
// timeout that ends git and what it started, and output cut at a bound (a
// hook may print without end).
//
// `repoCommands: false` (a viewer, or a folder nobody trusted) switches the
// repository's hooks and fsmonitor off; only reads run that way — every
// change runs for a driver in a trusted folder (workspace-api.ts).
import { spawn } from "node:child_process";
import { REDIRECTING_ENV } from "./git-facts.ts";

export type GitRunResult = {
  /** Exit code; null when git was killed (timeout) or could not start. */
  code: number | null;
  stdout: string;
  /** stderr and stdout as they came, cut at the bound: what to show a person. */
  output: string;
  timedOut: boolean;
  /** git could not be started at all (not installed). */
  missing: boolean;
};

export type GitRunOptions = {
  /** May the repository's hooks run? Default: no. */
  repoCommands?: boolean;
  /** Written to git's stdin (a commit message); otherwise stdin is closed. */
  input?: string;
  timeoutMs?: number;
  /** Options git reads before the command ("-c", "name=value"). */
  config?: string[];
};

const DEFAULT_TIMEOUT_MS = 30_000;
/** What a person can read of a hook's output; more is cut with a note. */
export const MAX_OUTPUT_CHARS = 64 * 1024;

export class GitRunner {
  readonly cwd: string;
  readonly #command: string;

  constructor(cwd: string, options: { command?: string } = {}) {
    this.cwd = cwd;
    this.#command = options.command ?? "git";
  }

  run(args: string[], options: GitRunOptions = {}): Promise<GitRunResult> {
    const guard = options.repoCommands === true ? [] : ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"];
    const fullArgs = ["--no-pager", "-c", "core.quotePath=false", ...guard, ...(options.config ?? []), "-C", this.cwd, ...args];
    return new Promise((resolve) => {
      // detached: a session of its own, with no terminal to prompt on (see the top of this file).
      const child = spawn(this.#command, fullArgs, { cwd: this.cwd, env: gitEnv(options.repoCommands === true), stdio: ["pipe", "pipe", "pipe"], windowsHide: true, detached: true });
      let stdout = "";
      let output = "";
      let cut = false;
      let timedOut = false;
      const take = (text: string, toStdout: boolean) => {
        if (toStdout && stdout.length < MAX_OUTPUT_CHARS * 16) stdout += text;
        if (cut) return;
        output += text;
        if (output.length > MAX_OUTPUT_CHARS) {
          output = `${output.slice(0, MAX_OUTPUT_CHARS)}\n… (output cut at ${MAX_OUTPUT_CHARS} characters)`;
          cut = true;
        }
      };
      child.stdout.setEncoding("utf8").on("data", (text: string) => take(text, true));
      child.stderr.setEncoding("utf8").on("data", (text: string) => take(text, false));
      // A hook that exits without reading its stdin makes writing fail with EPIPE: not our error.
      child.stdin.on("error", () => {});
      child.stdin.end(options.input ?? "");
      const timer = setTimeout(() => {
        timedOut = true;
        // The whole session: ssh, a hook and what they started go with git.
        try {
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      let missing = false;
      child.on("error", () => {
        missing = true;
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code: timedOut || missing ? null : code, stdout, output: output.trimEnd(), timedOut, missing });
      });
    });
  }
}

/**
 * git's environment: none of the variables that would point it at another
 * repository, and nothing that could wait for an answer nobody will type.
 */
export function gitEnv(repoCommands: boolean): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };
  for (const name of REDIRECTING_ENV) delete env[name];
  if (!repoCommands) env.GIT_OPTIONAL_LOCKS = "0";
  // No program asks for a password: git skips an empty askpass (and then core.askPass too), and ssh,
  // with no askpass and no terminal (GitRunner runs git in a session of its own), fails instead of
  // prompting. GIT_SSH_COMMAND is left as the user has it, so their core.sshCommand still counts.
  env.GIT_ASKPASS = "";
  delete env.SSH_ASKPASS;
  env.SSH_ASKPASS_REQUIRE = "never";
  // An editor would wait for a person: commit messages always come from the page.
  env.GIT_EDITOR = "true";
  return env;
}
