import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadSavedTabs, MAX_SAVED_TABS, savedTabsKey, storeSavedTabs } from "../src/lib/workspace/saved-tabs.ts";

/** A Map-backed localStorage: the unit project runs in Node, which has none. */
function fakeStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe("saved editor tabs", () => {
  beforeEach(() => vi.stubGlobal("localStorage", fakeStorage()));
  afterEach(() => vi.unstubAllGlobals());

  it("round-trips per workspace: another workspace keeps its own", () => {
    storeSavedTabs("/home/a/project", { paths: ["README.md", "src/x.ts"], active: "src/x.ts" });
    storeSavedTabs("/home/a/other", { paths: ["notes.md"], active: "notes.md" });
    expect(loadSavedTabs("/home/a/project")).toEqual({ paths: ["README.md", "src/x.ts"], active: "src/x.ts" });
    expect(loadSavedTabs("/home/a/other")).toEqual({ paths: ["notes.md"], active: "notes.md" });
    expect(loadSavedTabs("/somewhere/else")).toEqual({ paths: [], active: null });
  });

  it("closing every tab forgets the workspace's entry", () => {
    storeSavedTabs("/w", { paths: ["a"], active: "a" });
    storeSavedTabs("/w", { paths: [], active: null });
    expect(localStorage.getItem(savedTabsKey("/w"))).toBeNull();
  });

  it("reads a damaged entry as nothing saved, and keeps only sane parts of an odd one", () => {
    localStorage.setItem(savedTabsKey("/w"), "{not json");
    expect(loadSavedTabs("/w")).toEqual({ paths: [], active: null });
    localStorage.setItem(savedTabsKey("/w"), JSON.stringify({ paths: ["a", 3, "", "a", "b"], active: "gone" }));
    expect(loadSavedTabs("/w")).toEqual({ paths: ["a", "b"], active: null });
    const many = Array.from({ length: MAX_SAVED_TABS + 10 }, (_, i) => `f${i}`);
    localStorage.setItem(savedTabsKey("/w"), JSON.stringify({ paths: many, active: "f0" }));
    expect(loadSavedTabs("/w").paths).toHaveLength(MAX_SAVED_TABS);
  });

  it("without storage (private mode) nothing throws and nothing comes back", () => {
    vi.stubGlobal("localStorage", {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
      removeItem: () => {
        throw new Error("denied");
      },
    });
    expect(() => storeSavedTabs("/w", { paths: ["a"], active: "a" })).not.toThrow();
    expect(loadSavedTabs("/w")).toEqual({ paths: [], active: null });
  });
});
