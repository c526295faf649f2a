import { describe, expect, it } from "vitest";
import { keyCaps, keysLabel, matchesShortcut, shortcut, SHORTCUTS, type KeyLike } from "../../src/lib/shortcuts/shortcut-registry.ts";

function key(key: string, extra: Partial<KeyLike> = {}): KeyLike {
  return { key, code: extra.code ?? "", altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, repeat: false, isComposing: false, ...extra };
}

describe("the shortcut registry", () => {
  it("has one definition per id, each with keys and words", () => {
    const ids = SHORTCUTS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of SHORTCUTS) {
      expect(s.keys.length).toBeGreaterThan(0);
      expect(s.does.length).toBeGreaterThan(0);
    }
  });

  it("matches each shortcut's own key and not its neighbours", () => {
    expect(matchesShortcut("shortcuts", key("?", { shiftKey: true }))).toBe(true);
    expect(matchesShortcut("shortcuts", key("F1"))).toBe(true);
    expect(matchesShortcut("shortcuts", key("?", { ctrlKey: true }))).toBe(false);
    expect(matchesShortcut("shortcuts", key("/"))).toBe(false);
    expect(matchesShortcut("save", key("s", { ctrlKey: true }))).toBe(true);
    expect(matchesShortcut("save", key("S", { metaKey: true }))).toBe(true);
    expect(matchesShortcut("save", key("s", { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(matchesShortcut("save", key("s"))).toBe(false);
    expect(matchesShortcut("go-to-file", key("p", { ctrlKey: true }))).toBe(true);
    expect(matchesShortcut("toggle-explorer", key("b", { ctrlKey: true }))).toBe(true);
    expect(matchesShortcut("find", key("f", { ctrlKey: true }))).toBe(true);
    expect(matchesShortcut("find", key("f", { ctrlKey: true, altKey: true }))).toBe(false);
    expect(matchesShortcut("stop", key("Escape"))).toBe(true);
    expect(matchesShortcut("stop", key("Escape", { isComposing: true }))).toBe(false);
  });

  it("matches Alt+M and Alt+T by the physical key (Option+M types µ on a Mac)", () => {
    expect(matchesShortcut("cycle-model", key("µ", { altKey: true, code: "KeyM" }))).toBe(true);
    expect(matchesShortcut("cycle-thinking", key("†", { altKey: true, code: "KeyT" }))).toBe(true);
    expect(matchesShortcut("cycle-model", key("m", { code: "KeyM" }))).toBe(false);
    expect(matchesShortcut("cycle-model", key("µ", { altKey: true, code: "KeyM", repeat: true }))).toBe(false);
  });

  it("sends with Enter, not Shift+Enter (a new line); Alt+Enter is both send and the other way", () => {
    expect(matchesShortcut("send", key("Enter"))).toBe(true);
    expect(matchesShortcut("send", key("Enter", { shiftKey: true }))).toBe(false);
    expect(matchesShortcut("send", key("Enter", { isComposing: true }))).toBe(false);
    expect(matchesShortcut("send-other-way", key("Enter"))).toBe(false);
    expect(matchesShortcut("send-other-way", key("Enter", { altKey: true }))).toBe(true);
    expect(matchesShortcut("send", key("Enter", { altKey: true }))).toBe(true);
  });

  it("names Mod as Ctrl, or ⌘ on a Mac", () => {
    expect(keysLabel(shortcut("save").keys[0]!, false)).toBe("Ctrl+S");
    expect(keysLabel(shortcut("save").keys[0]!, true)).toBe("⌘+S");
    expect(keyCaps(["Alt", "M"], true)).toEqual(["⌥", "M"]);
  });

  it("refuses an id it does not know, in words", () => {
    expect(() => shortcut("nope" as never)).toThrow('No keyboard shortcut "nope" in the registry');
  });
});
