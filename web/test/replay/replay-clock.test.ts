import { describe, expect, it } from "vitest";
import { MAX_GAP_MS, SPEEDS, firstAfter, formatClock, positionText, speedLabel, waitBetween } from "../../src/lib/replay/replay-clock.ts";

describe("replay clock", () => {
  it("waits the recorded gap divided by the speed, a long pause shortened, nothing at max", () => {
    expect(waitBetween(100, 400, 1)).toBe(300);
    expect(waitBetween(100, 400, 2)).toBe(150);
    expect(waitBetween(100, 400, 0.5)).toBe(600);
    expect(waitBetween(0, 60_000, 1)).toBe(MAX_GAP_MS);
    expect(waitBetween(0, 60_000, 10)).toBe(MAX_GAP_MS / 10);
    expect(waitBetween(0, 60_000, "max")).toBe(0);
    // Times never decrease in a capture, but a caller's mistake waits nothing rather than forever.
    expect(waitBetween(400, 100, 1)).toBe(0);
  });

  it("finds the first event after a time (events at the same time go together)", () => {
    const times = Float64Array.from([0, 0, 5, 5, 5, 9, 12]);
    expect(firstAfter(times, 0)).toBe(2);
    expect(firstAfter(times, 5, 2)).toBe(5);
    expect(firstAfter(times, 4)).toBe(2);
    expect(firstAfter(times, 12)).toBe(7);
    expect(firstAfter(times, -1)).toBe(0);
    expect(firstAfter(new Float64Array(0), 3)).toBe(0);
  });

  it("writes positions and clocks for people", () => {
    expect(formatClock(0)).toBe("00:00");
    expect(formatClock(59_999)).toBe("00:59");
    expect(formatClock(61_000)).toBe("01:01");
    expect(formatClock(3_723_000)).toBe("1:02:03");
    expect(positionText(12, 100_000, 7_400)).toBe("record 12 of 100,000, 00:07");
    expect(SPEEDS.map(speedLabel)).toEqual(["0.5×", "1×", "2×", "10×", "max"]);
  });
});
