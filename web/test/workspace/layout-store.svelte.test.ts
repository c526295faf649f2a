import { describe, expect, it } from "vitest";
import { LayoutStore, MIN_CHAT_WIDTH } from "../../src/lib/workspace/layout-store.svelte.ts";

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { items, getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

/** A screen whose width the test sets: `narrow` answers the narrow query, `wide` the wide one. */
function screen(size: "narrow" | "medium" | "wide") {
  const narrow = Object.assign(new EventTarget(), { matches: size === "narrow" });
  const wide = Object.assign(new EventTarget(), { matches: size === "wide" });
  return {
    matchMedia: (query: string) => (query.includes("max-width") ? narrow : wide),
    becomeNarrow() {
      narrow.matches = true;
      narrow.dispatchEvent(Object.assign(new Event("change"), { matches: true }));
    },
  };
}

describe("layout store", () => {
  it("clamps the chat width to the minimum, rounds it, ignores non-numbers, and remembers it", () => {
    const storage = memoryStorage();
    const layout = new LayoutStore({ storage, matchMedia: null });
    layout.setChatWidth(100);
    expect(layout.chatWidth).toBe(MIN_CHAT_WIDTH);
    layout.setChatWidth(512.6);
    expect(layout.chatWidth).toBe(513);
    layout.setChatWidth(Number.NaN);
    expect(layout.chatWidth).toBe(513);
    expect(storage.items.get("pier.chatWidth")).toBe("513");
    expect(new LayoutStore({ storage, matchMedia: null }).chatWidth).toBe(513);
  });

  it("clamps a saved width that is too small, and ignores a garbled one", () => {
    expect(new LayoutStore({ storage: memoryStorage({ "pier.chatWidth": "12" }), matchMedia: null }).chatWidth).toBe(MIN_CHAT_WIDTH);
    expect(new LayoutStore({ storage: memoryStorage({ "pier.chatWidth": "wide" }), matchMedia: null }).chatWidth).toBe(440);
  });

  it("keeps a workspace's layout under its own keys, starting from the browser-wide choice", () => {
    const storage = memoryStorage({ "pier.chatWidth": "600", "pier.explorerOpen": "1" });
    const live = new LayoutStore({ storage, storageScope: "live:abc", matchMedia: screen("medium").matchMedia });
    expect(live.chatWidth).toBe(600);
    expect(live.explorerOpen).toBe(true);
    live.setChatWidth(700);
    live.setExplorerOpen(false);
    expect(storage.items.get("pier.chatWidth:live:abc")).toBe("700");
    expect(storage.items.get("pier.explorerOpen:live:abc")).toBe("0");
    expect(storage.items.get("pier.chatWidth")).toBe("600");
    expect(new LayoutStore({ storage, matchMedia: null }).chatWidth).toBe(600);
    expect(new LayoutStore({ storage, storageScope: "live:abc", matchMedia: null }).chatWidth).toBe(700);
  });

  it("opens the explorer by default on a wide screen only, and remembers a choice made on a wide one", () => {
    expect(new LayoutStore({ storage: memoryStorage(), matchMedia: screen("wide").matchMedia }).explorerOpen).toBe(true);
    expect(new LayoutStore({ storage: memoryStorage(), matchMedia: screen("medium").matchMedia }).explorerOpen).toBe(false);
    const storage = memoryStorage();
    new LayoutStore({ storage, matchMedia: screen("medium").matchMedia }).setExplorerOpen(true);
    expect(new LayoutStore({ storage, matchMedia: screen("medium").matchMedia }).explorerOpen).toBe(true);
  });

  it("on a narrow screen: the explorer starts closed, a choice is not remembered, opening a file shows the editor", () => {
    const storage = memoryStorage({ "pier.explorerOpen": "1" });
    const layout = new LayoutStore({ storage, matchMedia: screen("narrow").matchMedia });
    expect(layout.narrow).toBe(true);
    expect(layout.explorerOpen).toBe(false);
    layout.setExplorerOpen(true);
    expect(storage.items.get("pier.explorerOpen")).toBe("1");
    layout.setExplorerOpen(false);
    expect(storage.items.get("pier.explorerOpen")).toBe("1");
    layout.setExplorerOpen(true);
    layout.showEditor();
    expect(layout.mobilePane).toBe("editor");
    expect(layout.explorerOpen).toBe(false);
    layout.editorEmptied();
    expect(layout.mobilePane).toBe("chat");
  });

  it("closes the explorer when the screen becomes narrow; a wide screen keeps the chat pane", () => {
    const media = screen("wide");
    const layout = new LayoutStore({ storage: memoryStorage(), matchMedia: media.matchMedia });
    expect(layout.explorerOpen).toBe(true);
    layout.showEditor();
    expect(layout.mobilePane).toBe("chat");
    media.becomeNarrow();
    expect(layout.narrow).toBe(true);
    expect(layout.explorerOpen).toBe(false);
  });
});
