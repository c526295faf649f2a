import type { FolderListing, WorkspaceInfo } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { foldersShown, startProblem, workspacesInOrder } from "../../src/lib/live/new-agent-choice.ts";

const ws = (name: string, lastUsedAt: number, given = false): WorkspaceInfo => ({ path: `/w/${name}`, name, lastUsedAt, given });

describe("the New agent form's choices", () => {
  it("lists workspaces most recent first, never-used ones after by name", () => {
    const list = [ws("b", 0), ws("old", 10), ws("a", 0, true), ws("new", 30)];
    expect(workspacesInOrder(list).map((w) => w.name)).toEqual(["new", "old", "a", "b"]);
    expect(list.map((w) => w.name)).toEqual(["b", "old", "a", "new"]);
  });

  it("hides hidden folders unless asked", () => {
    const listing: FolderListing = {
      path: "/h",
      parent: "/",
      folders: [
        { name: ".cache", path: "/h/.cache", hidden: true, repository: false },
        { name: "src", path: "/h/src", hidden: false, repository: true },
      ],
      truncated: false,
    };
    expect(foldersShown(listing, false).map((f) => f.name)).toEqual(["src"]);
    expect(foldersShown(listing, true).map((f) => f.name)).toEqual([".cache", "src"]);
  });

  it("says what Start is missing before asking the relay", () => {
    expect(startProblem("", false, "")).toMatch(/^Say which folder/);
    expect(startProblem("work/x", false, "")).toMatch(/is not an absolute path/);
    expect(startProblem("/work/x", true, "")).toMatch(/^Give the new branch a name/);
    expect(startProblem("/work/x", true, "fix")).toBeNull();
    expect(startProblem("/work/x", false, "")).toBeNull();
  });
});
