// pier's own state files (the board, the recent workspaces) read as untrusted
// input: whatever sits at their path must not hold pier's start or be read
// whole into memory.
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readStateFile, writeStateFile } from "../../src/live/state-file.ts";

describe("state files", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "pier-state-file-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes whole, 0600 in a 0700 folder, and reads back", async () => {
    const file = join(dir, "nested", "board.json");
    await writeStateFile(file, "{}\n");
    expect(await readStateFile(file, 100)).toBe("{}\n");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "nested"))).mode & 0o777).toBe(0o700);
  });

  it("says null for no file and too_large over the bound", async () => {
    expect(await readStateFile(join(dir, "none.json"), 100)).toBeNull();
    const big = join(dir, "big.json");
    await writeFile(big, "x".repeat(101));
    expect(await readStateFile(big, 100)).toBe("too_large");
  });

  it("refuses a named pipe at once instead of waiting for a writer, and a later write replaces it", async () => {
    const file = join(dir, "board.json");
    execFileSync("mkfifo", [file]);
    const started = Date.now();
    await expect(readStateFile(file, 100)).rejects.toThrow(/named pipe/);
    expect(Date.now() - started).toBeLessThan(1_000);
    await writeStateFile(file, "{}\n");
    expect(await readFile(file, "utf8")).toBe("{}\n");
  });

  it("refuses a folder with a sentence", async () => {
    await expect(readStateFile(dir, 100)).rejects.toThrow(/is a folder/);
  });
});
