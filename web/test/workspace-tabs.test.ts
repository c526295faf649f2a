import { describe, expect, it } from "vitest";
import { activateTab, closeTab, createTabsState, cycleTab, fileTabId, openTab, renameTabs, tabLabels, type Tab } from "../src/lib/workspace/tabs.ts";
import { minimalEdit } from "../src/lib/workspace/text-edit.ts";
import { statusBadge } from "../src/lib/workspace/git-status.ts";
import { languageIdFor } from "../src/lib/monaco/language.ts";

const tab = (path: string): Tab => ({ id: fileTabId(path), kind: "file", path, title: path.slice(path.lastIndexOf("/") + 1) });
const ids = (state: { tabs: Tab[] }) => state.tabs.map((t) => t.path);

describe("tab store", () => {
  it("opens new tabs after the active one and re-activates existing ones", () => {
    const state = createTabsState();
    openTab(state, tab("a"));
    openTab(state, tab("b"));
    activateTab(state, fileTabId("a"));
    openTab(state, tab("c"));
    expect(ids(state)).toEqual(["a", "c", "b"]);
    expect(state.activeId).toBe(fileTabId("c"));
    openTab(state, tab("b"));
    expect(ids(state)).toEqual(["a", "c", "b"]);
    expect(state.activeId).toBe(fileTabId("b"));
  });

  it("closing the active tab activates the right neighbour, else the left one", () => {
    const state = createTabsState();
    for (const p of ["a", "b", "c"]) openTab(state, tab(p));
    activateTab(state, fileTabId("b"));
    closeTab(state, fileTabId("b"));
    expect(state.activeId).toBe(fileTabId("c"));
    closeTab(state, fileTabId("c"));
    expect(state.activeId).toBe(fileTabId("a"));
    closeTab(state, fileTabId("a"));
    expect(state.activeId).toBeNull();
    expect(closeTab(state, fileTabId("zzz"))).toBeNull();
  });

  it("closing an inactive tab keeps the active one", () => {
    const state = createTabsState();
    for (const p of ["a", "b", "c"]) openTab(state, tab(p));
    closeTab(state, fileTabId("a"));
    expect(state.activeId).toBe(fileTabId("c"));
  });

  it("cycles with wrap-around", () => {
    const state = createTabsState();
    for (const p of ["a", "b"]) openTab(state, tab(p));
    cycleTab(state, 1);
    expect(state.activeId).toBe(fileTabId("a"));
    cycleTab(state, -1);
    expect(state.activeId).toBe(fileTabId("b"));
  });

  it("renames tabs of a renamed file or folder", () => {
    const state = createTabsState();
    openTab(state, tab("src/a.ts"));
    openTab(state, tab("src/sub/b.ts"));
    openTab(state, tab("srcx/c.ts"));
    const moved = renameTabs(state, "src", "lib");
    expect(moved).toEqual([
      [fileTabId("src/a.ts"), fileTabId("lib/a.ts")],
      [fileTabId("src/sub/b.ts"), fileTabId("lib/sub/b.ts")],
    ]);
    expect(ids(state)).toEqual(["lib/a.ts", "lib/sub/b.ts", "srcx/c.ts"]);
    expect(state.activeId).toBe(fileTabId("srcx/c.ts"));
  });

  it("labels same-named tabs with enough of their folders to tell them apart", () => {
    const labels = tabLabels([tab("src/index.ts"), tab("test/index.ts"), tab("a/x/util.ts"), tab("b/x/util.ts"), tab("main.ts")]);
    expect(labels.get(fileTabId("src/index.ts"))).toEqual({ name: "index.ts", hint: "src" });
    expect(labels.get(fileTabId("test/index.ts"))).toEqual({ name: "index.ts", hint: "test" });
    expect(labels.get(fileTabId("a/x/util.ts"))!.hint).toBe("a/x");
    expect(labels.get(fileTabId("main.ts"))).toEqual({ name: "main.ts", hint: "" });
  });
});

describe("minimalEdit", () => {
  it("replaces only the changed middle", () => {
    expect(minimalEdit("hello world", "hello brave world")).toEqual({ start: 6, end: 6, text: "brave " });
    expect(minimalEdit("abcdef", "abXef")).toEqual({ start: 2, end: 4, text: "X" });
    expect(minimalEdit("same", "same")).toBeNull();
    expect(minimalEdit("", "new")).toEqual({ start: 0, end: 0, text: "new" });
  });

  it("never splits a surrogate pair", () => {
    const edit = minimalEdit("a😀b", "a😃b")!;
    const result = "a😀b".slice(0, edit.start) + edit.text + "a😀b".slice(edit.end);
    expect(result).toBe("a😃b");
    expect(edit.start).toBe(1);
  });
});

describe("statusBadge", () => {
  it("maps the relay's git statuses to letters", () => {
    expect(["modified", "added", "deleted", "renamed", "untracked", "conflicted"].map((s) => statusBadge(s).letter)).toEqual(["M", "A", "D", "R", "U", "!"]);
  });
});

describe("languageIdFor", () => {
  const languages = [
    { id: "typescript", extensions: [".ts", ".cts", ".mts"] },
    { id: "javascript", extensions: [".js", ".mjs"] },
    { id: "markdown", extensions: [".md"] },
    { id: "dockerfile", extensions: [".dockerfile"], filenames: ["Dockerfile"] },
  ];
  it("uses file names first, then the longest extension", () => {
    expect(languageIdFor("src/app.ts", languages)).toBe("typescript");
    expect(languageIdFor("bin/run.MJS", languages)).toBe("javascript");
    expect(languageIdFor("Dockerfile", languages)).toBe("dockerfile");
    expect(languageIdFor("notes.txt", languages)).toBe("plaintext");
    // A dotfile named like an extension is not that language.
    expect(languageIdFor(".ts", languages)).toBe("plaintext");
  });
});
