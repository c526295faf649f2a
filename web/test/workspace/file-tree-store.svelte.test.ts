import { describe, expect, it } from "vitest";
import { FilesApiError } from "../../src/lib/workspace/files-api.ts";
import { FileTreeStore } from "../../src/lib/workspace/file-tree-store.svelte.ts";
import { MemoryWorkspace } from "./support/memory-files-api.ts";

const names = (store: FileTreeStore) => store.tree.children.map((c) => c.name);

describe("file tree store", () => {
  it("loads the listing into a tree, paths in the tree's form", async () => {
    const ws = new MemoryWorkspace({ "src/main.ts": "", "README.md": "" });
    const tree = new FileTreeStore({
      tree: async () => ({
        ...(await ws.api.tree()),
        entries: [
          { path: "./src/", type: "dir", size: 0 },
          { path: "src//main.ts", type: "file", size: 1 },
        ],
      }),
    });
    expect(tree.status).toBe("idle");
    const loading = tree.load();
    expect(tree.status).toBe("loading");
    await loading;
    expect(tree.status).toBe("ready");
    expect(tree.root).toBe("/memory");
    expect(tree.entries.map((e) => e.path)).toEqual(["src", "src/main.ts"]);
    expect(tree.files).toEqual(["src/main.ts"]);
    expect(names(tree)).toEqual(["src"]);
  });

  it("expands and collapses folders, one or all, and reveals a file by opening the folders above it", () => {
    const tree = new FileTreeStore(new MemoryWorkspace().api);
    tree.toggleFolder("src");
    expect(tree.expanded).toEqual({ src: true });
    tree.toggleFolder("src");
    expect(tree.expanded).toEqual({});
    tree.toggleFolder("lib", true);
    tree.toggleFolder("lib", true);
    expect(tree.expanded).toEqual({ lib: true });
    tree.reveal("a/b/c.ts");
    expect(tree.expanded).toEqual({ lib: true, a: true, "a/b": true });
    expect(tree.selectedPath).toBe("a/b/c.ts");
    tree.collapseAll();
    expect(tree.expanded).toEqual({});
  });

  it("reloads show what changed on disk, keeping open folders", async () => {
    const ws = new MemoryWorkspace({ "src/a.ts": "" });
    const tree = new FileTreeStore(ws.api);
    await tree.load();
    tree.toggleFolder("src", true);
    ws.write("src/b.ts", "");
    await tree.load();
    expect(tree.files).toEqual(["src/a.ts", "src/b.ts"]);
    expect(tree.expanded).toEqual({ src: true });
  });

  it("a slow earlier answer never overwrites a newer one", async () => {
    const answers: ((files: string[]) => void)[] = [];
    const tree = new FileTreeStore({
      tree: () => new Promise((resolve) => answers.push((files) => resolve({ root: "/r", truncated: false, entries: files.map((path) => ({ path, type: "file", size: 0 })) }))),
    });
    const first = tree.load();
    const second = tree.load();
    answers[1]!(["new.ts"]);
    await second;
    answers[0]!(["old.ts"]);
    await first;
    expect(tree.files).toEqual(["new.ts"]);
  });

  it("says why a listing failed; a relay without the file service is named as such", async () => {
    const ws = new MemoryWorkspace();
    const tree = new FileTreeStore(ws.api);
    ws.failWith = new FilesApiError(404, "not_found", "GET /api/files/tree answered 404", null);
    await tree.load();
    expect(tree.status).toBe("error");
    expect(tree.error).toBe("The relay has no workspace file service.");
    ws.failWith = null;
    await tree.load();
    expect(tree.status).toBe("ready");
    expect(tree.error).toBeNull();
  });

  it("a rename carries the selection and an open folder along", () => {
    const tree = new FileTreeStore(new MemoryWorkspace().api);
    tree.reveal("old/x.ts");
    tree.selectedPath = "old";
    tree.renamed("old", "new");
    expect(tree.selectedPath).toBe("new");
    expect(tree.expanded.new).toBe(true);
  });
});
