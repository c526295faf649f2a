// Tells browsers when the repository itself moved: a commit, checkout, reset,
// stash or `git add` changes no workspace file the WorkspaceWatcher reports
// (it skips ".git"), yet it changes what the Changes view lists and what HEAD
// holds. Two non-recursive watches on the git folder: its top level (HEAD,
// index, packed-refs…) and `logs/`, where every movement of HEAD is recorded
// (a commit rewrites the branch ref, not HEAD). Bursts are coalesced. Not a
// repository, or no watches left, means silence: the views then refresh only
// when files change.
import { watch, type FSWatcher } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";

/** Files whose change means the status or HEAD contents may differ. */
const RELEVANT = new Set(["HEAD", "index", "packed-refs", "ORIG_HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD"]);
const DEBOUNCE_MS = 150;

export type GitDirWatcherOptions = {
  /** The git folder (absolute), or null when the workspace is not in a repository. */
  locate: () => Promise<string | null>;
  onChange: () => void;
  debounceMs?: number;
};

export class GitDirWatcher {
  readonly #options: GitDirWatcherOptions;
  /** Watched folder → its watcher. */
  readonly #watchers = new Map<string, FSWatcher>();
  #timer: NodeJS.Timeout | null = null;
  #closed = false;
  #generation = 0;
  #gitDir: string | null = null;

  constructor(options: GitDirWatcherOptions) {
    this.#options = options;
  }

  /**
   * Finds the git folder again and watches it instead of what was watched
   * before. Called at start and whenever a ".git" appears, changes or goes
   * at the workspace root (`git init`, `rm -rf .git`).
   */
  async refresh(): Promise<void> {
    const generation = ++this.#generation;
    let gitDir: string | null;
    try {
      gitDir = await this.#options.locate();
    } catch {
      gitDir = null; // The workspace itself is gone or unreadable.
    }
    // A later refresh (or close) overtook this one.
    if (generation !== this.#generation || this.#closed) return;
    this.#unwatch();
    this.#gitDir = gitDir;
    if (gitDir === null) return;
    this.#watch(gitDir);
    this.#watch(join(gitDir, "logs"));
  }

  /** How many folders are watched (0, 1 or 2). */
  get watchedDirs(): number {
    return this.#watchers.size;
  }

  close(): void {
    this.#closed = true;
    this.#gitDir = null;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#unwatch();
  }

  #watch(dir: string): void {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => this.#onEvent(name));
      watcher.on("error", () => {
        watcher.close();
        if (this.#watchers.get(dir) === watcher) this.#watchers.delete(dir);
      });
      this.#watchers.set(dir, watcher);
    } catch {
      // No logs folder (reflog off, or no commit yet: it is added when it
      // appears), or no watches left: fewer refreshes, nothing worse.
    }
  }

  #unwatch(): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }

  #onEvent(name: string | Buffer | null): void {
    if (this.#closed) return;
    // A null name means the kernel could not say which file: assume a relevant one.
    const file = name?.toString() ?? null;
    // The first commit creates logs/, where later commits are recorded.
    if (file === "logs" && this.#gitDir !== null && !this.#watchers.has(join(this.#gitDir, "logs"))) this.#watch(join(this.#gitDir, "logs"));
    if (file !== null && !RELEVANT.has(file)) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (!this.#closed) this.#options.onChange();
    }, this.#options.debounceMs ?? DEBOUNCE_MS);
  }
}

/**
 * The workspace's git folder: what git says, or, right after `git init`
 * (before rev-parse sees a repository), a ".git" folder at the root.
 */
export async function locateGitDir(askGit: () => Promise<string | null>, rootReal: string): Promise<string | null> {
  const fromGit = await askGit();
  if (fromGit !== null) return fromGit;
  const rootGit = join(rootReal, ".git");
  try {
    return (await stat(rootGit)).isDirectory() ? rootGit : null;
  } catch {
    return null;
  }
}
