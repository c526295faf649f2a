import { describe, expect, it } from "vitest";
import { fuzzyFilter, fuzzyScore, highlightRuns } from "../src/lib/workspace/fuzzy.ts";

const paths = [
  "src/components/workbench/EditorArea.svelte",
  "src/components/workbench/EditorTabs.svelte",
  "src/lib/workspace/file-tree.ts",
  "src/lib/workspace/fuzzy.ts",
  "README.md",
  "docs/reading-list.md",
  "test/workspace-fuzzy.test.ts",
];

describe("fuzzyScore", () => {
  it("matches characters in order, case-insensitively, and reports their positions", () => {
    const match = fuzzyScore("rdm", "README.md");
    expect(match).not.toBeNull();
    expect(match!.positions.map((i) => "README.md"[i])).toEqual(["R", "D", "m"]);
  });

  it("rejects when a character is missing or out of order", () => {
    expect(fuzzyScore("xyz", "README.md")).toBeNull();
    expect(fuzzyScore("mr", "rm")).toBeNull();
    expect(fuzzyScore("toolong", "abc")).toBeNull();
  });

  it("ignores spaces in the query; an empty query matches everything", () => {
    expect(fuzzyScore("file tree", "src/lib/workspace/file-tree.ts")).not.toBeNull();
    expect(fuzzyScore("", "anything")).toEqual({ path: "anything", score: 0, positions: [] });
  });
});

describe("fuzzyFilter", () => {
  it("ranks file-name matches above folder-name matches", () => {
    expect(fuzzyFilter("fuzzy", paths)[0]!.path).toBe("src/lib/workspace/fuzzy.ts");
  });

  it("prefers word starts (camelCase, separators) and contiguous runs", () => {
    expect(fuzzyFilter("edtabs", paths)[0]!.path).toBe("src/components/workbench/EditorTabs.svelte");
    expect(fuzzyFilter("ft", paths)[0]!.path).toBe("src/lib/workspace/file-tree.ts");
  });

  it("prefers the shorter path when otherwise equal", () => {
    const [first] = fuzzyFilter("readme", ["a/b/c/README.md", "README.md"]);
    expect(first!.path).toBe("README.md");
  });

  it("honours the limit", () => {
    expect(fuzzyFilter("s", paths, 2)).toHaveLength(2);
  });
});

describe("highlightRuns", () => {
  it("splits text into hit and miss runs, with an offset into the path", () => {
    expect(highlightRuns("main.ts", [4, 5], 0)).toEqual([
      { text: "main", hit: false },
      { text: ".t", hit: true },
      { text: "s", hit: false },
    ]);
    expect(highlightRuns("ab", [10], 9)).toEqual([
      { text: "a", hit: false },
      { text: "b", hit: true },
    ]);
  });
});
