// The git folder watcher on a real repository in a temporary folder: a commit,
// a checkout and `git add` are each announced once per burst; git's other
// files are not; `git init` after start is found by refresh(); close() stops it.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GitDirWatcher, locateGitDir } from "../../src/workspace/git-dir-watcher.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await sleep(10);
  }
};

describe("GitDirWatcher", { timeout: 20_000 }, () => {
  let root: string;
  let changes: number;
  let watcher: GitDirWatcher;
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: root,
      stdio: "pipe",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "Pier Test",
        GIT_AUTHOR_EMAIL: "test@example.invalid",
        GIT_COMMITTER_NAME: "Pier Test",
        GIT_COMMITTER_EMAIL: "test@example.invalid",
        GIT_CONFIG_NOSYSTEM: "1",
      },
    }).toString();
  const askGit = async () => {
    try {
      return git("rev-parse", "--absolute-git-dir").trim();
    } catch {
      return null;
    }
  };
  const start = async () => {
    watcher = new GitDirWatcher({ locate: () => locateGitDir(askGit, root), onChange: () => changes++, debounceMs: 50 });
    await watcher.refresh();
  };
  /**
   * Runs `action` and counts the watcher's reports: waits for a first one
   * (unless none is expected), then for a quiet spell that would let a second
   * one through if the burst were not coalesced.
   */
  const changesAfter = async (action: () => void | Promise<void>, expectAny = true) => {
    const before = changes;
    await action();
    if (expectAny) await until(() => changes > before);
    await sleep(400);
    return changes - before;
  };

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "pier-gitwatch-"));
    changes = 0;
  });
  afterEach(async () => {
    watcher?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("announces a commit, a staged file and a checkout, once per burst", async () => {
    git("init", "-q", "-b", "main");
    await writeFile(join(root, "a.txt"), "one\n");
    git("add", "-A");
    git("commit", "-q", "-m", "first");
    await start();
    expect(watcher.watchedDirs).toBe(2);

    await writeFile(join(root, "a.txt"), "two\n");
    expect(await changesAfter(() => void git("commit", "-q", "-am", "second"))).toBe(1);
    await writeFile(join(root, "b.txt"), "new\n");
    expect(await changesAfter(() => void git("add", "b.txt"))).toBe(1);
    expect(await changesAfter(() => void git("checkout", "-q", "-b", "topic"))).toBe(1);
    // Only the branch ref and the reflog change here: logs/ tells.
    expect(await changesAfter(() => void git("commit", "-q", "--allow-empty", "-m", "empty"))).toBe(1);
  });

  it("ignores git's other files", async () => {
    git("init", "-q", "-b", "main");
    await start();
    expect(await changesAfter(() => writeFile(join(root, ".git", "COMMIT_EDITMSG"), "draft\n"), false)).toBe(0);
    expect(await changesAfter(() => writeFile(join(root, ".git", "FETCH_HEAD"), "x\n"), false)).toBe(0);
  });

  it("watches nothing outside a repository, and finds one made later when refreshed", async () => {
    await start();
    expect(watcher.watchedDirs).toBe(0);
    git("init", "-q", "-b", "main");
    await watcher.refresh();
    expect(watcher.watchedDirs).toBe(1); // no logs/ before the first commit
    await writeFile(join(root, "a.txt"), "one\n");
    git("add", "-A");
    expect(await changesAfter(() => void git("commit", "-q", "-m", "first"))).toBe(1);
    // That commit made logs/: it is watched from now on.
    expect(watcher.watchedDirs).toBe(2);
    expect(await changesAfter(() => void git("commit", "-q", "--allow-empty", "-m", "empty"))).toBe(1);
  });

  it("finds a root .git folder that git does not recognise yet", async () => {
    await rm(root, { recursive: true });
    root = await mkdtemp(join(tmpdir(), "pier-gitwatch-"));
    await writeFile(join(root, "plain.txt"), "x");
    expect(await locateGitDir(async () => null, root)).toBeNull();
    await mkdir(join(root, ".git"));
    expect(await locateGitDir(async () => null, root)).toBe(join(root, ".git"));
  });

  it("treats a workspace that cannot be located as no repository, and is silent after close", async () => {
    watcher = new GitDirWatcher({ locate: () => Promise.reject(new Error("gone")), onChange: () => changes++ });
    await watcher.refresh();
    expect(watcher.watchedDirs).toBe(0);

    git("init", "-q", "-b", "main");
    await start();
    watcher.close();
    expect(watcher.watchedDirs).toBe(0);
    await writeFile(join(root, "a.txt"), "one\n");
    expect(await changesAfter(() => void git("add", "-A"), false)).toBe(0);
  });
});
