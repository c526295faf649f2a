// Tells browsers which workspace paths changed on disk, whoever changed them
// (pi's tools, the editor's own saves, another program).
//
// One non-recursive fs.watch per folder (one inotify watch each), set up by
// an asynchronous walk that skips ".git", gitignored folders (node_modules…)
// and symbolic links, bounded in folders; a folder that appears later is
// added when its creation is seen. (Node 22's `recursive: true` on Linux
// walks the whole tree synchronously, gitignored folders included, with one
// inotify watch per file: seconds of blocked startup and tens of thousands of
// watches in an ordinary JavaScript project.)
//
// Events are coalesced for DEBOUNCE_MS (at most MAX_WAIT_MS while they keep
// coming), filtered (".git" internals, gitignored paths, the atomic writer's
// temporary files) and sent as one list. Watching is a convenience: if it
// fails (no inotify watches left: ENOSPC), that is logged once and the relay
// carries on.
import type { Dirent } from "node:fs";
import { watch, type FSWatcher } from "node:fs";
import { lstat, readdir, realpath } from "node:fs/promises";
import { join } from "node:path";
import { WORKSPACE_LIMITS, WORKSPACE_ROOT_PATH } from "@pier/protocol";
import { isTempName } from "./atomic-write.ts";
import { GitignoreRules } from "./gitignore-rules.ts";
import { touchesGitDir } from "./workspace-paths.ts";

export type WorkspaceWatcherOptions = {
  root: string;
  onChange: (paths: string[]) => void;
  log: (line: string) => void;
  debounceMs?: number;
  maxWaitMs?: number;
  maxPaths?: number;
  maxWatchedDirs?: number;
  /** A ".git" appeared, changed or went at the workspace root (its contents are never reported). */
  onGitFolder?: () => void;
};

const DEBOUNCE_MS = 100;
const MAX_WAIT_MS = 1000;
export const MAX_WATCHED_DIRS = 10_000;

export class WorkspaceWatcher {
  readonly #options: WorkspaceWatcherOptions;
  readonly #debounceMs: number;
  readonly #maxWaitMs: number;
  readonly #maxPaths: number;
  readonly #maxWatchedDirs: number;
  /** Workspace-relative folder ("" is the root) → its watcher. */
  readonly #watchers = new Map<string, FSWatcher>();
  #limitLogged = false;
  #rootReal = "";
  #rules: GitignoreRules | null = null;
  #pending = new Set<string>();
  /** Too many (or unnamed) changes: say "anything may have changed". */
  #overflow = false;
  #timer: NodeJS.Timeout | null = null;
  #firstEventAt = 0;
  #closed = false;
  #failed = false;

  constructor(options: WorkspaceWatcherOptions) {
    this.#options = options;
    this.#debounceMs = options.debounceMs ?? DEBOUNCE_MS;
    this.#maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
    this.#maxPaths = options.maxPaths ?? WORKSPACE_LIMITS.maxChangedPaths;
    this.#maxWatchedDirs = options.maxWatchedDirs ?? MAX_WATCHED_DIRS;
  }

  /** How many folders are watched. */
  get watchedDirs(): number {
    return this.#watchers.size;
  }

  /** Resolves once the initial walk has set up its watches. */
  async start(): Promise<void> {
    try {
      this.#rootReal = await realpath(this.#options.root);
    } catch (error) {
      return this.#fail(error);
    }
    if (this.#closed) return;
    this.#rules = new GitignoreRules(this.#rootReal);
    await this.#watchTree("");
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    this.#pending.clear();
  }

  /**
   * Watches `dirRel` and the folders under it that are neither ignored nor
   * links. `rescan` also walks folders already watched, to find ones a
   * changed .gitignore no longer ignores.
   */
  async #watchTree(dirRel: string, rescan = false): Promise<void> {
    const queue = [dirRel];
    while (queue.length > 0 && !this.#closed && !this.#failed) {
      const current = queue.shift()!;
      if (this.#watchers.has(current) ? !rescan : !this.#watch(current)) continue;
      let dirents: Dirent[];
      try {
        dirents = await readdir(join(this.#rootReal, current), { withFileTypes: true });
      } catch {
        continue;
      }
      for (const dirent of dirents) {
        if (!dirent.isDirectory() || dirent.name.toLowerCase() === ".git") continue;
        const rel = current === "" ? dirent.name : `${current}/${dirent.name}`;
        if (await this.#rules!.isIgnoredEntry(rel, true)) continue;
        queue.push(rel);
      }
    }
  }

  /** Starts watching one folder; false when it cannot be (gone, not a folder, no access, the limit). */
  #watch(dirRel: string): boolean {
    if (this.#watchers.size >= this.#maxWatchedDirs) {
      if (!this.#limitLogged) {
        this.#limitLogged = true;
        this.#options.log(`watching only the first ${this.#maxWatchedDirs} folders of the workspace for changes`);
      }
      return false;
    }
    try {
      const watcher = watch(join(this.#rootReal, dirRel), { persistent: false }, (_event, filename) => this.#onEvent(dirRel, filename));
      watcher.on("error", () => this.#unwatch(dirRel));
      this.#watchers.set(dirRel, watcher);
      return true;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== "ENOENT" && code !== "ENOTDIR" && code !== "EACCES") this.#fail(error);
      return false;
    }
  }

  #unwatch(dirRel: string): void {
    for (const [rel, watcher] of this.#watchers) {
      if (rel === dirRel || dirRel === "" || rel.startsWith(dirRel + "/")) {
        watcher.close();
        this.#watchers.delete(rel);
      }
    }
  }

  #fail(error: unknown): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    if (this.#failed || this.#closed) return;
    this.#failed = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.#options.log(`not watching the workspace for changes (${reason}); file views will not refresh by themselves`);
  }

  #onEvent(dirRel: string, filename: string | Buffer | null): void {
    if (this.#closed) return;
    if (filename === null) {
      this.#overflow = true;
    } else {
      const name = typeof filename === "string" ? filename : filename.toString("utf8");
      const path = dirRel === "" ? name : `${dirRel}/${name}`;
      const segments = path.split("/");
      if (name === ".gitignore") this.#rules?.invalidate(dirRel);
      if (path.toLowerCase() === ".git") this.#options.onGitFolder?.();
      if (path === "" || touchesGitDir(segments) || isTempName(name)) return;
      this.#pending.add(path);
      // Memory stays bounded even under a storm of distinct paths.
      if (this.#pending.size > this.#maxPaths * 4) {
        this.#overflow = true;
        this.#pending.clear();
      }
    }
    this.#schedule();
  }

  #schedule(): void {
    const now = Date.now();
    if (this.#timer === null) this.#firstEventAt = now;
    else clearTimeout(this.#timer);
    const wait = Math.max(0, Math.min(this.#debounceMs, this.#firstEventAt + this.#maxWaitMs - now));
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#flush();
    }, wait);
  }

  async #flush(): Promise<void> {
    const paths = [...this.#pending];
    const overflow = this.#overflow;
    this.#pending.clear();
    this.#overflow = false;
    if (overflow) return this.#emit([WORKSPACE_ROOT_PATH]);
    const shown: string[] = [];
    for (const path of paths) {
      // A changed .gitignore may un-ignore folders under it: watch those too.
      if (path === ".gitignore" || path.endsWith("/.gitignore")) void this.#watchTree(path.slice(0, -".gitignore".length).replace(/\/$/, ""), true);
      const kind = await this.#kind(path);
      if (kind === "gone" && this.#watchers.has(path)) this.#unwatch(path);
      if (await this.#rules!.isIgnored(path, kind === "dir")) continue;
      shown.push(path);
      // A new folder (or one moved in) gets its watches.
      if (kind === "dir" && !this.#watchers.has(path)) void this.#watchTree(path);
    }
    if (shown.length === 0) return;
    this.#emit(shown.length > this.#maxPaths ? [WORKSPACE_ROOT_PATH] : shown.sort());
  }

  async #kind(path: string): Promise<"dir" | "other" | "gone"> {
    try {
      return (await lstat(join(this.#rootReal, path))).isDirectory() ? "dir" : "other";
    } catch {
      return "gone";
    }
  }

  #emit(paths: string[]): void {
    if (this.#closed) return;
    try {
      this.#options.onChange(paths);
    } catch (error) {
      this.#options.log(`workspace change listener failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
