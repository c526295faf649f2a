// The race the file service must win: while a worker thread keeps swapping the
// folder `ws/sub` for a symbolic link to `outside/` (and back), this test fires
// as many saves, creations, renames and deletions under `sub/` as it can
// through the real WorkspaceFiles API. Afterwards `outside/` must be exactly
// as it was (names, kinds, sizes, contents, inodes, times), every change that
// succeeded must be found inside the workspace, and every refusal must be a
// clear WorkspaceError. The test also shows that the race really happened
// (swaps were made, operations ran, some were refused because of the link),
// so it cannot pass by not racing.
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceError } from "../../src/workspace/workspace-error.ts";
import { WorkspaceFiles } from "../../src/workspace/workspace-files.ts";
import { snapshotDifferences, snapshotFolder } from "./folder-snapshot.ts";
import { startFolderSwapper } from "./folder-swapper.ts";

const RACE_MS = 4000;
const TREE_RACE_MS = 2500;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const SAME = "same\n";

describe("a folder swapped for a symbolic link mid-request", () => {
  let base: string;
  let ws: string;
  let outside: string;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "pier-race-"));
    ws = join(base, "ws");
    outside = join(base, "outside");
    await mkdir(join(ws, "sub"), { recursive: true });
    await mkdir(outside);
    // The same names on both sides, so that an operation that follows the
    // link finds what it expects (a save's baseVersion matches, a rename's
    // source exists) and an escape cannot fail for want of a target.
    for (const dir of [join(ws, "sub"), outside]) {
      for (let k = 0; k < 10; k++) await writeFile(join(dir, `f${k}.txt`), SAME);
      for (let k = 0; k < 20; k++) await writeFile(join(dir, `r${k}.txt`), `rename ${k}\n`);
      for (let k = 0; k < 20; k++) await writeFile(join(dir, `m${k}.txt`), dir === outside ? "outside secret\n" : `move ${k}\n`);
    }
    for (let k = 0; k < 20; k++) await writeFile(join(outside, `del-${k}`), "do not delete\n");
    for (let k = 0; k < 5; k++) {
      await mkdir(join(outside, `tree${k}`, "deeper"), { recursive: true });
      await writeFile(join(outside, `tree${k}`, "x.txt"), "do not delete\n");
      await writeFile(join(outside, `tree${k}`, "deeper", "y.txt"), "do not delete\n");
      await mkdir(join(outside, `cd-keep-${k}`));
    }
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("never creates, changes, renames or deletes anything outside the workspace", async () => {
    const files = new WorkspaceFiles(ws);
    const before = await snapshotFolder(outside);
    const tally = new Tally();
    const attempt = tally.attempt;
    const created: { rel: string; content: string }[] = [];

    const renamed = new Set<number>();
    const movedUp = new Set<number>();
    const swapper = startFolderSwapper(join(ws, "sub"), outside, { linkMicros: 100, realMicros: 400 });
    const deadline = Date.now() + RACE_MS;
    let round = 0;
    try {
      while (Date.now() < deadline) {
        const i = round++;
        const k = i % 20;
        const fresh = `sub/new-${i}.txt`;
        if (await attempt(() => files.save(fresh, `new ${i}\n`, null))) created.push({ rel: fresh, content: `new ${i}\n` });
        await attempt(() => files.save(`sub/f${i % 10}.txt`, SAME, sha256(SAME)));
        const empty = `sub/cf-${i}.txt`;
        if (await attempt(() => files.create(empty, "file"))) created.push({ rel: empty, content: "" });
        await attempt(() => files.create(`sub/cd-${i}`, "dir"));
        await attempt(() => files.create(`sub/cd-keep-${i % 5}/inner-${i}`, "dir"));
        // Renames inside the folder, and out of it to the top level and back.
        const [from, to] = renamed.has(k) ? [`sub/r${k}.moved`, `sub/r${k}.txt`] : [`sub/r${k}.txt`, `sub/r${k}.moved`];
        if (await attempt(() => files.rename(from, to))) renamed.has(k) ? renamed.delete(k) : renamed.add(k);
        const [up, down] = [`m${k}-top.txt`, `sub/m${k}.txt`];
        if (movedUp.has(k)) {
          if (await attempt(() => files.rename(up, down))) movedUp.delete(k);
        } else if (await attempt(() => files.rename(down, up))) movedUp.add(k);
        // Deletions: a file, an empty folder, and a tree.
        await attempt(() => files.create(`sub/del-${k}`, "file"));
        await attempt(() => files.delete(`sub/del-${k}`, undefined));
        await attempt(() => files.delete(`sub/cd-${i}`, undefined));
        const tree = `sub/tree${i % 5}`;
        await attempt(() => files.create(tree, "dir"));
        await attempt(() => files.create(`${tree}/x.txt`, "file"));
        await attempt(() => files.delete(tree, true));
      }
    } finally {
      tally.report("folder swapped under changes", await swapper.stop());
    }

    const escapes = snapshotDifferences(before, await snapshotFolder(outside));
    if (escapes.length > 0) console.log(`symlink race: ${escapes.length} changes outside the workspace: ${escapes.join(", ")}`);
    expect(escapes).toEqual([]);
    tally.expectRealRace(200);
    // What succeeded, succeeded inside (the real folder is back at ws/sub).
    for (const { rel, content } of created) expect(await readFile(join(ws, rel), "utf8"), rel).toBe(content);
  }, 60_000);

  it("deletes trees without following a folder inside them that is swapped for a link meanwhile", async () => {
    const files = new WorkspaceFiles(ws);
    for (const name of ["x.txt", "deep/y.txt", "z.txt"]) {
      await mkdir(join(outside, "inner-target", name, ".."), { recursive: true });
      await writeFile(join(outside, "inner-target", name), "do not delete\n");
    }
    const before = await snapshotFolder(outside);
    const tally = new Tally();
    const attempt = tally.attempt;
    let deleted = 0;
    const swapper = startFolderSwapper(join(ws, "big", "inner"), join(outside, "inner-target"), { linkMicros: 50, realMicros: 50 });
    const deadline = Date.now() + TREE_RACE_MS;
    try {
      while (Date.now() < deadline) {
        await attempt(() => files.create("big", "dir"));
        await attempt(() => files.create("big/inner", "dir"));
        await attempt(() => files.create("big/inner/deep", "dir"));
        for (const name of ["big/inner/x.txt", "big/inner/deep/y.txt", "big/inner/deep/w.txt", "big/z.txt"]) {
          await attempt(() => files.create(name, "file"));
        }
        if (await attempt(() => files.delete("big", true))) deleted++;
      }
    } finally {
      tally.report(`folder swapped inside a tree being deleted, ${deleted} trees deleted`, await swapper.stop());
    }
    const escapes = snapshotDifferences(before, await snapshotFolder(outside));
    if (escapes.length > 0) console.log(`symlink race: ${escapes.length} changes outside the workspace: ${escapes.join(", ")}`);
    expect(escapes).toEqual([]);
    tally.expectRealRace(100);
    expect(deleted).toBeGreaterThan(5);
  }, 60_000);
});

/** Counts outcomes; a refusal must be a WorkspaceError below 500 with a real message. */
class Tally {
  ran = 0;
  refused = 0;
  readonly codes = new Map<string, number>();
  readonly unclear: string[] = [];

  attempt = async (run: () => Promise<unknown>): Promise<boolean> => {
    this.ran++;
    try {
      await run();
      this.#count("ok");
      return true;
    } catch (error) {
      this.refused++;
      if (!(error instanceof WorkspaceError) || error.status >= 500 || error.message.length < 10) {
        this.unclear.push(error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error));
      } else {
        this.#count(error.code);
      }
      return false;
    }
  };

  report(what: string, { swaps }: { swaps: number }): void {
    console.log(`symlink race (${what}): ${swaps} swaps, ${this.ran} operations, ${this.refused} refused; ${JSON.stringify(Object.fromEntries(this.codes))}`);
    expect(swaps).toBeGreaterThan(10);
  }

  /** Enough operations ran, some succeeded, every refusal was clear, and some met the link (so the race was real). */
  expectRealRace(minimum: number): void {
    expect(this.unclear).toEqual([]);
    expect(this.ran).toBeGreaterThan(minimum);
    expect(this.codes.get("ok") ?? 0).toBeGreaterThan(0);
    expect((this.codes.get("symlink_refused") ?? 0) + (this.codes.get("outside_workspace") ?? 0)).toBeGreaterThan(0);
  }

  #count(code: string): void {
    this.codes.set(code, (this.codes.get(code) ?? 0) + 1);
  }
}
