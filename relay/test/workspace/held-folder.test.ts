// What held-folder.ts relies on, checked on this machine: once a folder is
// held, swapping its name for a symbolic link to a folder outside changes
// nothing for the fs calls given `at(name)`: they all act in the held folder
// (now under another name), and nothing happens outside. Also the fallback
// without /proc, which only refuses links it sees.
import { constants } from "node:fs";
import { link, lstat, mkdir, mkdtemp, open, readFile, readdir, rename, rm, rmdir, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FOLDERS_PINNED, openFolder, openFolderByPath, type HeldFolder } from "../../src/workspace/held-folder.ts";
import { errnoCode } from "../../src/workspace/workspace-error.ts";

const NEW_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

async function failure(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
  } catch (error) {
    return errnoCode(error);
  }
  throw new Error("expected a failure");
}

describe("held folders", () => {
  let base: string;
  let ws: string;
  let outside: string;
  const held: HeldFolder[] = [];
  const hold = async (folder: Promise<HeldFolder>) => {
    const opened = await folder;
    held.push(opened);
    return opened;
  };

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "pier-held-"));
    ws = join(base, "ws");
    outside = join(base, "outside");
    await mkdir(join(ws, "sub", "inner"), { recursive: true });
    await mkdir(outside);
    await writeFile(join(ws, "sub", "a.txt"), "inside\n");
    await writeFile(join(outside, "a.txt"), "outside\n");
    await mkdir(join(outside, "inner"));
  });
  afterEach(async () => {
    for (const folder of held.splice(0)) await folder.close();
    await rm(base, { recursive: true, force: true });
  });

  it.runIf(FOLDERS_PINNED)("act in the held folder after its name was swapped for a link to outside", async () => {
    const root = await hold(openFolder(ws));
    const sub = await hold(root.child("sub"));
    expect(sub.path).toBe(join(ws, "sub"));
    expect(await sub.whereNow()).toBe(join(ws, "sub"));
    await rename(join(ws, "sub"), join(ws, "sub.real"));
    await symlink(outside, join(ws, "sub"));
    const before = JSON.stringify(await readdir(outside, { recursive: true }));

    expect(await sub.whereNow()).toBe(join(ws, "sub.real"));
    const handle = await open(sub.at("created.txt"), NEW_FILE, 0o644);
    await handle.writeFile("created\n");
    await handle.close();
    expect(await failure(() => open(sub.at("created.txt"), NEW_FILE))).toBe("EEXIST");
    await writeFile(sub.at("temp"), "temp\n");
    await rename(sub.at("temp"), sub.at("a.txt"));
    await link(sub.at("a.txt"), sub.at("linked.txt"));
    expect((await lstat(sub.at("linked.txt"))).nlink).toBe(2);
    await unlink(sub.at("linked.txt"));
    await mkdir(sub.at("made"));
    expect(await failure(() => mkdir(sub.at("made")))).toBe("EEXIST");
    await rmdir(sub.at("made"));
    await rename(sub.at("created.txt"), root.at("moved-up.txt")); // between two held folders
    expect((await sub.list()).sort()).toEqual(["a.txt", "inner"]);
    const inner = await hold(sub.child("inner"));
    expect(await inner.whereNow()).toBe(join(ws, "sub.real", "inner"));

    expect(await readFile(join(ws, "sub.real", "a.txt"), "utf8")).toBe("temp\n");
    expect(await readFile(join(ws, "moved-up.txt"), "utf8")).toBe("created\n");
    expect(await readFile(join(outside, "a.txt"), "utf8")).toBe("outside\n");
    expect(JSON.stringify(await readdir(outside, { recursive: true }))).toBe(before);
  });

  it.runIf(FOLDERS_PINNED)("never open a link or a file as a folder, and say when the folder is gone", async () => {
    const root = await hold(openFolder(ws));
    await symlink(outside, join(ws, "link"));
    await writeFile(join(ws, "file"), "");
    expect(await failure(() => root.child("link"))).toBe("ENOTDIR");
    expect(await failure(() => root.child("file"))).toBe("ENOTDIR");
    expect(await failure(() => root.child("missing"))).toBe("ENOENT");
    expect(await failure(() => openFolder(join(ws, "link")))).toBe("ENOTDIR");
    const inner = await hold(openFolder(join(ws, "sub", "inner")));
    await rmdir(join(ws, "sub", "inner"));
    expect(await inner.whereNow()).toBeNull();
    expect(await failure(() => writeFile(inner.at("x"), "x"))).toBe("ENOENT");
  });

  it("without /proc, refuse links they see and report what the path resolves to now", async () => {
    const root = await hold(openFolderByPath(ws));
    await symlink(outside, join(ws, "link"));
    expect(await failure(() => root.child("link"))).toBe("ENOTDIR");
    const sub = await hold(root.child("sub"));
    expect(sub.at("a.txt")).toBe(join(ws, "sub", "a.txt"));
    await rename(join(ws, "sub"), join(ws, "sub.real"));
    await symlink(outside, join(ws, "sub"));
    // The path is all this fallback has: the caller's check afterwards sees the link.
    expect(await sub.whereNow()).toBe(outside);
  });
});
