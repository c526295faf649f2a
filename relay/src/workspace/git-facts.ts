// Read-only facts from git: the working tree's status and a file's text in
// HEAD. git runs through execFile with argument arrays (never a shell), with
// optional locks off (so `status` does not refresh the index), no fsmonitor
// hook, no textconv, a timeout and bounded output. A path from a request is
// validated like any other and only ever appears inside "HEAD:./<path>", an
// argument that cannot be read as an option.
import { execFile } from "node:child_process";
import { WORKSPACE_LIMITS, type GitChange, type GitChangeStatus, type GitHeadResponse, type GitStatusResponse } from "@pier/protocol";
import { decodeText } from "./file-content.ts";
import type { WorkspacePaths } from "./workspace-paths.ts";
import { validatePath } from "./workspace-paths.ts";

const GIT_TIMEOUT_MS = 15_000;
const MAX_STATUS_BYTES = 32 * 1024 * 1024;
export const MAX_GIT_CHANGES = 10_000;

/** Variables that would point git at another repository or index than the workspace's. */
const REDIRECTING_ENV = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_COMMON_DIR"];

type GitResult = { ok: true; stdout: Buffer } | { ok: false; tooLarge: boolean };

export class GitFacts {
  readonly #paths: WorkspacePaths;
  readonly #command: string;

  constructor(paths: WorkspacePaths, options: { command?: string } = {}) {
    this.#paths = paths;
    this.#command = options.command ?? "git";
  }

  async status(): Promise<GitStatusResponse> {
    const notRepo: GitStatusResponse = { isRepo: false, branch: null, changes: [] };
    const rootReal = await this.#paths.rootReal();
    const prefixRun = await this.#git(rootReal, ["rev-parse", "--show-prefix"], 64 * 1024);
    if (!prefixRun.ok) return notRepo;
    const prefix = prefixRun.stdout.toString("utf8").trim();
    const [branchRun, statusRun] = await Promise.all([
      this.#git(rootReal, ["symbolic-ref", "--quiet", "--short", "HEAD"], 64 * 1024),
      this.#git(rootReal, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", "."], MAX_STATUS_BYTES),
    ]);
    if (!statusRun.ok) return notRepo;
    const branch = branchRun.ok ? branchRun.stdout.toString("utf8").trim() || null : null;
    const { changes, truncated } = parsePorcelainZ(statusRun.stdout.toString("utf8"), prefix, MAX_GIT_CHANGES);
    return { isRepo: true, branch, changes, ...(truncated ? { truncated } : {}) };
  }

  /** The repository's git folder (absolute), or null when the workspace is not in a repository. */
  async gitDir(): Promise<string | null> {
    const rootReal = await this.#paths.rootReal();
    const run = await this.#git(rootReal, ["rev-parse", "--absolute-git-dir"], 64 * 1024);
    return run.ok ? run.stdout.toString("utf8").trim() || null : null;
  }

  async head(pathInput: unknown): Promise<GitHeadResponse> {
    const path = validatePath(pathInput);
    const rootReal = await this.#paths.rootReal();
    const run = await this.#git(rootReal, ["cat-file", "blob", `HEAD:./${path}`], WORKSPACE_LIMITS.maxEditableBytes + 1);
    if (!run.ok) {
      if (run.tooLarge) return { path, content: null, reason: "too_large" };
      const repo = await this.#git(rootReal, ["rev-parse", "--show-prefix"], 64 * 1024);
      return { path, content: null, reason: repo.ok ? "not_in_head" : "not_a_repo" };
    }
    const content = decodeText(run.stdout);
    return content === null ? { path, content: null, reason: "binary" } : { path, content };
  }

  #git(cwd: string, args: string[], maxBuffer: number): Promise<GitResult> {
    const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };
    for (const name of REDIRECTING_ENV) delete env[name];
    const fullArgs = ["--no-optional-locks", "-c", "core.fsmonitor=false", "-c", "core.quotePath=false", "-C", cwd, ...args];
    return new Promise((resolve) => {
      execFile(
        this.#command,
        fullArgs,
        { cwd, env, encoding: "buffer", maxBuffer, timeout: GIT_TIMEOUT_MS, windowsHide: true },
        (error, stdout) => {
          if (!error) return resolve({ ok: true, stdout });
          resolve({ ok: false, tooLarge: (error as { code?: unknown }).code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER" });
        },
      );
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
    const change: GitChange = { path: repoPath.slice(prefix.length), status };
    if (status === "renamed" && repoFrom !== undefined) {
      change.from = repoFrom.startsWith(prefix) ? repoFrom.slice(prefix.length) : repoFrom;
    }
    changes.push(change);
  }
  return { changes, truncated: false };
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
