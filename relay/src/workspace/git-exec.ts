// Running git for the hunk review (git-review.ts): the same guarded
// environment as git-facts.ts (argument arrays, no shell, optional locks off,
// no fsmonitor, no textconv, no pager, a timeout, bounded output, and the
// repository's own commands switched off unless a driver in a trusted
// workspace asks, see git-repo-commands.ts), plus what writing the index
// needs: bytes on stdin, git's stderr (for an index.lock left behind) and
// the exit code as values.
import { execFile } from "node:child_process";
import { parseConfigNames, repoCommandOverrides, REPO_COMMAND_PATTERN, withConfigOverrides } from "./git-repo-commands.ts";

const GIT_TIMEOUT_MS = 15_000;

/** Variables that would point git at another repository or index than the workspace's. */
const REDIRECTING_ENV = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_COMMON_DIR"];

export type GitOutput = { ok: boolean; stdout: Buffer; stderr: string; exitCode: number | null; tooLarge: boolean };

/** One prepared environment, reused for the few commands of one request. */
export type GitExec = (args: string[], options?: { input?: Buffer | string; maxBuffer?: number }) => Promise<GitOutput>;

/**
 * A runner for `cwd`, or null when the repository's config cannot be read
 * (or names more drivers than can be switched off): git is then not run.
 */
export async function prepareGitExec(cwd: string, options: { repoCommands?: boolean; command?: string } = {}): Promise<GitExec | null> {
  const command = options.command ?? "git";
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };
  for (const name of REDIRECTING_ENV) delete env[name];
  const exec =
    (runEnv: NodeJS.ProcessEnv): GitExec =>
    (args, runOptions = {}) =>
      runGit(command, cwd, runEnv, args, runOptions.input, runOptions.maxBuffer ?? 4 * 1024 * 1024);
  if (options.repoCommands === true) return exec(env);
  env.GIT_NO_LAZY_FETCH = "1";
  const listing = await exec(env)(["config", "-z", "--name-only", "--get-regexp", REPO_COMMAND_PATTERN]);
  // Exit code 1: no such key.
  if (!listing.ok && listing.exitCode !== 1) return null;
  const overrides = repoCommandOverrides(listing.ok ? parseConfigNames(listing.stdout.toString("utf8")) : []);
  return overrides === null ? null : exec(withConfigOverrides(env, overrides));
}

function runGit(command: string, cwd: string, env: NodeJS.ProcessEnv, args: string[], input: Buffer | string | undefined, maxBuffer: number): Promise<GitOutput> {
  // --literal-pathspecs: a file named "*.ts" or ":(glob)x" is that file, never a pattern.
  const fullArgs = ["--no-pager", "--no-optional-locks", "--literal-pathspecs", "-c", "core.fsmonitor=false", "-c", "core.quotePath=false", "-C", cwd, ...args];
  return new Promise((resolve) => {
    const child = execFile(command, fullArgs, { cwd, env, encoding: "buffer", maxBuffer, timeout: GIT_TIMEOUT_MS, windowsHide: true }, (error, stdout, stderr) => {
      const stderrText = Buffer.isBuffer(stderr) ? stderr.toString("utf8") : String(stderr ?? "");
      if (!error) return resolve({ ok: true, stdout, stderr: stderrText, exitCode: 0, tooLarge: false });
      const code = (error as { code?: unknown }).code;
      resolve({
        ok: false,
        stdout: Buffer.isBuffer(stdout) ? stdout : Buffer.alloc(0),
        stderr: stderrText,
        exitCode: typeof code === "number" ? code : null,
        tooLarge: code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER",
      });
    });
    child.stdin?.on("error", () => {});
    child.stdin?.end(input ?? undefined);
  });
}
