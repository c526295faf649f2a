import { describe, expect, it } from "vitest";
import { FilesApiError } from "../../src/lib/workspace/files-api.ts";
import { GitStore } from "../../src/lib/workspace/git-store.svelte.ts";
import { MemoryWorkspace } from "./support/memory-files-api.ts";

describe("git store", () => {
  it("maps the relay's status: repository, branch, changes by their path in the tree's form", async () => {
    const ws = new MemoryWorkspace();
    ws.git = {
      isRepo: true,
      branch: "main",
      changes: [
        { path: "./src/a.ts", status: "modified" },
        { path: "docs//new.md", status: "renamed", from: "docs/old.md" },
      ],
    };
    const git = new GitStore(ws.api);
    expect(git.status).toBe("idle");
    await git.load();
    expect(git.status).toBe("ready");
    expect(git.isRepo).toBe(true);
    expect(git.branch).toBe("main");
    expect(git.changes.map((c) => c.path)).toEqual(["src/a.ts", "docs/new.md"]);
    expect(git.changeByPath.get("docs/new.md")).toEqual({ path: "docs/new.md", status: "renamed", from: "docs/old.md" });
    expect(git.changeByPath.has("./src/a.ts")).toBe(false);
  });

  it("follows the repository: a reload replaces the changes", async () => {
    const ws = new MemoryWorkspace();
    ws.git = { isRepo: true, branch: "main", changes: [{ path: "a.ts", status: "modified" }] };
    const git = new GitStore(ws.api);
    await git.load();
    ws.git = { isRepo: true, branch: "topic", changes: [] };
    await git.load();
    expect(git.branch).toBe("topic");
    expect(git.changes).toEqual([]);
    expect(git.changeByPath.size).toBe(0);
  });

  it("a folder that is no repository has no branch and no changes", async () => {
    const git = new GitStore(new MemoryWorkspace().api);
    await git.load();
    expect(git.isRepo).toBe(false);
    expect(git.branch).toBeNull();
    expect(git.changes).toEqual([]);
  });

  it("a failure says why and the next success clears it", async () => {
    const ws = new MemoryWorkspace();
    const git = new GitStore(ws.api);
    ws.failWith = new FilesApiError(500, "git_failed", "git status failed", null);
    await git.load();
    expect(git.status).toBe("error");
    expect(git.error).toBe("git status failed");
    ws.failWith = null;
    await git.load();
    expect(git.status).toBe("ready");
    expect(git.error).toBeNull();
  });
});
