import { describe, expect, it } from "vitest";
import { AXIS_STEPS, axisStep, axisTicks, formatDuration, formatOffset } from "../../src/lib/inspector/time-axis.ts";

describe("time axis", () => {
  it("picks the smallest step that keeps ticks apart, at any zoom", () => {
    expect(axisStep(100, 1000, 80)).toBe(10); // 0.1 ms/px → 8 ms wanted
    expect(axisStep(10_000, 1000, 80)).toBe(1000); // 800 ms wanted
    expect(axisStep(600_000, 1000, 80)).toBe(60_000); // 48 s wanted
    expect(axisStep(86_400_000, 1000, 80)).toBe(2 * 3_600_000);
    expect(AXIS_STEPS).toEqual([...AXIS_STEPS].sort((a, b) => a - b));
  });

  it("places ticks on whole steps from the origin, inside the window, at least minPx apart", () => {
    const origin = 1_700_000_000_123;
    for (const span of [8, 150, 2_500, 45_000, 900_000, 7_200_000]) {
      const start = origin + span * 0.37;
      const { step, ticks } = axisTicks(start, span, 900, origin, 70);
      expect(ticks.length).toBeGreaterThan(0);
      expect(ticks.length).toBeLessThanOrEqual(900 / 70 + 2);
      for (const tick of ticks) {
        expect(tick.t).toBeGreaterThanOrEqual(start);
        expect(tick.t).toBeLessThanOrEqual(start + span);
        expect(Number.isInteger(Math.round((tick.t - origin) / step))).toBe(true);
        expect(Math.abs((tick.t - origin) / step - Math.round((tick.t - origin) / step))).toBeLessThan(1e-6);
      }
      for (let i = 1; i < ticks.length; i++) expect(ticks[i]!.x - ticks[i - 1]!.x).toBeGreaterThanOrEqual(70 - 1e-6);
      // Labels differ from each other (enough precision for the step).
      expect(new Set(ticks.map((t) => t.label)).size).toBe(ticks.length);
    }
  });

  it("labels offsets from milliseconds to hours", () => {
    expect(formatOffset(0, 1000)).toBe("0 s");
    expect(formatOffset(1250, 50)).toBe("1.25 s");
    expect(formatOffset(1234, 1)).toBe("1.234 s");
    expect(formatOffset(1200, 200)).toBe("1.2 s");
    expect(formatOffset(45_000, 5000)).toBe("45 s");
    expect(formatOffset(65_000, 5000)).toBe("1:05");
    expect(formatOffset(65_250, 50)).toBe("1:05.25");
    expect(formatOffset(3_600_000 + 120_000, 60_000)).toBe("1:02:00");
    expect(formatOffset(600_000, 3_600_000)).toBe("0:10:00");
    expect(formatOffset(-500, 100)).toBe("-0.5 s");
    expect(formatOffset(119_999.9, 1000)).toBe("1:00");
  });

  it("says durations the way a person reads them", () => {
    expect(formatDuration(0)).toBe("0 ms");
    expect(formatDuration(0.4)).toBe("0.4 ms");
    expect(formatDuration(12)).toBe("12 ms");
    expect(formatDuration(999.6)).toBe("1 s");
    expect(formatDuration(1200)).toBe("1.2 s");
    expect(formatDuration(1234)).toBe("1.23 s");
    expect(formatDuration(2000)).toBe("2 s");
    expect(formatDuration(12_345)).toBe("12.3 s");
    expect(formatDuration(65_000)).toBe("1 min 5 s");
    expect(formatDuration(120_000)).toBe("2 min");
    expect(formatDuration(3_720_000)).toBe("1 h 2 min");
    expect(formatDuration(-1)).toBe("?");
  });
});
