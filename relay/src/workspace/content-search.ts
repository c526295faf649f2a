// Content search across the workspace with `git grep`: fast (threaded, it
// reads the index's stat data instead of every file's), and it respects
// .gitignore. In a repository the working tree is searched, untracked files
// included (`--untracked`; with the "ignored files" toggle
// `--no-exclude-standard`); outside one `--no-index`. Binary files are
// skipped (-I). git runs with argument arrays (never a shell), with the
// repository's own commands off, and is killed the moment the search is
// abandoned.
//
// Which of a repository's commands can `git grep` reach? Checked with git
// 2.39 (relay/test/workspace/search.contract.test.ts keeps checking): it
// reads working-tree files as they are and blobs raw, so no clean/smudge
// filter or process runs, and no textconv without --textconv (--no-textconv
// is passed anyway); core.fsmonitor is overridden on the command line; grep
// runs no hook. What is left is a lazy fetch of a missing blob in a partial
// clone (a skip-worktree entry), whose transport a repository may allow for
// itself with protocol.<name>.allow: GIT_ALLOW_PROTOCOL, which outranks every
// config file, names no protocol, and GIT_NO_LAZY_FETCH refuses the fetch on
// git >= 2.44. So, unlike git-facts.ts, search does not list the config's
// drivers first: the fixed overrides are enough, and a keystroke's first
// result waits for one git process, not two.
import { execFile, spawn } from "node:child_process";
import { SEARCH_LIMITS, type SearchQuery } from "@pier/protocol";
import { repoCommandOverrides, withConfigOverrides } from "./git-repo-commands.ts";
import { GrepOutputParser, type GrepLine } from "./grep-output.ts";

/** As in git-facts.ts: variables that would point git at another repository or index than the workspace's. */
const REDIRECTING_ENV = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_COMMON_DIR"];

export type SearchRun = {
  /**
   * Called with each batch of matching lines, in git's order (file by file).
   * Return false to stop the search; a promise holds git's output until it
   * settles (backpressure, or an asynchronous check of each file).
   */
  onLines: (lines: GrepLine[]) => boolean | void | Promise<boolean | void>;
  signal?: AbortSignal;
  /** The git to run (tests put a wrapper here). */
  command?: string;
};

export type SearchOutcome = { ok: true; notRepo: boolean; stopped: boolean } | { ok: false; notRepo: boolean; message: string };

/** Runs `git grep` for `query` in `rootReal`; resolves when git has ended (or was killed). */
export async function runGitGrep(rootReal: string, query: SearchQuery, run: SearchRun): Promise<SearchOutcome> {
  const command = run.command ?? "git";
  const notRepo = !(await isRepositoryCached(command, rootReal));
  const env = guardedEnv();
  if (run.signal?.aborted) return { ok: true, notRepo, stopped: true };
  const args = grepArgs(query, notRepo);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: rootReal, env, stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
    const parser = new GrepOutputParser();
    let stopped = false;
    let stderr = "";
    const stop = () => {
      if (stopped) return;
      stopped = true;
      // At once: a search nobody waits for must not keep a core busy.
      child.kill("SIGKILL");
    };
    run.signal?.addEventListener("abort", stop, { once: true });
    // Lines are handed over strictly one batch after the other. Pausing
    // stdout while a batch is handled is not enough: when git exits, Node
    // resumes its stdout (child_process flushStdio), so the next batch can
    // arrive while one is still being handled; it waits its turn here, and
    // "close" waits for the last.
    let handled: Promise<unknown> = Promise.resolve();
    let waiting = 0;
    const handle = (answer: boolean | void | Promise<boolean | void>): void => {
      if (answer === false) return stop();
      if (!(answer instanceof Promise)) return;
      waiting++;
      child.stdout.pause();
      handled = answer.then(
        (more) => {
          waiting--;
          if (more === false) stop();
          else if (waiting === 0) child.stdout.resume();
        },
        () => {
          waiting--;
          stop();
        },
      );
    };
    child.stdout.on("data", (chunk: Buffer) => {
      if (stopped) return;
      const lines = parser.push(chunk);
      if (lines.length === 0) return;
      if (waiting === 0) return handle(run.onLines(lines));
      handle(handled.then(() => (stopped ? false : run.onLines(lines))));
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString("utf8");
    });
    child.once("error", (error) => {
      run.signal?.removeEventListener("abort", stop);
      resolve({ ok: false, notRepo, message: `git could not be started: ${error.message}` });
    });
    child.once("close", async (code) => {
      run.signal?.removeEventListener("abort", stop);
      await handled;
      // Exit 1: nothing matched.
      if (stopped || code === 0 || code === 1) resolve({ ok: true, notRepo, stopped });
      else resolve({ ok: false, notRepo, message: describeGitError(stderr, code) });
    });
  });
}

/** The arguments of one search; the pattern follows -e and the pathspecs follow "--", so neither can be read as an option. */
export function grepArgs(query: SearchQuery, notRepo: boolean): string[] {
  const args = [
    "--no-pager",
    "--no-optional-locks",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.quotePath=false",
    // A person's grep.* settings must not change what the page parses.
    "-c",
    "grep.fullName=false",
    "-c",
    "grep.lineNumber=true",
    "-c",
    "grep.column=true",
    "grep",
    "-z",
    "-I",
    "--line-number",
    "--column",
    "--no-color",
    "--no-textconv",
  ];
  if (notRepo) args.push("--no-index", ...(query.ignored ? [] : ["--exclude-standard"]));
  else args.push("--untracked", ...(query.ignored ? ["--no-exclude-standard"] : []));
  args.push(query.regex ? "-P" : "-F");
  if (!query.caseSensitive) args.push("-i");
  if (query.wholeWord) args.push("-w");
  args.push("-e", query.pattern, "--");
  // The workspace itself ("." is where git runs), narrowed by the globs. A
  // glob without "/" matches a name in any folder, as in .gitignore and other editors.
  args.push(...(query.include.length > 0 ? query.include.map((glob) => `:(glob)${anyFolder(glob)}`) : ["."]));
  args.push(...query.exclude.map((glob) => `:(exclude,glob)${anyFolder(glob)}`));
  return args;
}

function anyFolder(glob: string): string {
  const trimmed = glob.replace(/^\.\//, "").replace(/\/$/, "/**");
  return trimmed.startsWith("/") ? trimmed.slice(1) : trimmed.includes("/") ? trimmed : `**/${trimmed}`;
}

function describeGitError(stderr: string, code: number | null): string {
  const text = stderr
    .split("\n")
    .map((line) => line.replace(/^(fatal|error): /, "").trim())
    .filter((line) => line !== "")
    .join(" ");
  if (text === "") return `git grep failed (exit ${code ?? "signal"}).`;
  return `git grep refused the search: ${text}`;
}

/** The environment of every search: no redirection, no prompt, the fixed overrides, no transport at all. */
function guardedEnv(): NodeJS.ProcessEnv {
  // A protocol name that does not exist: every transport is refused, whatever the config allows.
  const env = { ...baseEnv(), GIT_ALLOW_PROTOCOL: "pier-none" };
  return withConfigOverrides(env, repoCommandOverrides([])!);
}

function baseEnv(): NodeJS.ProcessEnv {
  // C.UTF-8: git -P then matches characters, not bytes, as the page's RegExp does.
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C.UTF-8", GIT_NO_LAZY_FETCH: "1" };
  for (const name of REDIRECTING_ENV) delete env[name];
  return env;
}

/**
 * Whether a folder is in a repository changes rarely (git init), and a search
 * runs on every keystroke: the answer is kept a few seconds (one git process
 * fewer before the first result).
 */
const REPO_ANSWER_MS = 5000;
const repoAnswers = new Map<string, { inRepo: boolean; at: number }>();

async function isRepositoryCached(command: string, cwd: string): Promise<boolean> {
  const key = `${command}\0${cwd}`;
  const known = repoAnswers.get(key);
  if (known && performance.now() - known.at < REPO_ANSWER_MS) return known.inRepo;
  const inRepo = await isRepository(command, cwd, baseEnv());
  if (repoAnswers.size > 100) repoAnswers.clear();
  repoAnswers.set(key, { inRepo, at: performance.now() });
  return inRepo;
}

async function isRepository(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  return (await gitOutput(command, cwd, ["rev-parse", "--is-inside-work-tree"], env)).ok;
}

function gitOutput(command: string, cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ok: true; stdout: string } | { ok: false; exitCode: number | null }> {
  return new Promise((resolve) => {
    execFile(command, ["--no-pager", "-c", "core.fsmonitor=false", "-C", cwd, ...args], { cwd, env, maxBuffer: 4 * 1024 * 1024, timeout: 15_000, windowsHide: true }, (error, stdout) => {
      if (!error) return resolve({ ok: true, stdout });
      const code = (error as { code?: unknown }).code;
      resolve({ ok: false, exitCode: typeof code === "number" ? code : null });
    });
  });
}

export const MAX_SEARCH_MATCHES = SEARCH_LIMITS.maxMatches;
