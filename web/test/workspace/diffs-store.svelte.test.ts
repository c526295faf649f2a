import { describe, expect, it } from "vitest";
import { DiffsStore } from "../../src/lib/workspace/diffs-store.svelte.ts";
import { MemoryWorkspace, settle } from "./support/memory-files-api.ts";

describe("diffs store", () => {
  it("a tool's diff is kept by path and title: the same one again reuses it, new text bumps the revision", () => {
    const diffs = new DiffsStore(new MemoryWorkspace().api);
    const first = diffs.putStatic({ title: "edit", path: "./a.ts", original: "1", modified: "2" });
    expect(first.path).toBe("a.ts");
    expect(diffs.putStatic({ title: "edit", path: "a.ts", original: "1", modified: "2" }).key).toBe(first.key);
    expect(diffs.diffs[first.key]!.revision).toBe(0);
    diffs.putStatic({ title: "edit", path: "a.ts", original: "1", modified: "3" });
    expect(diffs.diffs[first.key]).toMatchObject({ modified: "3", revision: 1 });
    const other = diffs.putStatic({ title: "write", path: "a.ts", original: "", modified: "x" });
    expect(other.key).not.toBe(first.key);
  });

  it("a change against HEAD shows HEAD's text (at the old path of a rename) beside the file on disk", async () => {
    const ws = new MemoryWorkspace({ "new.ts": "now" });
    ws.head.set("old.ts", "before");
    const diffs = new DiffsStore(ws.api);
    const info = diffs.putGitChange({ path: "new.ts", status: "renamed", from: "old.ts" });
    expect(diffs.diffs[info.key]!.loading).toBe(true);
    await settle();
    expect(diffs.diffs[info.key]).toMatchObject({ original: "before", modified: "now", loading: false, error: null, revision: 1 });
  });

  it("a deleted file diffs against nothing; a binary one says so", async () => {
    const ws = new MemoryWorkspace({ "img.png": "\u0000" });
    (ws.nodes.get("img.png") as { binary?: boolean }).binary = true;
    ws.head.set("gone.ts", "was here");
    ws.head.set("img.png", "");
    const diffs = new DiffsStore(ws.api);
    const gone = diffs.putGitChange({ path: "gone.ts", status: "deleted" });
    const img = diffs.putGitChange({ path: "img.png", status: "modified" });
    await settle();
    expect(diffs.diffs[gone.key]).toMatchObject({ original: "was here", modified: "" });
    expect(diffs.diffs[img.key]!.modified).toBe("(binary file)");
  });

  it("follows the disk: a touched file, or any git diff after a commit, reloads; static diffs never do", async () => {
    const ws = new MemoryWorkspace({ "a.ts": "1", "b.ts": "1" });
    const diffs = new DiffsStore(ws.api);
    const a = diffs.putGitChange({ path: "a.ts", status: "modified" });
    const b = diffs.putGitChange({ path: "b.ts", status: "modified" });
    diffs.putStatic({ title: "t", path: "a.ts", original: "x", modified: "y" });
    await settle();
    ws.write("a.ts", "2");
    ws.write("b.ts", "2");
    diffs.diskChanged((path) => path === "a.ts", false);
    await settle();
    expect(diffs.diffs[a.key]!.modified).toBe("2");
    expect(diffs.diffs[b.key]!.modified).toBe("1");
    ws.head.set("b.ts", "2");
    diffs.diskChanged(() => false, true);
    await settle();
    expect(diffs.diffs[b.key]).toMatchObject({ original: "2", modified: "2" });
    expect(ws.calls.filter((c) => c === "GET content a.ts")).toHaveLength(3);
  });
});
