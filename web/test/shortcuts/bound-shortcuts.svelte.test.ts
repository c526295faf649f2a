import { describe, expect, it } from "vitest";
import { bindShortcuts, isShortcutBound, listenForShortcuts } from "../../src/lib/shortcuts/bound-shortcuts.svelte.ts";

describe("bound shortcuts", () => {
  it("a shortcut is bound while any handler holds it", () => {
    expect(isShortcutBound("save")).toBe(false);
    const first = bindShortcuts(["save"]);
    const second = bindShortcuts(["save"]);
    first();
    first(); // twice is once
    expect(isShortcutBound("save")).toBe(true);
    second();
    expect(isShortcutBound("save")).toBe(false);
  });

  it("listens on the window: runs the matching handler, prevents the default, and stops when told", () => {
    const seen: string[] = [];
    const stop = listenForShortcuts({
      "go-to-file": () => void seen.push("p"),
      "toggle-explorer": () => {
        seen.push("b declined");
        return false;
      },
    });
    expect(isShortcutBound("go-to-file")).toBe(true);
    const p = new KeyboardEvent("keydown", { key: "p", ctrlKey: true, cancelable: true });
    window.dispatchEvent(p);
    expect(p.defaultPrevented).toBe(true);
    const b = new KeyboardEvent("keydown", { key: "b", ctrlKey: true, cancelable: true });
    window.dispatchEvent(b);
    expect(b.defaultPrevented).toBe(false);
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "s", ctrlKey: true }));
    expect(seen).toEqual(["p", "b declined"]);

    stop();
    expect(isShortcutBound("go-to-file")).toBe(false);
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "p", ctrlKey: true }));
    expect(seen).toEqual(["p", "b declined"]);
  });
});
