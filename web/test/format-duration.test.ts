import { describe, expect, it } from "vitest";
import { formatDuration } from "../src/lib/format-duration.ts";

describe("formatDuration", () => {
  it.each([
    [0, "0 ms"],
    [2, "2 ms"],
    [99.4, "99 ms"],
    [99.6, "0.1 s"],
    [420, "0.4 s"],
    [2_340, "2.3 s"],
    [9_960, "10 s"],
    [14_400, "14 s"],
    [59_400, "59 s"],
    [60_000, "1 min"],
    [123_000, "2 min 3 s"],
    [3_599_000, "59 min 59 s"],
    [3_600_000, "1 h"],
    [3_900_000, "1 h 5 min"],
  ])("%d ms reads %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("says nothing for values that are not a duration", () => {
    expect(formatDuration(-1)).toBe("");
    expect(formatDuration(Number.NaN)).toBe("");
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe("");
  });
});
