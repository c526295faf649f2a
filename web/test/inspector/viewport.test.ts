import { describe, expect, it } from "vitest";
import {
  EDGE_SLACK,
  LIVE_EDGE,
  MIN_SPAN_MS,
  clampView,
  fitView,
  followView,
  maxSpan,
  panBy,
  panByPixels,
  revealRange,
  timeToX,
  wheelZoomFactor,
  xToTime,
  zoomAt,
  type TimeRange,
} from "../../src/lib/inspector/viewport.ts";

const range: TimeRange = { from: 1_000_000, to: 1_060_000 }; // one minute

describe("viewport", () => {
  it("maps times to pixels and back", () => {
    const view = { start: 1000, span: 500 };
    expect(timeToX(view, 1000, 1250)).toBe(500);
    expect(xToTime(view, 1000, 500)).toBe(1250);
    expect(xToTime(view, 1000, timeToX(view, 1000, 1337))).toBeCloseTo(1337);
  });

  it("keeps the time under the pointer fixed while zooming", () => {
    const view = { start: 1_010_000, span: 20_000 };
    for (const anchor of [0, 0.25, 0.5, 0.9, 1]) {
      for (const factor of [1.5, 4, 1 / 3]) {
        const before = view.start + anchor * view.span;
        const zoomed = zoomAt(view, factor, anchor, range);
        expect(zoomed.span).toBeCloseTo(view.span / factor);
        expect(zoomed.start + anchor * zoomed.span).toBeCloseTo(before);
      }
    }
  });

  it("clamps the span between a few milliseconds and a few times the data", () => {
    const view = { start: 1_030_000, span: 10 };
    expect(zoomAt(view, 1000, 0.5, range).span).toBe(MIN_SPAN_MS);
    expect(zoomAt({ start: 1_000_000, span: 60_000 }, 1e-6, 0.5, range).span).toBe(maxSpan(range));
    expect(maxSpan(null)).toBeGreaterThan(0);
  });

  it("does not let the data leave the window when panning", () => {
    const view = { start: 1_020_000, span: 10_000 };
    const farLeft = panBy(view, -1e9, range);
    expect(farLeft.start).toBeCloseTo(range.from - EDGE_SLACK * view.span);
    expect(farLeft.start + farLeft.span).toBeGreaterThan(range.from); // some data still shows
    const farRight = panBy(view, 1e9, range);
    expect(farRight.start).toBeCloseTo(range.to - (1 - EDGE_SLACK) * view.span);
    expect(farRight.start).toBeLessThan(range.to);
    expect(panBy(view, 1000, range).start).toBe(view.start + 1000);
  });

  it("pans by pixels in proportion to the span", () => {
    const view = { start: 1_020_000, span: 10_000 };
    expect(panByPixels(view, 100, 1000, range).start).toBe(1_021_000);
    expect(panByPixels(view, -50, 1000, range).start).toBe(1_019_500);
  });

  it("fits the whole range with a little air and follows the live edge", () => {
    const fit = fitView(range, range.to);
    expect(fit.start).toBeLessThan(range.from);
    expect(fit.start + fit.span).toBeGreaterThan(range.to);
    expect(fit.span).toBeLessThan((range.to - range.from) * 1.1);
    const live = followView({ start: 0, span: 5000 }, range.to, range);
    expect(live.span).toBe(5000);
    expect(live.start + LIVE_EDGE * live.span).toBeCloseTo(range.to);
    expect(fitView(null, 5000).span).toBeGreaterThan(0);
  });

  it("reveals an item only when it is out of view", () => {
    const view = { start: 1_020_000, span: 10_000 };
    expect(revealRange(view, 1_024_000, 1_025_000, range)).toBe(view);
    const moved = revealRange(view, 1_050_000, 1_050_100, range);
    expect(moved.span).toBe(view.span);
    expect(moved.start + moved.span / 2).toBeCloseTo(1_050_050);
    const long = revealRange(view, 1_001_000, 1_059_000, range);
    expect(long.start).toBeLessThan(1_001_000);
    expect(long.start + long.span).toBeGreaterThan(1_001_000);
  });

  it("turns wheel deltas into zoom factors: up zooms in, symmetric, bounded", () => {
    expect(wheelZoomFactor(-100)).toBeGreaterThan(1);
    expect(wheelZoomFactor(100)).toBeLessThan(1);
    expect(wheelZoomFactor(-100) * wheelZoomFactor(100)).toBeCloseTo(1);
    expect(wheelZoomFactor(-1e6)).toBe(wheelZoomFactor(-300));
    expect(wheelZoomFactor(-3, 1)).toBeCloseTo(wheelZoomFactor(-48));
  });

  it("clamps a view given with no data only in span", () => {
    expect(clampView({ start: 5, span: 0 }, null)).toEqual({ start: 5, span: MIN_SPAN_MS });
  });
});
