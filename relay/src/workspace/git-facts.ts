// Read-only facts from git: the working tree's status and a file's text in
// HEAD. git runs through execFile with argument arrays (never a shell), with
// optional locks off (so `status` does not refresh the index), no fsmonitor
// hook, no textconv, a timeout and bounded output. A path from a request is
// validated like any other and only ever appears inside "HEAD:./<path>", an
// argument that cannot be read as an option.
//
// Every call says whether the repository's own commands may run (a driver in
// a trusted workspace, see workspace-trust.ts). By default they may not: the
// filters, diff drivers, submodules' config and transports a repository
// configures are switched off (git-repo-commands.ts), so a folder someone
// else prepared runs nothing when a page, or a viewer, looks at it.
import { execFile } from "node:child_process";
import { WORKSPACE_LIMITS, type GitChange, type GitChangeStatus, type GitHeadResponse, type GitStatusResponse } from "@pier/protocol";
import { parseNumstatZ, type LineCounts } from "../live/git-parse.ts";
import { decodeText } from "./file-content.ts";
import { parseConfigNames, repoCommandOverrides, REPO_COMMAND_PATTERN, withConfigOverrides } from "./git-repo-commands.ts";
import type { WorkspacePaths } from "./workspace-paths.ts";
import { validatePath } from "./workspace-paths.ts";

/** May git run what the repository configures (filters, diff drivers, submodules' own config…)? Default: no. */
export type GitRunOptions = { repoCommands?: boolean };

const GIT_TIMEOUT_MS = 15_000;
const MAX_STATUS_BYTES = 32 * 1024 * 1024;
export const MAX_GIT_CHANGES = 10_000;

/** Variables that would point git at another repository or index than the workspace's. */
export const REDIRECTING_ENV = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_COMMON_DIR"];

type GitResult = { ok: true; stdout: Buffer } | { ok: false; tooLarge: boolean; exitCode: number | null };

/** How one call runs git: its environment, and whether the repository's own commands are off. */
type GitRun = { env: NodeJS.ProcessEnv; guarded: boolean };

export class GitFacts {
  readonly #paths: WorkspacePaths;
  readonly #command: string;

  constructor(paths: WorkspacePaths, options: { command?: string } = {}) {
    this.#paths = paths;
    this.#command = options.command ?? "git";
  }

  async status(options: GitRunOptions = {}): Promise<GitStatusResponse> {
    const notRepo: GitStatusResponse = { isRepo: false, branch: null, changes: [] };
    const rootReal = await this.#paths.rootReal();
    const run = await this.#prepare(rootReal, options);
    if (run === null) return notRepo;
    const prefixRun = await this.#git(rootReal, ["rev-parse", "--show-prefix"], 64 * 1024, run);
    if (!prefixRun.ok) return notRepo;
    const prefix = prefixRun.stdout.toString("utf8").trim();
    // A submodule's status runs with its own config (.git/modules/…), whose drivers were not listed.
    const submodules = run.guarded ? ["--ignore-submodules=all"] : [];
    const [branchRun, statusRun, countsRun] = await Promise.all([
      this.#git(rootReal, ["symbolic-ref", "--quiet", "--short", "HEAD"], 64 * 1024, run),
      this.#git(rootReal, ["status", "--porcelain=v1", "-z", "--untracked-files=all", ...submodules, "--", "."], MAX_STATUS_BYTES, run),
      // Lines added and deleted per file (a run's "Changed N files" shows them): one more git beside status, paths
      // relative to the workspace like status's once its prefix is off. No commit yet: it fails, and there are none.
      this.#git(rootReal, ["diff", "--numstat", "-z", "--relative", "--no-ext-diff", "--no-textconv", ...submodules, "HEAD", "--", "."], MAX_STATUS_BYTES, run),
    ]);
    if (!statusRun.ok) return notRepo;
    const branch = branchRun.ok ? branchRun.stdout.toString("utf8").trim() || null : null;
    const { changes, truncated } = parsePorcelainZ(statusRun.stdout.toString("utf8"), prefix, MAX_GIT_CHANGES);
    if (countsRun.ok) addLineCounts(changes, parseNumstatZ(countsRun.stdout.toString("utf8")));
    return { isRepo: true, branch, changes, ...(truncated ? { truncated } : {}) };
  }

  /** The repository's git folder (absolute), or null when the workspace is not in a repository. */
  async gitDir(): Promise<string | null> {
    const rootReal = await this.#paths.rootReal();
    const gitRun = await this.#prepare(rootReal, {});
    if (gitRun === null) return null;
    const run = await this.#git(rootReal, ["rev-parse", "--absolute-git-dir"], 64 * 1024, gitRun);
    return run.ok ? run.stdout.toString("utf8").trim() || null : null;
  }

  async head(pathInput: unknown, options: GitRunOptions = {}): Promise<GitHeadResponse> {
    const path = validatePath(pathInput);
    const rootReal = await this.#paths.rootReal();
    const gitRun = await this.#prepare(rootReal, options);
    if (gitRun === null) return { path, content: null, reason: "not_a_repo" };
    const run = await this.#git(rootReal, ["cat-file", "blob", `HEAD:./${path}`], WORKSPACE_LIMITS.maxEditableBytes + 1, gitRun);
    if (!run.ok) {
      if (run.tooLarge) return { path, content: null, reason: "too_large" };
      const repo = await this.#git(rootReal, ["rev-parse", "--show-prefix"], 64 * 1024, gitRun);
      return { path, content: null, reason: repo.ok ? "not_in_head" : "not_a_repo" };
    }
    const content = decodeText(run.stdout);
    return content === null ? { path, content: null, reason: "binary" } : { path, content };
  }

  /**
   * The environment for one call. With the repository's commands off, its
   * config is read first (that runs nothing) for the drivers to switch off;
   * null when that fails (a broken config, on which the commands themselves
   * would fail too) or names too many drivers: git is then not run at all.
   */
  async #prepare(cwd: string, options: GitRunOptions): Promise<GitRun | null> {
    const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };
    for (const name of REDIRECTING_ENV) delete env[name];
    if (options.repoCommands === true) return { env, guarded: false };
    // git >= 2.44 also refuses lazy fetches outright; older ones ignore the variable (protocol.allow covers them).
    env.GIT_NO_LAZY_FETCH = "1";
    const listing = await this.#git(cwd, ["config", "-z", "--name-only", "--get-regexp", REPO_COMMAND_PATTERN], 4 * 1024 * 1024, { env, guarded: true });
    // Exit code 1: no such key.
    if (!listing.ok && listing.exitCode !== 1) return null;
    const overrides = repoCommandOverrides(listing.ok ? parseConfigNames(listing.stdout.toString("utf8")) : []);
    return overrides === null ? null : { env: withConfigOverrides(env, overrides), guarded: true };
  }

  #git(cwd: string, args: string[], maxBuffer: number, run: GitRun): Promise<GitResult> {
    const fullArgs = ["--no-pager", "--no-optional-locks", "-c", "core.fsmonitor=false", "-c", "core.quotePath=false", "-C", cwd, ...args];
    return new Promise((resolve) => {
      execFile(this.#command, fullArgs, { cwd, env: run.env, encoding: "buffer", maxBuffer, timeout: GIT_TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
        if (!error) return resolve({ ok: true, stdout });
        const code = (error as { code?: unknown }).code;
        resolve({ ok: false, tooLarge: code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER", exitCode: typeof code === "number" ? code : null });
      });
    });
  }
}

/**
 * Parses `git status --porcelain=v1 -z`: "XY path\0", and for a rename or
 * copy "XY new\0old\0". Paths are repository-relative; `prefix` (the
 * workspace's place in the repository, "" or ending in "/") is removed, and
 * entries outside the workspace are dropped.
 */
export function parsePorcelainZ(output: string, prefix: string, limit: number): { changes: GitChange[]; truncated: boolean } {
  const parts = output.split("\0");
  const changes: GitChange[] = [];
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i]!;
    if (entry.length < 4) continue;
    const x = entry[0]!;
    const y = entry[1]!;
    const repoPath = entry.slice(3);
    const moved = x === "R" || x === "C" || y === "R" || y === "C";
    const repoFrom = moved ? parts[++i] : undefined;
    if (!repoPath.startsWith(prefix)) continue;
    const status = classify(x, y);
    if (status === null) continue;
    if (changes.length >= limit) return { changes, truncated: true };
    const change: GitChange = { path: repoPath.slice(prefix.length), status, index: x, worktree: y };
    if (status === "renamed" && repoFrom !== undefined) {
      change.from = repoFrom.startsWith(prefix) ? repoFrom.slice(prefix.length) : repoFrom;
    }
    changes.push(change);
  }
  return { changes, truncated: false };
}

/** Each change's lines added and deleted, where `git diff --numstat` counted them (not for binary files). */
export function addLineCounts(changes: GitChange[], counts: ReadonlyMap<string, LineCounts>): void {
  for (const change of changes) {
    const count = counts.get(change.path);
    if (count === undefined || count.added === null || count.deleted === null) continue;
    change.added = count.added;
    change.deleted = count.deleted;
  }
}

const CONFLICTS = new Set(["DD", "AU", "UD", "UA", "DU", "AA", "UU"]);

export function classify(x: string, y: string): GitChangeStatus | null {
  const xy = x + y;
  if (xy === "??") return "untracked";
  if (xy === "!!") return null;
  if (CONFLICTS.has(xy)) return "conflicted";
  if (x === "R" || y === "R") return "renamed";
  if (x === "D" || y === "D") return "deleted";
  if (x === "A" || y === "A" || x === "C" || y === "C") return "added";
  if (x === "M" || y === "M" || x === "T" || y === "T") return "modified";
  return null;
}
