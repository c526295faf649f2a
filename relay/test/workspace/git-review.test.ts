// The hunk review (git-review.ts) with real git in temporary repositories,
// the index always checked against what `git diff --cached` prints. The
// routes, a viewer's refusal and the relay's part are in
// git-review.contract.test.ts.
import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GitDiffResponse } from "@pier/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { GitReview } from "../../src/workspace/git-review.ts";
import { WorkspaceError } from "../../src/workspace/workspace-error.ts";
import { WorkspaceFiles } from "../../src/workspace/workspace-files.ts";

const roots: string[] = [];
afterAll(async () => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join("");
const ORIGINAL = lines(40);
/** Three separate changes: lines 2, 20 and 38. */
const CHANGED = ORIGINAL.replace("line 2\n", "line two\n").replace("line 20\n", "line twenty\n").replace("line 38\n", "line thirty-eight\n");

async function repo(options: { commit?: boolean; init?: boolean } = {}) {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "pier-review-")));
  roots.push(dir);
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, "-c", "user.name=Pier Test", "-c", "user.email=test@pier.invalid", "-c", "commit.gpgsign=false", ...args], { encoding: "utf8" });
  if (options.init !== false) git("init", "-q", "-b", "main");
  await writeFile(join(dir, "f.txt"), ORIGINAL);
  if (options.init !== false && options.commit !== false) {
    git("add", "-A");
    git("commit", "-q", "-m", "start");
  }
  const review = new GitReview(new WorkspaceFiles(dir));
  return { dir, git, review, cached: () => git("diff", "--cached", "--no-color", "-U0"), staged: (path = "f.txt") => git("show", `:${path}`) };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WorkspaceError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("GitReview", () => {
  it("stages, unstages and reverts one hunk of three; the index is what git diff --cached says", async () => {
    const { dir, review, cached, staged } = await repo();
    await writeFile(join(dir, "f.txt"), CHANGED);
    const diff = await review.diff("f.txt", false, null);
    expect(diff).toMatchObject({ kind: "modified", side: "unstaged", binary: false, modeChange: null });
    expect(diff.hunks).toHaveLength(3);

    await review.stage({ path: "f.txt", hunk: diff.hunks[1]!.id });
    expect(staged()).toBe(ORIGINAL.replace("line 20\n", "line twenty\n"));
    expect(cached()).toMatch(/^@@ -20 \+20 @@.*\n-line 20\n\+line twenty\n$/m);
    expect(cached().match(/^@@/gm)).toHaveLength(1);
    // The working file is left alone.
    expect(await readFile(join(dir, "f.txt"), "utf8")).toBe(CHANGED);

    const stagedDiff = await review.diff("f.txt", true, null);
    expect(stagedDiff.hunks).toHaveLength(1);
    await review.unstage({ path: "f.txt", hunk: stagedDiff.hunks[0]!.id });
    expect(cached()).toBe("");

    const again = await review.diff("f.txt", false, null);
    await review.revert({ path: "f.txt", hunk: again.hunks[2]!.id });
    expect(await readFile(join(dir, "f.txt"), "utf8")).toBe(CHANGED.replace("line thirty-eight\n", "line 38\n"));
    expect(cached()).toBe("");
  });

  it("stages an edited hunk: the index gets the edited text, the file keeps its own", async () => {
    const { dir, review, staged } = await repo();
    await writeFile(join(dir, "f.txt"), CHANGED);
    const hunk = (await review.diff("f.txt", false, null)).hunks[0]!;
    // The new side of hunk 1 is lines 1–5; the textarea's text lost its last newline.
    await review.stage({ path: "f.txt", hunk: hunk.id, text: "line 1\nline 2, edited\nline 3\nline 4\nline 5" });
    expect(staged()).toBe(ORIGINAL.replace("line 2\n", "line 2, edited\n"));
    expect(await readFile(join(dir, "f.txt"), "utf8")).toBe(CHANGED);
  });

  it("refuses a hunk that changed meanwhile, and a revert over a file changed since the diff", async () => {
    const { dir, review, cached } = await repo();
    await writeFile(join(dir, "f.txt"), CHANGED);
    const diff = await review.diff("f.txt", false, null);
    await writeFile(join(dir, "f.txt"), CHANGED.replace("line 30\n", "line 30 (the agent again)\n"));
    expect(await refusal(review.stage({ path: "f.txt", hunk: diff.hunks[0]!.id }))).toMatchObject({ status: 409, code: "stale_change" });
    expect(await refusal(review.revert({ path: "f.txt", hunk: diff.hunks[0]!.id }))).toMatchObject({ status: 409, code: "stale_change" });
    expect(await refusal(review.revert({ path: "f.txt", base: diff.base }))).toMatchObject({ status: 409, code: "stale_change" });
    expect(cached()).toBe("");
    expect(await readFile(join(dir, "f.txt"), "utf8")).toContain("the agent again");
    // Deleted between the diff and the action.
    const fresh = await review.diff("f.txt", false, null);
    await rm(join(dir, "f.txt"));
    expect(await refusal(review.stage({ path: "f.txt", hunk: fresh.hunks[0]!.id }))).toMatchObject({ status: 409, code: "stale_change" });
  });

  it("whole files: stage and unstage several, revert a modified one and delete an untracked one", async () => {
    const { dir, review, git, cached } = await repo();
    await writeFile(join(dir, "f.txt"), CHANGED);
    await writeFile(join(dir, "new.txt"), "new\n");
    await review.stage({ paths: ["f.txt", "new.txt"] });
    expect(git("diff", "--cached", "--name-only")).toBe("f.txt\nnew.txt\n");
    await review.unstage({ paths: ["f.txt", "new.txt"] });
    expect(cached()).toBe("");
    const diff = await review.diff("f.txt", false, null);
    await review.revert({ path: "f.txt", base: diff.base });
    expect(await readFile(join(dir, "f.txt"), "utf8")).toBe(ORIGINAL);
    const untracked = await review.diff("new.txt", false, null);
    expect(untracked).toMatchObject({ kind: "untracked", hunks: [{ header: "@@ -0,0 +1 @@", lines: ["+new"] }] });
    await review.revert({ path: "new.txt", base: untracked.base });
    await expect(readFile(join(dir, "new.txt"))).rejects.toThrow(/ENOENT/);
  });

  it("a repository with no commit: stage a hunk of a new file (against the empty tree) and unstage it", async () => {
    const { dir, review, staged, git } = await repo({ commit: false });
    await writeFile(join(dir, "f.txt"), "a\nb\n");
    const diff = await review.diff("f.txt", false, null);
    expect(diff.kind).toBe("untracked");
    await review.stage({ path: "f.txt", hunk: diff.hunks[0]!.id, text: "a\n" });
    expect(staged()).toBe("a\n");
    const stagedDiff = await review.diff("f.txt", true, null);
    expect(stagedDiff).toMatchObject({ kind: "added", hunks: [{ lines: ["+a"] }] });
    await review.unstage({ path: "f.txt" });
    expect(git("ls-files")).toBe("");
  });

  it("not a repository: says so", async () => {
    const { review } = await repo({ init: false });
    expect(await refusal(review.diff("f.txt", false, null))).toMatchObject({ status: 409, code: "not_a_repo" });
    expect(await refusal(review.stage({ path: "f.txt" }))).toMatchObject({ status: 409, code: "not_a_repo" });
  });

  it("an index.lock left behind: a clear message naming the file, nothing changed", async () => {
    const { dir, review, cached } = await repo();
    await writeFile(join(dir, "f.txt"), CHANGED);
    const diff = await review.diff("f.txt", false, null);
    await writeFile(join(dir, ".git", "index.lock"), "");
    const refused = await refusal(review.stage({ path: "f.txt", hunk: diff.hunks[0]!.id }));
    expect(refused).toMatchObject({ status: 409, code: "git_locked" });
    expect(refused.message).toContain(join(dir, ".git", "index.lock"));
    await rm(join(dir, ".git", "index.lock"));
    expect(cached()).toBe("");
  });

  it("names with spaces, a newline, a star and a leading dash", async () => {
    const { dir, review, git, staged } = await repo();
    const names = ["with space.txt", "new\nline.txt", "*.txt", "-dash.txt"];
    for (const name of names) await writeFile(join(dir, name), "one\n");
    git("add", "-A");
    git("commit", "-q", "-m", "names");
    for (const name of names) await writeFile(join(dir, name), "one\ntwo\n");
    for (const name of names) {
      const diff = await review.diff(name, false, null);
      expect(diff.hunks, name).toHaveLength(1);
      await review.stage({ path: name, hunk: diff.hunks[0]!.id });
      expect(staged(name), name).toBe("one\ntwo\n");
    }
    // "*.txt" was that file only, never a pattern.
    expect(git("diff", "--cached", "--name-only", "-z").split("\0").filter(Boolean).sort()).toEqual(["*.txt", "-dash.txt", "new\nline.txt", "with space.txt"]);
    expect(await refusal(review.diff("bad\uFFFDname", false, null))).toMatchObject({ status: 400, code: "bad_path" });
  });

  it("a workspace inside the repository: paths are the workspace's, the index the repository's", async () => {
    const { dir, git } = await repo();
    await mkdir(join(dir, "sub"));
    await writeFile(join(dir, "sub", "g.txt"), ORIGINAL);
    git("add", "-A");
    git("commit", "-q", "-m", "sub");
    await writeFile(join(dir, "sub", "g.txt"), CHANGED);
    const review = new GitReview(new WorkspaceFiles(join(dir, "sub")));
    const diff = await review.diff("g.txt", false, null);
    await review.stage({ path: "g.txt", hunk: diff.hunks[2]!.id });
    expect(git("show", ":sub/g.txt")).toBe(ORIGINAL.replace("line 38\n", "line thirty-eight\n"));
  });

  it("binary, mode change, deleted, renamed: shown for what they are", async () => {
    const { dir, review, git } = await repo();
    await writeFile(join(dir, "b.bin"), Buffer.from([0, 1, 2, 3]));
    await writeFile(join(dir, "run.sh"), "echo hi\n");
    await writeFile(join(dir, "old.txt"), "moving\n");
    git("add", "-A");
    git("commit", "-q", "-m", "more");
    await writeFile(join(dir, "b.bin"), Buffer.from([0, 9, 9]));
    await chmod(join(dir, "run.sh"), 0o755);
    await rm(join(dir, "f.txt"));
    git("mv", "old.txt", "new.txt");

    const binary = await review.diff("b.bin", false, null);
    expect(binary).toMatchObject({ binary: true, hunks: [], note: expect.stringMatching(/binary/) });
    expect(await refusal(review.stage({ path: "b.bin", hunk: "x" }))).toMatchObject({ code: "unsupported_change" });

    const mode: GitDiffResponse = await review.diff("run.sh", false, null);
    expect(mode.modeChange).toEqual({ from: "100644", to: "100755" });
    await review.stage({ path: "run.sh", part: "mode", base: mode.base });
    expect(git("diff", "--cached", "--", "run.sh")).toMatch(/old mode 100644\nnew mode 100755/);
    expect((await review.diff("run.sh", true, null)).modeChange).toEqual({ from: "100644", to: "100755" });

    const deleted = await review.diff("f.txt", false, null);
    expect(deleted.kind).toBe("deleted");
    await review.revert({ path: "f.txt", base: deleted.base });
    expect(await readFile(join(dir, "f.txt"), "utf8")).toBe(ORIGINAL);

    const renamed = await review.diff("new.txt", true, "old.txt");
    expect(renamed).toMatchObject({ kind: "renamed", from: "old.txt" });
    await review.unstage({ path: "new.txt", from: "old.txt" });
    expect(git("diff", "--cached", "--name-status")).toBe("M\trun.sh\n");
  });

  it("a diff larger than a page is sent stops at whole hunks, with a note to open the file", async () => {
    const { dir, git, review } = await repo();
    const big = Array.from({ length: 30_000 }, (_, i) => `row ${i}\n`);
    await writeFile(join(dir, "big.txt"), big.join(""));
    git("add", "big.txt");
    git("commit", "-q", "-m", "big");
    // Every tenth line: 3,000 hunks of 8 lines (3 above, the old and the new line, 3 below), 24,000 in all.
    await writeFile(join(dir, "big.txt"), big.map((line, i) => (i % 10 === 5 ? `changed ${line}` : line)).join(""));
    const diff = await review.diff("big.txt", false, null);
    expect(diff.truncated).toEqual({ shownLines: 5_000, totalLines: 24_000 });
    expect(diff.hunks).toHaveLength(625);
    expect(diff.note).toMatch(/24,000 lines; the first 5,000 are shown\. Open the file/);
    // A hunk shown still stages.
    await review.stage({ path: "big.txt", hunk: diff.hunks[1]!.id });
    expect(git("diff", "--cached", "--numstat")).toBe("1\t1\tbig.txt\n");
  });

  it("conflicted files are marked and get no hunk staging", async () => {
    const { dir, git, review } = await repo();
    git("checkout", "-q", "-b", "other");
    await writeFile(join(dir, "f.txt"), ORIGINAL.replace("line 5\n", "line five (other)\n"));
    git("commit", "-q", "-am", "other");
    git("checkout", "-q", "main");
    await writeFile(join(dir, "f.txt"), ORIGINAL.replace("line 5\n", "line five (main)\n"));
    git("commit", "-q", "-am", "main");
    expect(() => git("merge", "-q", "other")).toThrow();
    const diff = await review.diff("f.txt", false, null);
    expect(diff).toMatchObject({ kind: "conflicted", hunks: [], note: expect.stringMatching(/merge conflicts/) });
    expect(await refusal(review.stage({ path: "f.txt", hunk: "x" }))).toMatchObject({ code: "unsupported_change" });
  });

  it("a submodule is shown as one, not diffed", async () => {
    const inner = await repo();
    const { dir, git, review } = await repo();
    git("-c", "protocol.file.allow=always", "submodule", "add", "-q", inner.dir, "mod");
    git("commit", "-q", "-m", "submodule");
    await writeFile(join(inner.dir, "f.txt"), CHANGED);
    inner.git("commit", "-q", "-am", "moved on");
    execFileSync("git", ["-C", join(dir, "mod"), "pull", "-q"], { stdio: "ignore" });
    const diff = await review.diff("mod", false, null);
    expect(diff).toMatchObject({ kind: "submodule", hunks: [], note: expect.stringMatching(/submodule/) });
  });
});
