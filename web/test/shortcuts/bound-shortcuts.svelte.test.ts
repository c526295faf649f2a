import { flushSync } from "svelte";
import { describe, expect, it } from "vitest";
import { bindShortcuts, isShortcutBound } from "../../src/lib/shortcuts/bound-shortcuts.svelte.ts";

describe("bindShortcuts in an $effect", () => {
  it("binds and unbinds without the effect re-running itself (it reads the counts it writes)", () => {
    let runs = 0;
    const stop = $effect.root(() => {
      $effect(() => {
        runs++;
        return bindShortcuts(["send", "send-other-way"]);
      });
    });
    flushSync();
    expect(runs).toBe(1);
    expect(isShortcutBound("send")).toBe(true);
    stop();
    flushSync();
    expect(isShortcutBound("send")).toBe(false);
  });
});
