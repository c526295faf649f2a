// The words of a worktree agent's card (worktree-text.ts).
import { describe, expect, it } from "vitest";
import type { LiveDiffEntry, LiveWorktree } from "@pier/protocol";
import { branchLine, diffSides, diffSummary, discardQuestion, entryCounts, entryLabel, sideMissing } from "../../src/lib/live/worktree-text.ts";

const worktree = (branch: string | null): LiveWorktree => ({ branch: "feature-x", base: { branch, commit: "0123456789abcdef" }, path: "/tmp/wt" });
const entry = (fields: Partial<LiveDiffEntry>): LiveDiffEntry => ({ path: "a.txt", status: "modified", added: 1, deleted: 0, binary: false, untracked: false, ...fields });

describe("worktree-text", () => {
  it("names the branch and its base, or the detached commit", () => {
    expect(branchLine(worktree("main"))).toBe("feature-x from main");
    expect(branchLine(worktree(null))).toBe("feature-x from commit 01234567 (detached)");
  });

  it("sums up a diff: none, one file, many (and more than listed)", () => {
    expect(diffSummary({ totals: { files: 0, added: 0, deleted: 0 }, truncated: false })).toBe("No changes yet");
    expect(diffSummary({ totals: { files: 1, added: 3, deleted: 1 }, truncated: false })).toBe("1 file changed, +3 −1");
    expect(diffSummary({ totals: { files: 500, added: 9, deleted: 2 }, truncated: true })).toBe("500 files+ changed, +9 −2");
  });

  it("counts a file's lines, or says binary; a rename shows its old path", () => {
    expect(entryCounts(entry({ added: 4, deleted: 2 }))).toBe("+4 −2");
    expect(entryCounts(entry({ binary: true, added: null, deleted: null }))).toBe("binary");
    expect(entryLabel(entry({ path: "b.txt", from: "a.txt", status: "renamed" }))).toBe("a.txt → b.txt");
    expect(entryLabel(entry({}))).toBe("a.txt");
  });

  it("gives a diff's two sides (an absent side is empty), or why there is none", () => {
    expect(diffSides({ content: null, reason: "absent" }, { content: "new\n", reason: null })).toEqual({ original: "", modified: "new\n" });
    expect(diffSides({ content: "x", reason: null }, { content: null, reason: "binary" })).toEqual({ reason: "The current version is a binary file, so there is no text diff." });
    expect(diffSides({ content: null, reason: "too_large" }, { content: "y", reason: null })).toEqual({ reason: "The base version is too large to show, so there is no text diff." });
    expect(sideMissing({ content: "z", reason: null })).toBeNull();
  });

  it("names what a discard would lose", () => {
    const lossy = discardQuestion("feature-x", { uncommitted: ["notes.txt"], unmerged: [{ commit: "abcdef0123456789", subject: "work" }], missing: false });
    expect(lossy.lead).toBe("Discarding stops the agent and deletes its worktree and branch feature-x, losing 1 uncommitted file and 1 unmerged commit:");
    expect(lossy.uncommitted).toEqual(["notes.txt"]);
    expect(lossy.unmerged).toEqual(["abcdef01 work"]);
    expect(discardQuestion("b", { uncommitted: [], unmerged: [], missing: false }).lead).toMatch(/^Nothing unmerged would be lost/);
    expect(discardQuestion("b", { uncommitted: [], unmerged: [], missing: true }).lead).toMatch(/folder is gone already/);
  });
});
