// The watcher on a temporary folder: coalesced lists, ignored and temporary
// paths left out, an overflow collapsed to the root path, close() stops it.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkspaceWatcher } from "../../src/workspace/workspace-watcher.ts";

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("WorkspaceWatcher", { timeout: 20_000 }, () => {
  let root: string;
  let batches: string[][];
  let watcher: WorkspaceWatcher;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "pier-watch-"));
    await mkdir(join(root, "node_modules", "x"), { recursive: true });
    await mkdir(join(root, ".git"));
    await mkdir(join(root, "src"));
    await writeFile(join(root, ".gitignore"), "node_modules/\n*.log\n");
    batches = [];
  });
  afterEach(async () => {
    watcher?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("coalesces changes into one sorted list without ignored, .git or temporary paths, and does not watch ignored folders", async () => {
    watcher = new WorkspaceWatcher({ root, log: () => {}, onChange: (paths) => batches.push(paths), debounceMs: 100 });
    await watcher.start();
    expect(watcher.watchedDirs).toBe(2); // the root and src
    await writeFile(join(root, "src", "b.ts"), "b");
    await writeFile(join(root, "a.ts"), "a");
    await writeFile(join(root, "debug.log"), "x");
    await writeFile(join(root, ".git", "index"), "x");
    await writeFile(join(root, "src", ".pier-save-0123-b.ts.tmp"), "x");
    await writeFile(join(root, "node_modules", "x", "i.js"), "x");
    await until(() => batches.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(batches).toEqual([["a.ts", "src/b.ts"]]);
  });

  it("tells when a .git folder goes or appears at the root, without reporting it as a path", async () => {
    let gitFolderEvents = 0;
    watcher = new WorkspaceWatcher({ root, log: () => {}, onChange: (paths) => batches.push(paths), onGitFolder: () => gitFolderEvents++ });
    await watcher.start();
    await rm(join(root, ".git"), { recursive: true });
    await until(() => gitFolderEvents > 0);
    await mkdir(join(root, ".git"));
    await until(() => gitFolderEvents > 1);
    await writeFile(join(root, "seen.txt"), "x");
    await until(() => batches.flat().includes("seen.txt"));
    expect(batches.flat()).toEqual(["seen.txt"]);
  });

  it("starts watching folders that an edited .gitignore no longer ignores", async () => {
    watcher = new WorkspaceWatcher({ root, log: () => {}, onChange: (paths) => batches.push(paths) });
    await watcher.start();
    expect(watcher.watchedDirs).toBe(2);
    await writeFile(join(root, ".gitignore"), "*.log\n");
    await until(() => batches.flat().includes(".gitignore"));
    await until(() => watcher.watchedDirs === 4); // + node_modules and node_modules/x
    await writeFile(join(root, "node_modules", "x", "i.js"), "x");
    await until(() => batches.flat().includes("node_modules/x/i.js"));
  });

  it("collapses more paths than a frame names into the root path", async () => {
    watcher = new WorkspaceWatcher({ root, log: () => {}, onChange: (paths) => batches.push(paths), maxPaths: 3 });
    await watcher.start();
    for (let i = 0; i < 5; i++) await writeFile(join(root, `f${i}.txt`), "x");
    await until(() => batches.length > 0);
    expect(batches[0]).toEqual([""]);
  });

  it("is silent after close", async () => {
    watcher = new WorkspaceWatcher({ root, log: () => {}, onChange: (paths) => batches.push(paths) });
    await watcher.start();
    watcher.close();
    await writeFile(join(root, "late.txt"), "x");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(batches).toEqual([]);
  });

  it("logs once and carries on when the folder cannot be watched", async () => {
    const lines: string[] = [];
    watcher = new WorkspaceWatcher({ root: join(root, "missing"), log: (line) => lines.push(line), onChange: () => {} });
    await watcher.start();
    expect(lines).toHaveLength(1);
    expect(watcher.watchedDirs).toBe(0);
  });
});
