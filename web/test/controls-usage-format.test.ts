import { describe, expect, test } from "vitest";
import type { Usage } from "@pier/protocol";
import { contextMeter, formatContextWindow, formatCost, formatModelCost, formatPercent, formatRate, formatTokenCount, usageContextTokens } from "../src/lib/controls/usage-format.ts";

const usage = (over: Partial<Usage> = {}): Usage => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  ...over,
});

describe("token and window formatting", () => {
  test("counts read as k / M with one decimal only while it matters", () => {
    expect(formatTokenCount(0)).toBe("0");
    expect(formatTokenCount(950)).toBe("950");
    expect(formatTokenCount(1000)).toBe("1k");
    expect(formatTokenCount(12_345)).toBe("12.3k");
    expect(formatTokenCount(128_000)).toBe("128k");
    expect(formatTokenCount(1_200_000)).toBe("1.2M");
    expect(formatTokenCount(Number.NaN)).toBe("?");
    expect(formatContextWindow(200_000)).toBe("200k");
    expect(formatContextWindow(1_000_000)).toBe("1M");
  });

  test("percent: tiny but non-zero is <1%, otherwise rounded", () => {
    expect(formatPercent(0)).toBe("0%");
    expect(formatPercent(0.3)).toBe("<1%");
    expect(formatPercent(12.6)).toBe("13%");
  });
});

describe("cost formatting", () => {
  test("session cost keeps small amounts visible and zero plain", () => {
    expect(formatCost(0)).toBe("$0.00");
    expect(formatCost(0.0042)).toBe("$0.0042");
    expect(formatCost(0.45)).toBe("$0.45");
    expect(formatCost(12.5)).toBe("$12.50");
    expect(formatCost(1234.4)).toBe("$1,234");
  });

  test("rates per Mtok drop trailing zeros; zero is free", () => {
    expect(formatRate(3)).toBe("$3");
    expect(formatRate(2.5)).toBe("$2.5");
    expect(formatRate(0.15)).toBe("$0.15");
    expect(formatRate(0.075)).toBe("$0.075");
    expect(formatRate(0)).toBe("free");
  });

  test("a model's price reads input / output per Mtok", () => {
    expect(formatModelCost({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 })).toBe("$3 in / $15 out per Mtok");
    expect(formatModelCost({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 })).toBe("free");
    expect(formatModelCost(undefined)).toBe("price unknown");
  });
});

describe("contextMeter", () => {
  test("from stats: tokens, window, percent and a tone", () => {
    const m = contextMeter({ contextUsage: { tokens: 60_000, contextWindow: 200_000, percent: 30 } });
    expect(m).toMatchObject({ tokens: 60_000, contextWindow: 200_000, percent: 30, tone: "ok", source: "stats" });
    expect(m.label).toBe("30% · 60k / 200k");
    expect(contextMeter({ contextUsage: { tokens: 150_000, contextWindow: 200_000, percent: 75 } }).tone).toBe("warn");
    expect(contextMeter({ contextUsage: { tokens: 190_000, contextWindow: 200_000, percent: 95 } }).tone).toBe("danger");
  });

  test("right after a compaction (null tokens) it is unknown, not 0", () => {
    const m = contextMeter({ contextUsage: { tokens: null, contextWindow: 128_000, percent: null } });
    expect(m.percent).toBeNull();
    expect(m.tokens).toBeNull();
    expect(m.tone).toBe("unknown");
    expect(m.label).toBe("unknown / 128k");
  });

  test("no stats or no context window: unknown", () => {
    expect(contextMeter(null)).toMatchObject({ percent: null, label: "unknown", source: "none" });
    expect(contextMeter({})).toMatchObject({ percent: null, source: "none" });
  });

  test("live usage wins while it has numbers; all-zero live usage falls back to stats", () => {
    const stats = { contextUsage: { tokens: null, contextWindow: 128_000, percent: null } };
    const live = contextMeter(stats, { usage: usage({ input: 9_000, output: 600, totalTokens: 9_600 }), contextWindow: 128_000 });
    expect(live).toMatchObject({ tokens: 9_600, source: "live", label: "8% · 9.6k / 128k" });
    const zeros = contextMeter(stats, { usage: usage(), contextWindow: 128_000 });
    expect(zeros).toMatchObject({ source: "stats", percent: null });
  });

  test("percent is clamped to 0..100", () => {
    expect(contextMeter({ contextUsage: { tokens: 300_000, contextWindow: 200_000, percent: 150 } }).percent).toBe(100);
  });

  test("usageContextTokens uses totalTokens, or the sum when a provider leaves it 0", () => {
    expect(usageContextTokens(usage({ input: 10, output: 5, cacheRead: 100, totalTokens: 115 }))).toBe(115);
    expect(usageContextTokens(usage({ input: 10, output: 5, cacheRead: 100, cacheWrite: 1 }))).toBe(116);
  });
});
