import { flushSync } from "svelte";
import { describe, expect, it } from "vitest";

class Counter {
  count = $state(1);
  doubled = $derived(this.count * 2);
}

// Guards the test setup itself: if rune files were compiled for the server,
// $derived would not follow $state and $effect would never run.
describe("rune stores under vitest", () => {
  it("compiles runes for the browser: derived values follow state and effects run", () => {
    const counter = new Counter();
    const seen: number[] = [];
    const stop = $effect.root(() => {
      $effect(() => {
        seen.push(counter.doubled);
      });
    });
    flushSync();
    counter.count = 5;
    flushSync();
    stop();
    expect(counter.doubled).toBe(10);
    expect(seen).toEqual([2, 10]);
  });
});
