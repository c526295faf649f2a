// SessionCatalog.watch on a real folder: a new, a grown and a removed session
// file are reported (debounced), other files are not, and a folder that
// appears (or comes back) after watching started is picked up.
import { appendFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionCatalog } from "../../src/sessions/session-catalog.ts";
import { assistant, header, lines, user } from "./session-lines.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await sleep(10);
  }
};

describe("SessionCatalog.watch", { timeout: 20_000 }, () => {
  let root: string;
  let dir: string;
  let changes: number;
  let stop: (() => void) | undefined;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "pier-swatch-"));
    dir = join(root, "sessions");
    changes = 0;
  });
  afterEach(async () => {
    stop?.();
    stop = undefined;
    await rm(root, { recursive: true, force: true });
  });

  const watchDir = () => {
    const catalog = new SessionCatalog({ dir, cwd: root, filterCwd: false, persisted: true, log: () => {}, debounceMs: 50, pollMs: 50 });
    stop = catalog.watch(() => changes++);
  };
  /** Waits for one report, then checks no second one follows for the same burst. */
  const expectOneReport = async () => {
    const before = changes;
    await until(() => changes > before);
    await sleep(200);
    expect(changes).toBe(before + 1);
  };

  it("reports a new, a grown and a removed session file, once per burst, and ignores other files", async () => {
    await mkdir(dir);
    watchDir();
    const path = join(dir, "s.jsonl");
    await writeFile(path, lines(header({ cwd: root })));
    await appendFile(path, lines(user("hi")));
    await expectOneReport();
    await appendFile(path, lines(assistant("hello")));
    await expectOneReport();
    await rm(path);
    await expectOneReport();
    await writeFile(join(dir, "notes.txt"), "x");
    await sleep(300);
    expect(changes).toBe(3);
  });

  it("waits for a folder that does not exist yet, and follows it when it is removed and made again", async () => {
    watchDir();
    await sleep(120);
    await mkdir(dir);
    // The folder appearing is a change (it may already hold files).
    await expectOneReport();
    await writeFile(join(dir, "a.jsonl"), lines(header({ cwd: root })));
    await expectOneReport();

    await rm(dir, { recursive: true });
    await expectOneReport();
    await mkdir(dir);
    await expectOneReport();
    await writeFile(join(dir, "b.jsonl"), lines(header({ cwd: root })));
    await expectOneReport();
  });

  it("stops reporting once stopped", async () => {
    await mkdir(dir);
    watchDir();
    stop!();
    await writeFile(join(dir, "s.jsonl"), lines(header({ cwd: root })));
    await sleep(300);
    expect(changes).toBe(0);
  });
});
