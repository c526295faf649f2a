// The Changes view's Staged and Changes lists from git's two letters, the
// revert question, and a hunk's rows (change-sections.ts, hunk-rows.ts).
import { describe, expect, it } from "vitest";
import { revertQuestion, splitChanges } from "../../src/lib/workspace/change-sections.ts";
import { hunkNewText, hunkRows, stableHunkKey } from "../../src/lib/workspace/hunk-rows.ts";

describe("splitChanges", () => {
  it("puts each side where it belongs: a file changed on both sides is in both lists", () => {
    const { staged, unstaged } = splitChanges([
      { path: "both.ts", status: "modified", index: "M", worktree: "M" },
      { path: "staged.ts", status: "added", index: "A", worktree: " " },
      { path: "work.ts", status: "deleted", index: " ", worktree: "D" },
      { path: "new.ts", status: "renamed", index: "R", worktree: " ", from: "old.ts" },
      { path: "u.txt", status: "untracked", index: "?", worktree: "?" },
      { path: "c.ts", status: "conflicted", index: "U", worktree: "U" },
    ]);
    expect(staged.map((e) => [e.change.path, e.badge.letter])).toEqual([
      ["both.ts", "M"],
      ["staged.ts", "A"],
      ["new.ts", "R"],
    ]);
    expect(unstaged.map((e) => [e.change.path, e.badge.letter, e.untracked, e.conflicted])).toEqual([
      ["both.ts", "M", false, false],
      ["work.ts", "D", false, false],
      ["u.txt", "U", true, false],
      ["c.ts", "!", false, true],
    ]);
  });

  it("a relay without the letters: everything is a change of the working tree; a name that is not UTF-8 is marked", () => {
    const { staged, unstaged } = splitChanges([{ path: "bad\uFFFD.txt", status: "modified" }]);
    expect(staged).toEqual([]);
    expect(unstaged[0]).toMatchObject({ unreadableName: true, badge: { letter: "M" } });
  });

  it("the revert question names how many files and that untracked ones are deleted", () => {
    const { unstaged } = splitChanges([
      { path: "a.ts", status: "modified", index: " ", worktree: "M" },
      { path: "n1", status: "untracked", index: "?", worktree: "?" },
      { path: "n2", status: "untracked", index: "?", worktree: "?" },
    ]);
    expect(revertQuestion(unstaged)).toEqual({ title: "Revert 3 files?", message: expect.stringContaining("2 untracked files are deleted") });
    expect(revertQuestion(unstaged.slice(0, 1))).toEqual({ title: "Revert a.ts?", message: expect.not.stringContaining("deleted") });
  });
});

describe("hunk rows", () => {
  const hunk = { oldStart: 10, newStart: 12, oldCount: 3, newCount: 3, lines: [" a", "-b", "+c", " d", "\\ No newline at end of file"] };

  it("numbers each side and marks the kind of line", () => {
    expect(hunkRows(hunk)).toEqual([
      { kind: "ctx", text: "a", old: 10, new: 12 },
      { kind: "del", text: "b", old: 11, new: null },
      { kind: "add", text: "c", old: null, new: 13 },
      { kind: "ctx", text: "d", old: 12, new: 14 },
      { kind: "note", text: "No newline at end of file", old: null, new: null },
    ]);
  });

  it("gives the new side as text for Edit, and a key that does not move with the other side", () => {
    expect(hunkNewText(hunk)).toBe("a\nc\nd");
    expect(stableHunkKey(hunk, "unstaged")).toBe(stableHunkKey({ ...hunk, oldStart: 99 }, "unstaged"));
    expect(stableHunkKey(hunk, "staged")).not.toBe(stableHunkKey({ ...hunk, oldStart: 99 }, "staged"));
  });
});
