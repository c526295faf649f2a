// The hunk parser and applier (git-hunks.ts) against patches real git printed.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyHunks, hunkId, hunkSide, parseFileDiff, reverseHunkNear, splitLines, StaleHunkError, wholeTextHunk } from "../../src/workspace/git-hunks.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** git's own patch from `before` to `after` (git diff --no-index), as git-review.ts reads one. */
function gitPatch(before: string, after: string): string {
  const dir = mkdtempSync(join(tmpdir(), "pier-hunks-"));
  dirs.push(dir);
  writeFileSync(join(dir, "a"), before);
  writeFileSync(join(dir, "b"), after);
  try {
    return execFileSync("git", ["diff", "--no-index", "--no-color", "-U3", "a", "b"], { cwd: dir, encoding: "utf8" });
  } catch (error) {
    // Exit code 1: the files differ.
    return (error as { stdout: string }).stdout;
  }
}

const lines = (count: number, tag = "line") => Array.from({ length: count }, (_, i) => `${tag} ${i + 1}\n`).join("");

describe("parseFileDiff", () => {
  it("reads the hunks, their ranges and lines, and the mode lines", () => {
    const parsed = parseFileDiff(
      ["diff --git a/x b/x", "old mode 100644", "new mode 100755", "index 1..2", "--- a/x", "+++ b/x", "@@ -1,2 +1,2 @@ fn", " a", "-b", "+c", "@@ -9 +9,0 @@", "-z", ""].join("\n"),
    );
    expect(parsed.oldMode).toBe("100644");
    expect(parsed.newMode).toBe("100755");
    expect(parsed.hunks).toEqual([
      { header: "@@ -1,2 +1,2 @@ fn", oldStart: 1, oldCount: 2, newStart: 1, newCount: 2, lines: [" a", "-b", "+c"] },
      { header: "@@ -9 +9,0 @@", oldStart: 9, oldCount: 1, newStart: 9, newCount: 0, lines: ["-z"] },
    ]);
  });

  it("keeps the no-newline marker with the line it follows and knows a binary patch", () => {
    const parsed = parseFileDiff(gitPatch("a\nb", "a\nc\n"));
    expect(parsed.hunks[0]!.lines).toEqual([" a", "-b", "\\ No newline at end of file", "+c"]);
    expect(parseFileDiff("diff --git a/p b/p\nindex 1..2 100644\nBinary files a/p and b/p differ\n")).toMatchObject({ binary: true, hunks: [] });
  });

  it("reads a line that looks like a header inside a hunk as a line", () => {
    const parsed = parseFileDiff(gitPatch("x\n", "@@ -1 +1 @@\nold mode 1\n"));
    expect(parsed.hunks).toHaveLength(1);
    expect(parsed.hunks[0]!.lines).toEqual(["-x", "+@@ -1 +1 @@", "+old mode 1"]);
    expect(parsed.oldMode).toBeNull();
  });
});

describe("applyHunks", () => {
  const before = lines(40);
  const after = before.replace("line 2\n", "line two\n").replace("line 20\n", "").replace("line 38\n", "line 38\nadded\n");
  const hunks = parseFileDiff(gitPatch(before, after)).hunks;

  it("has three hunks; applying all of them forward gives the new text, in reverse the old", () => {
    expect(hunks).toHaveLength(3);
    expect(applyHunks(before, hunks, "forward")).toBe(after);
    expect(applyHunks(after, hunks, "reverse")).toBe(before);
  });

  it("applies one hunk of three, either way", () => {
    const middle = hunks[1]!;
    expect(applyHunks(before, [middle], "forward")).toBe(before.replace("line 20\n", ""));
    expect(applyHunks(after, [middle], "reverse")).toBe(after.replace("line 21\n", "line 20\nline 21\n"));
  });

  it("refuses a hunk whose lines are no longer where the diff put them", () => {
    expect(() => applyHunks(before.replace("line 19\n", "line nineteen\n"), [hunks[1]!], "forward")).toThrow(StaleHunkError);
    expect(() => applyHunks("line 1\n", [hunks[2]!], "forward")).toThrow(StaleHunkError);
  });

  it("gives an edited hunk its own new text", () => {
    const edited = applyHunks(before, [hunks[0]!], "forward", new Map([[hunks[0]!, "line 1\nline TWO, edited\nline 3\nline 4\nline 5\n"]]));
    expect(edited).toBe(before.replace("line 2\n", "line TWO, edited\n"));
  });

  it("handles the last line without a newline, added and removed", () => {
    for (const [a, b] of [
      ["a\nb", "a\nb\n"],
      ["a\nb\n", "a\nb"],
      ["a", "a\nb"],
      ["", "x"],
      ["x\n", ""],
    ] as const) {
      const parsed = parseFileDiff(gitPatch(a, b)).hunks;
      expect(applyHunks(a, parsed, "forward"), JSON.stringify([a, b])).toBe(b);
      expect(applyHunks(b, parsed, "reverse"), JSON.stringify([a, b])).toBe(a);
    }
  });

  it("keeps CR characters as part of the lines", () => {
    const a = "one\r\ntwo\r\nthree\r\n";
    const b = "one\r\n2\r\nthree\r\n";
    expect(applyHunks(a, parseFileDiff(gitPatch(a, b)).hunks, "forward")).toBe(b);
  });
});

describe("the rest", () => {
  it("wholeTextHunk stands for a new file's whole text", () => {
    const hunk = wholeTextHunk("a\nb")!;
    expect(hunk.lines).toEqual(["+a", "+b", "\\ No newline at end of file"]);
    expect(applyHunks("", [hunk], "forward")).toBe("a\nb");
    expect(wholeTextHunk("")).toBeNull();
  });

  it("splitLines keeps the ends of line; hunkSide rebuilds each side", () => {
    expect(splitLines("a\n\nb")).toEqual(["a\n", "\n", "b"]);
    const hunk = { lines: [" a", "-b", "\\ No newline at end of file", "+c"] };
    expect(hunkSide(hunk, "old")).toEqual(["a\n", "b"]);
    expect(hunkSide(hunk, "new")).toEqual(["a\n", "c\n"]);
  });

  it("hunkId changes with either side of the file, and with the hunk", () => {
    const hunk = { header: "@@ -1 +1 @@", lines: ["-a", "+b"] };
    expect(hunkId("s1:w1", hunk)).toBe(hunkId("s1:w1", { ...hunk }));
    expect(hunkId("s1:w2", hunk)).not.toBe(hunkId("s1:w1", hunk));
    expect(hunkId("s1:w1", { ...hunk, lines: ["-a", "+c"] })).not.toBe(hunkId("s1:w1", hunk));
  });
});

describe("reverseHunkNear (a revert that met a file changed meanwhile)", () => {
  const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join("");
  const before = lines(30);
  const after = before.replace("line 20\n", "line twenty\n");
  const hunk = parseFileDiff(gitPatch(before, after)).hunks[0]!;

  it("reverses the hunk where its lines are now, after lines were added above it", () => {
    const now = "new top\nnew top 2\n" + after;
    expect(reverseHunkNear(now, hunk)).toBe("new top\nnew top 2\n" + before);
  });

  it("reverses it where lines were removed above it, and where it still is", () => {
    expect(reverseHunkNear(after.replace("line 2\n", ""), hunk)).toBe(before.replace("line 2\n", ""));
    expect(reverseHunkNear(after + "tail\n", hunk)).toBe(before + "tail\n");
  });

  it("is null when the hunk's own lines changed, or its new side has no lines", () => {
    expect(reverseHunkNear(after.replace("line twenty\n", "line 20 again\n"), hunk)).toBeNull();
    expect(reverseHunkNear(after.replace("line 18\n", "line eighteen\n"), hunk)).toBeNull();
    const emptied = parseFileDiff(gitPatch("a\n", "")).hunks[0]!;
    expect(reverseHunkNear("", emptied)).toBeNull();
  });
});
