// A save never clobbers a change it has not seen, even one that lands in the
// middle of the save: another program (pi's write and edit tools, which write
// in place; an editor; a build) writes the file after the relay looked at it
// and before the new bytes are in place. The `beforeReplace` hook runs at
// exactly that moment, so the race is lost by the save every time.
import { createHash } from "node:crypto";
import { mkdtemp, open, readFile, rm, stat, writeFile, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkspaceError } from "../../src/workspace/workspace-error.ts";
import { WorkspaceFiles } from "../../src/workspace/workspace-files.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const BASE = "const answer = 41;\n";
const MINE = "const answer = 42; // the user's edit\n";
const THEIRS = "const answer = 43; // the agent's rewrite\n";

let ws: string;
let file: string;

beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), "pier-save-race-"));
  file = join(ws, "answer.ts");
  await writeFile(file, BASE);
});

afterEach(async () => {
  await rm(ws, { recursive: true, force: true });
});

async function conflictOf(saving: Promise<unknown>): Promise<WorkspaceError> {
  const error = await saving.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspaceError);
  expect((error as WorkspaceError).status).toBe(409);
  expect((error as WorkspaceError).code).toBe("conflict");
  return error as WorkspaceError;
}

describe("a save racing another writer", () => {
  it("is refused when the file is rewritten in place (as pi's write tool does) after the relay's check", async () => {
    const files = new WorkspaceFiles(ws, { beforeReplace: () => writeFile(file, THEIRS) });
    const error = await conflictOf(files.save("answer.ts", MINE, sha256(BASE)));
    expect(await readFile(file, "utf8")).toBe(THEIRS);
    expect(error.message).toMatch(/changed on disk/);
    // The conflict view gets their text and version, so "keep mine" is a choice made having seen it.
    expect((error as unknown as { current?: unknown }).current ?? (error as unknown as { extra?: { current?: unknown } }).extra?.current).toEqual({ content: THEIRS, version: sha256(THEIRS) });
  });

  it("keeps a write that opened the file before the new bytes went in and finishes after", async () => {
    let writer: FileHandle | null = null;
    // Opened (and truncated) now, like fs.writeFile's open; written only once the save is over.
    const files = new WorkspaceFiles(ws, { beforeReplace: async () => void (writer = await open(file, "w")) });
    await conflictOf(files.save("answer.ts", MINE, sha256(BASE)));
    await writer!.writeFile(THEIRS);
    await writer!.close();
    expect(await readFile(file, "utf8")).toBe(THEIRS);
  });

  it("goes through when nothing else wrote, leaving no temporary name and a single link", async () => {
    const files = new WorkspaceFiles(ws, { beforeReplace: async () => {} });
    const saved = await files.save("answer.ts", MINE, sha256(BASE));
    expect(saved).toEqual({ version: sha256(MINE) });
    expect(await readFile(file, "utf8")).toBe(MINE);
    expect((await stat(file)).nlink).toBe(1);
    const { readdir } = await import("node:fs/promises");
    expect(await readdir(ws)).toEqual(["answer.ts"]);
  });

  it("a second browser's save based on the same version is refused, and the first one's bytes stay", async () => {
    const files = new WorkspaceFiles(ws);
    const [first, second] = await Promise.allSettled([files.save("answer.ts", MINE, sha256(BASE)), files.save("answer.ts", THEIRS, sha256(BASE))]);
    expect(first.status).toBe("fulfilled");
    expect(second.status).toBe("rejected");
    expect(await readFile(file, "utf8")).toBe(MINE);
  });

  it("a new file's save is refused, with their text, when something created the file meanwhile", async () => {
    const fresh = join(ws, "fresh.ts");
    const files = new WorkspaceFiles(ws, { beforeReplace: () => writeFile(fresh, THEIRS) });
    const error = await conflictOf(files.save("fresh.ts", MINE, null));
    expect(await readFile(fresh, "utf8")).toBe(THEIRS);
    expect(error.message).toMatch(/already exists/);
  });

  it("a read while a save is in the middle of its work (the file has a second name then) still gets the file", async () => {
    let reading: Promise<unknown> | null = null;
    const files: WorkspaceFiles = new WorkspaceFiles(ws, {
      // The read runs while the save holds its second name; it may wait for the save, so the save waits for it only a while.
      beforeReplace: async () => {
        reading = files.read("answer.ts");
        await Promise.race([reading.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 300))]);
      },
    });
    await files.save("answer.ts", MINE, sha256(BASE));
    const read = (await reading!) as { content: string };
    expect(read.content).toBe(MINE);
  });
});
