import { describe, expect, it } from "vitest";
import { matchesShortcut, shortcut, type KeyLike } from "../../src/lib/shortcuts/shortcut-registry.ts";

function key(key: string, code: string, extra: Partial<KeyLike> = {}): KeyLike {
  return { key, code, altKey: true, ctrlKey: false, metaKey: false, shiftKey: false, repeat: false, isComposing: false, ...extra };
}

describe("the board's keys", () => {
  it("open the board with Alt+A and go to the next agent that needs you with Alt+N, by the physical key", () => {
    expect(matchesShortcut("board", key("a", "KeyA"))).toBe(true);
    expect(matchesShortcut("board", key("å", "KeyA"))).toBe(true);
    expect(matchesShortcut("next-needs-you", key("˜", "KeyN"))).toBe(true);
    expect(matchesShortcut("board", key("a", "KeyA", { altKey: false }))).toBe(false);
    expect(matchesShortcut("board", key("a", "KeyA", { ctrlKey: true }))).toBe(false);
    expect(matchesShortcut("board", key("A", "KeyA", { shiftKey: true }))).toBe(false);
    expect(matchesShortcut("next-needs-you", key("n", "KeyN", { repeat: true }))).toBe(false);
    expect(shortcut("board").keys).toEqual([["Alt", "A"]]);
  });
});
