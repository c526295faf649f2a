// WorkspaceFiles' changes when a folder on the way is a symbolic link:
// refused when the link is there as the change starts, and kept in the real
// folder when the link is swapped in at the very moment of the change (after
// the parent folder was checked and held: a hook in the path resolver does
// the swap, so the race is won by the attacker every time). Also the rule for
// hard-linked files.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { link, lstat, mkdir, mkdtemp, readFile, rename, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../src/workspace/atomic-write.ts";
import { openFolder, type HeldFolder } from "../../src/workspace/held-folder.ts";
import { WorkspaceError } from "../../src/workspace/workspace-error.ts";
import { WorkspaceFiles } from "../../src/workspace/workspace-files.ts";
import { WorkspacePaths, type ChangeTarget } from "../../src/workspace/workspace-paths.ts";
import { snapshotDifferences, snapshotFolder, type FolderSnapshot } from "./folder-snapshot.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const SAME = "same\n";

/** The attacker's hooks, inside the resolver. */
class AttackedPaths extends WorkspacePaths {
  /** Runs just before each change, after its parent folder was checked and held; `held`: how many are held now (2 in a rename's inner step). */
  beforeChange: ((held: number) => Promise<void>) | null = null;
  /** Runs when a held folder is checked before use (including each folder of a tree being deleted). */
  onCheck: ((folder: HeldFolder) => Promise<void>) | null = null;
  #held = 0;

  override changeAt<T>(rel: string, change: (target: ChangeTarget) => Promise<T>): Promise<T> {
    return super.changeAt(rel, async (target) => {
      this.#held++;
      try {
        await this.beforeChange?.(this.#held);
        return await change(target);
      } finally {
        this.#held--;
      }
    });
  }

  override async checkFolder(folder: HeldFolder, rootReal: string, rel: string, when: "before" | "after" = "before"): Promise<void> {
    if (when === "before") await this.onCheck?.(folder);
    return super.checkFolder(folder, rootReal, rel, when);
  }
}

async function refusal(run: () => Promise<unknown>): Promise<{ status: number; code: string; message: string; extra: unknown }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof WorkspaceError) return { status: error.status, code: error.code, message: error.message, extra: error.extra };
    throw error;
  }
  throw new Error("expected a refusal");
}

/** Each kind of change, on paths under `folder`, and how many parent folders it holds (a rename: two). */
const CHANGES: [string, (files: WorkspaceFiles, folder: string) => Promise<unknown>, number][] = [
  ["save a new file", (files, folder) => files.save(`${folder}/new.txt`, "new\n", null), 1],
  ["save over a file", (files, folder) => files.save(`${folder}/a.txt`, "changed\n", sha256(SAME)), 1],
  ["create a file", (files, folder) => files.create(`${folder}/c.txt`, "file"), 1],
  ["create a folder", (files, folder) => files.create(`${folder}/d`, "dir"), 1],
  ["rename out of it", (files, folder) => files.rename(`${folder}/a.txt`, "moved.txt"), 2],
  ["rename into it", (files, folder) => files.rename("top.txt", `${folder}/top.txt`), 2],
  ["delete a file", (files, folder) => files.delete(`${folder}/a.txt`, undefined), 1],
  ["delete an empty folder", (files, folder) => files.delete(`${folder}/empty`, undefined), 1],
  ["delete a tree", (files, folder) => files.delete(`${folder}/tree`, true), 1],
];

/** Where each change above must have landed, inside (checked with `sub` back in place). */
const LANDED: Record<string, (ws: string) => Promise<void>> = {
  "save a new file": async (ws) => expect(await readFile(join(ws, "sub", "new.txt"), "utf8")).toBe("new\n"),
  "save over a file": async (ws) => expect(await readFile(join(ws, "sub", "a.txt"), "utf8")).toBe("changed\n"),
  "create a file": async (ws) => expect(await readFile(join(ws, "sub", "c.txt"), "utf8")).toBe(""),
  "create a folder": async (ws) => expect((await lstat(join(ws, "sub", "d"))).isDirectory()).toBe(true),
  "rename out of it": async (ws) => {
    expect(await readFile(join(ws, "moved.txt"), "utf8")).toBe(SAME);
    expect(existsSync(join(ws, "sub", "a.txt"))).toBe(false);
  },
  "rename into it": async (ws) => expect(await readFile(join(ws, "sub", "top.txt"), "utf8")).toBe("top\n"),
  "delete a file": async (ws) => expect(existsSync(join(ws, "sub", "a.txt"))).toBe(false),
  "delete an empty folder": async (ws) => expect(existsSync(join(ws, "sub", "empty"))).toBe(false),
  "delete a tree": async (ws) => expect(existsSync(join(ws, "sub", "tree"))).toBe(false),
};

describe("WorkspaceFiles under a symbolic link", () => {
  let base: string;
  let ws: string;
  let outside: string;
  let paths: AttackedPaths;
  let files: WorkspaceFiles;
  let outsideBefore: FolderSnapshot;

  /** The same entries in `ws/sub` and in `outside`, so that a change that followed a link would find its target. */
  const plant = async (dir: string) => {
    await mkdir(join(dir, "empty"), { recursive: true });
    await mkdir(join(dir, "tree", "inner"), { recursive: true });
    await writeFile(join(dir, "a.txt"), SAME);
    await writeFile(join(dir, "tree", "y.txt"), "y\n");
    await writeFile(join(dir, "tree", "inner", "x.txt"), "x\n");
  };
  const swapIn = async () => {
    if ((await lstat(join(ws, "sub"))).isSymbolicLink()) return;
    await rename(join(ws, "sub"), join(ws, "sub.real"));
    await symlink(outside, join(ws, "sub"));
  };
  const swapBack = async () => {
    if (!(await lstat(join(ws, "sub"))).isSymbolicLink()) return;
    await unlink(join(ws, "sub"));
    await rename(join(ws, "sub.real"), join(ws, "sub"));
  };

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "pier-files-"));
    ws = join(base, "ws");
    outside = join(base, "outside");
    await plant(join(ws, "sub"));
    await plant(outside);
    await writeFile(join(ws, "top.txt"), "top\n");
    await symlink(outside, join(ws, "linkout"));
    await symlink("sub", join(ws, "linkin"));
    paths = new AttackedPaths(ws);
    files = new WorkspaceFiles(ws, { paths });
    outsideBefore = await snapshotFolder(outside);
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  describe.each(CHANGES)("%s", (what, change, holds) => {
    it("is refused when a parent is a link out of the workspace, or any link", async () => {
      const insideBefore = await snapshotFolder(join(ws, "sub"));
      const out = await refusal(() => change(files, "linkout"));
      expect({ status: out.status, code: out.code }).toEqual({ status: 403, code: "outside_workspace" });
      const within = await refusal(() => change(files, "linkin"));
      expect({ status: within.status, code: within.code }).toEqual({ status: 403, code: "symlink_refused" });
      expect(within.message).toContain("symbolic link");
      expect(snapshotDifferences(outsideBefore, await snapshotFolder(outside))).toEqual([]);
      expect(snapshotDifferences(insideBefore, await snapshotFolder(join(ws, "sub")))).toEqual([]);
    });

    it("lands in the real folder when the parent is swapped for a link at the moment of the change", async () => {
      // Right before the file-system call: after every parent was walked, checked and held.
      let swaps = 0;
      paths.beforeChange = async (held) => {
        if (held < holds) return;
        swaps++;
        await swapIn();
      };
      await change(files, "sub");
      paths.beforeChange = null;
      expect(swaps).toBeGreaterThan(0);
      expect((await lstat(join(ws, "sub"))).isSymbolicLink()).toBe(true);
      await swapBack();
      await LANDED[what]?.(ws);
      expect(snapshotDifferences(outsideBefore, await snapshotFolder(outside))).toEqual([]);
    });
  });

  it("deletes a tree without following a folder in it that is swapped for a link during the deletion", async () => {
    let swapped = false;
    paths.onCheck = async (folder) => {
      if (swapped || folder.path !== join(ws, "sub", "tree")) return;
      swapped = true;
      await rename(join(ws, "sub", "tree", "inner"), join(ws, "sub", "tree", "inner.real"));
      await symlink(join(outside, "tree", "inner"), join(ws, "sub", "tree", "inner"));
    };
    expect(await files.delete("sub/tree", true)).toEqual({ path: "sub/tree" });
    expect(swapped).toBe(true);
    expect(existsSync(join(ws, "sub", "tree"))).toBe(false);
    expect(snapshotDifferences(outsideBefore, await snapshotFolder(outside))).toEqual([]);
  });

  it("cannot stop a real folder being moved out mid-change, but says so", async () => {
    // Not a link: the held folder itself is moved out of the workspace (which
    // needs write access to the destination). The change follows the folder;
    // the check afterwards reports it rather than answering success.
    paths.beforeChange = () => rename(join(ws, "sub"), join(outside, "moved-sub"));
    const answer = await refusal(() => files.create("sub/c.txt", "file"));
    expect({ status: answer.status, code: answer.code }).toEqual({ status: 403, code: "outside_workspace" });
    expect(answer.message).toContain("moved outside the workspace while the change was being made");
    expect(existsSync(join(outside, "moved-sub", "c.txt"))).toBe(true);
  });

  it("refuses a held folder that was moved out before the change starts", async () => {
    let moved = false;
    paths.onCheck = async (folder) => {
      if (moved || folder.path !== join(ws, "sub")) return;
      moved = true;
      await rename(join(ws, "sub"), join(outside, "moved-sub"));
    };
    const answer = await refusal(() => files.create("sub/c.txt", "file"));
    expect({ status: answer.status, code: answer.code }).toEqual({ status: 403, code: "outside_workspace" });
    expect(existsSync(join(outside, "moved-sub", "c.txt"))).toBe(false);
  });
});

describe("WorkspaceFiles and hard links", () => {
  let base: string;
  let ws: string;
  let secret: string;
  let files: WorkspaceFiles;

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "pier-links-"));
    ws = join(base, "ws");
    await mkdir(ws);
    secret = join(base, "id_rsa");
    await writeFile(secret, "secret key\n");
    await link(secret, join(ws, "innocent.txt"));
    await writeFile(join(ws, "one.txt"), "twins\n");
    await link(join(ws, "one.txt"), join(ws, "two.txt"));
    files = new WorkspaceFiles(ws);
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("lists a hard-linked file, but does not open it, saying why", async () => {
    const { entries } = await files.tree();
    expect(entries).toContainEqual({ path: "innocent.txt", type: "file", size: "secret key\n".length });
    const answer = await refusal(() => files.read("innocent.txt"));
    expect({ status: answer.status, code: answer.code }).toEqual({ status: 403, code: "hard_link_refused" });
    expect(answer.message).toBe('"innocent.txt" has 1 other hard link; Pier does not open hard-linked files, they may point outside the workspace.');
    expect(JSON.stringify(answer)).not.toContain("secret key");
  });

  it("refuses hard-linked files even when every link is inside (nothing tells where the others are)", async () => {
    expect((await refusal(() => files.read("one.txt"))).code).toBe("hard_link_refused");
    await unlink(join(ws, "two.txt"));
    expect((await files.read("one.txt")).content).toBe("twins\n");
  });

  it("does not save over a hard-linked file, and never answers with its content", async () => {
    for (const baseVersion of [sha256("secret key\n"), null, "stale"]) {
      const answer = await refusal(() => files.save("innocent.txt", "owned\n", baseVersion));
      expect({ status: answer.status, code: answer.code }).toEqual({ status: 403, code: "hard_link_refused" });
      expect(JSON.stringify(answer)).not.toContain("secret key");
    }
    expect(await readFile(secret, "utf8")).toBe("secret key\n");
    expect(await readFile(join(ws, "innocent.txt"), "utf8")).toBe("secret key\n");
  });

  it("renames and deletes the link itself, never the other names", async () => {
    expect(await files.rename("innocent.txt", "renamed.txt")).toEqual({ from: "innocent.txt", to: "renamed.txt" });
    expect((await lstat(secret)).nlink).toBe(2);
    expect(await files.delete("renamed.txt", undefined)).toEqual({ path: "renamed.txt" });
    expect((await lstat(secret)).nlink).toBe(1);
    expect(await readFile(secret, "utf8")).toBe("secret key\n");
  });

  it("an atomic write replaces the name, not the file: the other link keeps its bytes", async () => {
    const folder = await openFolder(ws);
    try {
      await writeFileAtomic(folder, "innocent.txt", Buffer.from("replaced\n"), { mode: 0o644, uid: 0, gid: 0 });
    } finally {
      await folder.close();
    }
    expect(await readFile(join(ws, "innocent.txt"), "utf8")).toBe("replaced\n");
    expect(await readFile(secret, "utf8")).toBe("secret key\n");
    expect((await lstat(secret)).nlink).toBe(1);
  });
});
