import { describe, expect, it } from "vitest";
import { applyTimeline, createTimeline, listLanes, visibleBars, type Bar, type Instant } from "../../src/lib/wire-log/timeline.ts";
import { densityBins, maxBin } from "../../src/lib/inspector/delta-density.ts";
import { MIN_TARGET_PX, addHitRect, clearHitRects, createHitRects, hitTest } from "../../src/lib/inspector/hit-test.ts";
import { DEFAULT_METRICS, layoutRows, rowKey } from "../../src/lib/inspector/timeline-layout.ts";
import { barCaptions, barName, barWords, deltaWords, instantWords } from "../../src/lib/inspector/timeline-words.ts";
import { fixtureEntries } from "../wire-log/support.ts";

function modelOf(name: string) {
  const model = createTimeline();
  for (const e of fixtureEntries(name)) applyTimeline(model, e);
  return model;
}

describe("layout", () => {
  it("gives every lane an events row and one row per bar row, top to bottom", () => {
    const model = modelOf("nested-tools");
    const lanes = listLanes(model);
    const layout = layoutRows(lanes, new Map());
    const pi = layout.rows.filter((r) => r.laneId === "pi");
    expect(pi.map((r) => r.row)).toEqual([null, ...lanes.find((l) => l.id === "pi")!.rows]);
    expect(pi[0]!.label).toBe("");
    expect(pi[1]!.label).toBe("run");
    expect(pi[0]!.firstOfLane).toBe(true);
    const browser = layout.rows.find((r) => r.laneKind === "browser")!;
    expect(browser.label).toBe("");
    expect(browser.laneLabel).toBe("this browser");
    for (let i = 1; i < layout.rows.length; i++) expect(layout.rows[i]!.y).toBeGreaterThanOrEqual(layout.rows[i - 1]!.y + layout.rows[i - 1]!.height);
    expect(layout.height).toBeGreaterThan(layout.rows.at(-1)!.y);
    expect(layout.byKey.get(rowKey("pi", "message"))!.row).toBe("message");
  });

  it("makes a row as tall as the slots it has needed", () => {
    const model = modelOf("nested-tools");
    const lanes = listLanes(model);
    const one = layoutRows(lanes, new Map());
    const three = layoutRows(lanes, new Map([[rowKey("pi", "tool"), 3]]));
    const tool1 = one.byKey.get(rowKey("pi", "tool"))!;
    const tool3 = three.byKey.get(rowKey("pi", "tool"))!;
    expect(tool3.slots).toBe(3);
    expect(tool3.height).toBe(3 * DEFAULT_METRICS.slotHeight);
    expect(three.height - one.height).toBe(tool3.height - tool1.height);
  });
});

describe("hit testing", () => {
  const rects = createHitRects<string>();

  it("finds the item under a point, preferring instants and the narrowest bar", () => {
    clearHitRects(rects);
    addHitRect(rects, "turn", 0, 0, 400, 20);
    addHitRect(rects, "message", 100, 0, 50, 20);
    addHitRect(rects, "instant", 120, 0, 1, 20, 1);
    expect(hitTest(rects, 10, 10)).toBe("turn");
    expect(hitTest(rects, 140, 10)).toBe("message");
    expect(hitTest(rects, 121, 10)).toBe("instant");
    expect(hitTest(rects, 10, 25)).toBeNull();
    expect(hitTest(rects, 500, 10)).toBeNull();
  });

  it("widens thin targets to a clickable size and picks the closest of several", () => {
    clearHitRects(rects);
    addHitRect(rects, "a", 100, 0, 0.2, 10);
    addHitRect(rects, "b", 103, 0, 0.2, 10);
    expect(hitTest(rects, 100 + MIN_TARGET_PX / 2 - 0.5, 5)).not.toBeNull();
    expect(hitTest(rects, 99, 5)).toBe("a");
    expect(hitTest(rects, 103.5, 5)).toBe("b");
    expect(hitTest(rects, 120, 5)).toBeNull();
  });

  it("forgets the last frame's rectangles", () => {
    clearHitRects(rects);
    expect(hitTest(rects, 100, 5)).toBeNull();
  });
});

describe("words", () => {
  const bar = (extra: Partial<Bar>): Bar => ({
    id: 1,
    lane: "pi",
    row: "message",
    kind: "message",
    label: "assistant",
    start: 1000,
    end: 2200,
    startSeq: 5,
    endSeq: 9,
    endedBy: null,
    parentId: null,
    depth: 3,
    index: 0,
    slot: 0,
    ...extra,
  });

  it("names a message bar with its role, duration and deltas", () => {
    const b = bar({ role: "assistant", deltas: { text: 1204, thinking: 30, toolcall: 0, other: 4 } });
    expect(barWords(b, 0)).toBe("message assistant, 1.2 s, 1,204 text deltas, 30 thinking deltas");
    expect(deltaWords(bar({ deltas: { text: 1, thinking: 0, toolcall: 0, other: 0 } }))).toBe("1 text delta");
    expect(deltaWords(bar({ deltas: { text: 0, thinking: 0, toolcall: 0, other: 2 } }))).toBeNull();
  });

  it("names other bars by kind without repeating it", () => {
    expect(barName(bar({ kind: "turn", label: "turn 2" }))).toBe("turn 2");
    expect(barName(bar({ kind: "run", label: "run (aborted)" }))).toBe("run (aborted)");
    expect(barName(bar({ kind: "tool", label: "bash" }))).toBe("tool bash");
    expect(barName(bar({ kind: "dialog", label: "confirm: Delete?" }))).toBe("dialog confirm: Delete?");
    expect(barWords(bar({ kind: "tool", label: "bash", isError: true, updates: 3 }), 0)).toBe("tool bash, 1.2 s, failed, 3 updates");
    expect(barWords(bar({ kind: "dialog", label: "input", endedBy: "timeout", replayed: true }), 0)).toBe("dialog input, 1.2 s, timed out, replayed");
  });

  it("counts a running bar up to now", () => {
    const open = bar({ end: null, endSeq: null, kind: "agent", label: "agent" });
    expect(barWords(open, 4500)).toBe("agent, running 3.5 s");
    expect(barCaptions(open, 4500)).toEqual(["agent · running 3.5 s", "running 3.5 s", "agent"]);
    expect(barCaptions(bar({ kind: "tool", label: "bash" }), 0)[0]).toBe("bash · 1.2 s");
  });

  it("names instants with their time after the origin", () => {
    const instant: Instant = { id: 2, lane: "pi", kind: "response", label: "get_state ✓", start: 2250, end: 2250, seq: 7, index: 0 };
    expect(instantWords(instant, 1000)).toBe("response get_state ✓, at 1.250 s");
    expect(instantWords({ ...instant, kind: "prompt", label: "prompt" }, 1000)).toBe("prompt, at 1.250 s");
  });

  it("names every bar of a real transcript", () => {
    const model = modelOf("text-with-thinking");
    const bars = visibleBars(model, -Infinity, Infinity);
    const words = bars.map((b) => barWords(b, model.lastAt));
    expect(words.some((w) => /^message assistant, [\d.]+ (ms|s), [\d,]+ text deltas, [\d,]+ thinking deltas$/.test(w))).toBe(true);
    expect(words).toContain(words.find((w) => w.startsWith("message system prompt")));
  });
});

describe("delta density", () => {
  it("counts sample times per bin over the bar", () => {
    const bins = densityBins([0, 1, 2, 9, 10, 11, -1], 0, 10, 5);
    expect([...bins]).toEqual([2, 1, 0, 0, 2]);
    expect(maxBin(bins)).toBe(2);
  });

  it("reuses a buffer and handles zero-length bars", () => {
    const buffer = new Uint16Array(64);
    const bins = densityBins([5, 5, 5], 5, 5, 3, buffer);
    expect([...bins]).toEqual([3, 0, 0]);
    expect(bins.buffer).toBe(buffer.buffer);
  });
});
