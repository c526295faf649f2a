import { describe, expect, it } from "vitest";
import { GrowingWordCount } from "../src/lib/word-count.ts";

const words = (text: string) => text.match(/\S+/g)?.length ?? 0;

describe("GrowingWordCount", () => {
  it("counts a growing text as a whole count would, whatever the cuts", () => {
    const text = "  The user wants\tthe short   version.\nThen: check step two, and three. ";
    for (const step of [1, 2, 3, 5, 8]) {
      const counter = new GrowingWordCount();
      for (let at = 0; at <= text.length; at += step) expect(counter.count(text.slice(0, at))).toBe(words(text.slice(0, at)));
      expect(counter.count(text)).toBe(words(text));
    }
  });

  it("counts a text that does not extend the last one from scratch", () => {
    const counter = new GrowingWordCount();
    expect(counter.count("one two three")).toBe(3);
    expect(counter.count("four")).toBe(1);
    expect(counter.count("")).toBe(0);
    expect(counter.count("   ")).toBe(0);
  });
});
