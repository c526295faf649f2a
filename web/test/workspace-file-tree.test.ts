import { describe, expect, it } from "vitest";
import { ancestorsOf, buildTree, normalizePath, visibleRows } from "../src/lib/workspace/file-tree.ts";
import type { WorkspaceEntry } from "../src/lib/workspace/workspace-api-types.ts";

const file = (path: string, size = 1): WorkspaceEntry => ({ path, type: "file", size });
const dir = (path: string): WorkspaceEntry => ({ path, type: "dir", size: 0 });

describe("buildTree", () => {
  it("nests flat entries, folders first, names sorted naturally", () => {
    const root = buildTree([file("b.txt"), dir("src"), file("src/item10.ts"), file("src/item2.ts"), file("A.md"), dir("lib")]);
    expect(root.children.map((n) => n.name)).toEqual(["lib", "src", "A.md", "b.txt"]);
    const src = root.children[1]!;
    expect(src.path).toBe("src");
    expect(src.children.map((n) => n.name)).toEqual(["item2.ts", "item10.ts"]);
  });

  it("creates folders a listing leaves out and keeps the real type when listed later", () => {
    const root = buildTree([file("a/b/c.ts"), dir("a")]);
    const a = root.children[0]!;
    expect(a).toMatchObject({ name: "a", path: "a", type: "dir" });
    expect(a.children[0]).toMatchObject({ name: "b", path: "a/b", type: "dir" });
    expect(a.children[0]!.children[0]).toMatchObject({ name: "c.ts", path: "a/b/c.ts", type: "file" });
  });

  it("ignores duplicates and empty paths, normalises separators", () => {
    const root = buildTree([file("x.ts"), file("x.ts"), file(""), file("./y//z.ts")]);
    expect(root.children.map((n) => n.path)).toEqual(["y", "x.ts"]);
    expect(root.children[0]!.children[0]!.path).toBe("y/z.ts");
  });

  it("keeps symlinks as leaves", () => {
    const root = buildTree([{ path: "link", type: "symlink", size: 0 }, file("z")]);
    expect(root.children.map((n) => [n.name, n.type])).toEqual([
      ["link", "symlink"],
      ["z", "file"],
    ]);
  });
});

describe("visibleRows", () => {
  const root = buildTree([file("src/app/main.ts"), file("src/index.ts"), file("README.md")]);

  it("shows only the top level when nothing is expanded", () => {
    expect(visibleRows(root, new Set()).map((r) => [r.node.path, r.depth, r.expanded])).toEqual([
      ["src", 0, false],
      ["README.md", 0, false],
    ]);
  });

  it("walks expanded folders depth-first", () => {
    const rows = visibleRows(root, new Set(["src", "src/app"]));
    expect(rows.map((r) => `${"  ".repeat(r.depth)}${r.node.name}`)).toEqual(["src", "  app", "    main.ts", "  index.ts", "README.md"]);
  });

  it("does not show children of an expanded folder whose parent is collapsed", () => {
    expect(visibleRows(root, new Set(["src/app"])).map((r) => r.node.path)).toEqual(["src", "README.md"]);
  });
});

describe("path helpers", () => {
  it("normalizePath and ancestorsOf", () => {
    expect(normalizePath("/a/./b//c/")).toBe("a/b/c");
    expect(ancestorsOf("a/b/c.ts")).toEqual(["a", "a/b"]);
    expect(ancestorsOf("top.ts")).toEqual([]);
  });
});
