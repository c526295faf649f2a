// The pure readers of git's -z output for the worktree routes, on output
// captured from git 2.39 (a modified file, a rename, a binary file, a
// merge-tree conflict), and where worktrees go.
import { describe, expect, it } from "vitest";
import { branchFolderName, diffTotals, joinDiff, parseLogZ, parseMergeTreeZ, parseNameStatusZ, parseNumstatZ, parsePorcelainPathsZ, worktreeLocation } from "../../src/live/git-parse.ts";
import { countLines } from "../../src/live/worktree-diff.ts";

describe("git diff -z readers", () => {
  // `git diff -M --name-status -z` and `--numstat -z` of the same change (captured).
  const nameStatus = "M\0f.txt\0R100\0g.txt\0h.txt\0A\0img.png\0D\0old dir/gone.md\0T\0link\0";
  const numstat = "1\t1\tf.txt\0" + "0\t0\t\0g.txt\0h.txt\0" + "-\t-\timg.png\0" + "0\t7\told dir/gone.md\0" + "1\t1\tlink\0";

  it("reads statuses, a rename's two paths, and a type change as modified", () => {
    expect(parseNameStatusZ(nameStatus)).toEqual([
      { status: "modified", path: "f.txt" },
      { status: "renamed", path: "h.txt", from: "g.txt" },
      { status: "added", path: "img.png" },
      { status: "deleted", path: "old dir/gone.md" },
      { status: "modified", path: "link" },
    ]);
  });

  it("reads line counts by new path; a binary file has none", () => {
    const counts = parseNumstatZ(numstat);
    expect(counts.get("f.txt")).toEqual({ added: 1, deleted: 1, binary: false });
    expect(counts.get("h.txt")).toEqual({ added: 0, deleted: 0, binary: false });
    expect(counts.has("g.txt")).toBe(false);
    expect(counts.get("img.png")).toEqual({ added: null, deleted: null, binary: true });
    expect(counts.get("old dir/gone.md")).toEqual({ added: 0, deleted: 7, binary: false });
  });

  it("joins both into entries and totals (binary files count as files, not lines)", () => {
    const files = joinDiff(parseNameStatusZ(nameStatus), parseNumstatZ(numstat));
    expect(files[1]).toEqual({ status: "renamed", path: "h.txt", from: "g.txt", added: 0, deleted: 0, binary: false, untracked: false });
    expect(files[2]).toMatchObject({ path: "img.png", binary: true, added: null });
    expect(diffTotals(files)).toEqual({ files: 5, added: 2, deleted: 9 });
  });

  it("keeps a tab or a newline inside a path", () => {
    expect(parseNumstatZ("2\t0\ta\tb\nc.txt\0").get("a\tb\nc.txt")).toEqual({ added: 2, deleted: 0, binary: false });
  });

  it("counts lines as git does: a last line without a newline counts", () => {
    expect(countLines(Buffer.from(""))).toBe(0);
    expect(countLines(Buffer.from("a\nb\n"))).toBe(2);
    expect(countLines(Buffer.from("a\nb"))).toBe(2);
  });
});

describe("git merge-tree --write-tree --name-only -z", () => {
  it("reads the conflicted paths up to the empty field, not git's messages after it", () => {
    // Captured: both sides changed line 2 of f.txt.
    const output =
      "4c96acd794570a6d59de488cfcead64fe356ca06\0f.txt\0\0" + "1\0f.txt\0Auto-merging\0Auto-merging f.txt\n\0" + "1\0f.txt\0CONFLICT (contents)\0CONFLICT (content): Merge conflict in f.txt\n\0";
    expect(parseMergeTreeZ(output, true)).toEqual({ tree: "4c96acd794570a6d59de488cfcead64fe356ca06", conflicts: ["f.txt"] });
  });

  it("a clean merge is the tree alone", () => {
    expect(parseMergeTreeZ("0123456789012345678901234567890123456789\0", false)).toEqual({ tree: "0123456789012345678901234567890123456789", conflicts: [] });
  });

  it("names a path once even when git lists it per stage", () => {
    expect(parseMergeTreeZ("t\0a\0a\0b\0\0msg\0", true).conflicts).toEqual(["a", "b"]);
  });
});

describe("status and log", () => {
  it("reads every uncommitted path; a rename's old path is not a second entry", () => {
    expect(parsePorcelainPathsZ(" M src/a.ts\0?? notes.txt\0R  new.ts\0old.ts\0")).toEqual(["src/a.ts", "notes.txt", "new.ts"]);
    expect(parsePorcelainPathsZ("")).toEqual([]);
  });

  it("reads commits and subjects from log -z with %H%x00%s", () => {
    const a = "a".repeat(40);
    const b = "b".repeat(40);
    expect(parseLogZ(`${a}\0fix: one\0${b}\0Work of agent on x\0`)).toEqual([
      { commit: a, subject: "fix: one" },
      { commit: b, subject: "Work of agent on x" },
    ]);
  });
});

describe("worktree location", () => {
  it("goes beside the repository by default, a branch's slashes as dashes", () => {
    expect(branchFolderName("agent/fix/login")).toBe("agent-fix-login");
    expect(worktreeLocation("/home/ada/app", "agent/fix", null)).toBe("/home/ada/app.worktrees/agent-fix");
  });

  it("goes under --worktrees DIR, by repository", () => {
    expect(worktreeLocation("/home/ada/app", "agent/fix", "/srv/trees")).toBe("/srv/trees/app/agent-fix");
  });
});
