// runGitGrep (content-search.ts) hands git's output over batch by batch, in
// order, and resolves only once the last batch is handled, even when git
// exits while a batch is still being handled (Node then resumes the child's
// stdout by itself). A real git in a temp repository, behind a wrapper that
// writes grep's output in two parts with a pause between and then exits.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SearchQuery } from "@pier/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { runGitGrep } from "../../src/workspace/content-search.ts";
import type { GrepLine } from "../../src/workspace/grep-output.ts";

const REAL_GIT = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A repository with three matching files, and a git that writes grep's output as two parts (the first file's line, then the rest 50 ms later). */
function setUp(): { root: string; git: string } {
  const root = tempDir("pier-grep-order-");
  execFileSync(REAL_GIT, ["init", "-q"], { cwd: root });
  writeFileSync(join(root, "a.txt"), "needle a\n");
  writeFileSync(join(root, "b.txt"), "needle b\n");
  writeFileSync(join(root, "c.txt"), "needle c\n");
  const bin = tempDir("pier-grep-wrapper-");
  const git = join(bin, "git");
  const out = join(bin, "out");
  writeFileSync(
    git,
    `#!/bin/sh
case " $* " in
  *" grep "*) "${REAL_GIT}" "$@" > "${out}"; code=$?
    head -n 1 "${out}"; sleep 0.05; tail -n +2 "${out}"; exit $code;;
esac
exec "${REAL_GIT}" "$@"
`,
  );
  chmodSync(git, 0o755);
  return { root, git };
}

const query: SearchQuery = { pattern: "needle", regex: false, caseSensitive: false, wholeWord: false, include: [], exclude: [], ignored: false };

describe("runGitGrep", () => {
  it("handles batches one after the other and ends after the last, even when git exits while the first is being handled", async () => {
    const { root, git } = setUp();
    const events: string[] = [];
    let inFlight = 0;
    let overlapped = false;
    const outcome = await runGitGrep(root, query, {
      command: git,
      onLines: async (lines: GrepLine[]) => {
        if (inFlight > 0) overlapped = true;
        inFlight++;
        const names = lines.map((line) => line.path).join(",");
        events.push(`start ${names}`);
        // The first batch takes long: git has written everything and exited before it is handled.
        await new Promise((resolve) => setTimeout(resolve, lines[0]!.path === "a.txt" ? 300 : 5));
        events.push(`end ${names}`);
        inFlight--;
        return true;
      },
    });
    events.push("resolved");
    expect(outcome).toEqual({ ok: true, notRepo: false, stopped: false });
    expect(overlapped).toBe(false);
    expect(events).toEqual(["start a.txt", "end a.txt", "start b.txt,c.txt", "end b.txt,c.txt", "resolved"]);
  });

  it("stops handing over lines once a batch says stop", async () => {
    const { root, git } = setUp();
    const seen: string[] = [];
    const outcome = await runGitGrep(root, query, {
      command: git,
      onLines: async (lines) => {
        seen.push(...lines.map((line) => line.path));
        await new Promise((resolve) => setTimeout(resolve, 300));
        return false;
      },
    });
    expect(seen).toEqual(["a.txt"]);
    expect(outcome).toMatchObject({ ok: true, stopped: true });
  });
});
