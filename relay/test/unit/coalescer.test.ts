// Coalescing: the first change goes out at once, then at most one per window
// with the latest value; a forgotten key announces nothing more.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Coalescer, WINDOW_MS } from "../../src/coalescer.ts";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("Coalescer", () => {
  it("turns 3,000 changes in a burst into two announcements, the last with the latest value", () => {
    const coalescer = new Coalescer<string>();
    const said: string[] = [];
    let name = "";
    for (let i = 0; i < 3000; i++) {
      name = `name ${i}`;
      coalescer.changed("ada", () => said.push(name));
    }
    vi.advanceTimersByTime(WINDOW_MS * 5);
    expect(said).toEqual(["name 0", "name 2999"]);
  });

  it("announces a steady stream once per window, and keys apart", () => {
    const coalescer = new Coalescer<string>();
    const said: string[] = [];
    for (let ms = 0; ms < 1000; ms += 10) {
      coalescer.changed("a", () => said.push("a"));
      coalescer.changed("b", () => said.push("b"));
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(WINDOW_MS * 2);
    const perKey = 1000 / WINDOW_MS + 1;
    expect(said.filter((s) => s === "a").length).toBeLessThanOrEqual(perKey);
    expect(said.filter((s) => s === "b").length).toBeLessThanOrEqual(perKey);
  });

  it("says nothing more for a forgotten key", () => {
    const coalescer = new Coalescer<string>();
    const said: string[] = [];
    coalescer.changed("a", () => said.push("first"));
    coalescer.changed("a", () => said.push("second"));
    coalescer.forget("a");
    vi.advanceTimersByTime(WINDOW_MS * 2);
    expect(said).toEqual(["first"]);
    coalescer.changed("a", () => said.push("again"));
    expect(said).toEqual(["first", "again"]);
  });
});
