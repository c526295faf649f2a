// @vitest-environment jsdom
// The page's blink clock (lib/blink-clock.ts): an attribute on <html> that
// flips while something that blinks is on the page, and is gone otherwise.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BLINK_MS, blinks, holdBlink } from "../src/lib/blink-clock.ts";

const blink = () => document.documentElement.dataset["blink"];

describe("blink clock", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: false, media: query }));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("flips while held, by any number of holders, and stops with the last one", () => {
    expect(blink()).toBeUndefined();
    const first = holdBlink();
    const second = holdBlink();
    vi.advanceTimersByTime(BLINK_MS);
    expect(blink()).toBe("off");
    vi.advanceTimersByTime(BLINK_MS);
    expect(blink()).toBe("on");
    first();
    first(); // twice is once
    vi.advanceTimersByTime(BLINK_MS);
    expect(blink()).toBe("off");
    second();
    // Let go: lit, and no timer left to wake the page.
    expect(blink()).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("as an action, holds the clock while its element blinks", () => {
    const action = blinks(document.createElement("span"), false);
    expect(vi.getTimerCount()).toBe(0);
    action.update(true);
    action.update(true);
    vi.advanceTimersByTime(BLINK_MS);
    expect(blink()).toBe("off");
    action.update(false);
    expect(blink()).toBeUndefined();
    action.update(true);
    action.destroy();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("does not run for someone who asked for less motion: the marks stay lit", () => {
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: query.includes("reduce"), media: query }));
    const release = holdBlink();
    vi.advanceTimersByTime(BLINK_MS * 3);
    expect(blink()).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    release();
  });
});
