// Pure formatting of token counts, costs and context-window usage for the
// controls (usage meter, model picker). No Svelte, no DOM: tested in Node.

import type { ContextUsage, ModelCost, SessionStats, Usage } from "@pier/protocol";

/** 950 → "950", 12_345 → "12.3k", 1_200_000 → "1.2M". */
export function formatTokenCount(n: number): string {
  if (!Number.isFinite(n)) return "?";
  const abs = Math.abs(n);
  if (abs >= 1_000_000) return `${trimZero((n / 1_000_000).toFixed(abs >= 10_000_000 ? 0 : 1))}M`;
  if (abs >= 1_000) return `${trimZero((n / 1_000).toFixed(abs >= 100_000 ? 0 : 1))}k`;
  return String(Math.round(n));
}

/** A context window size: 128000 → "128k", 1_000_000 → "1M". */
export function formatContextWindow(n: number): string {
  return formatTokenCount(n);
}

function trimZero(s: string): string {
  return s.endsWith(".0") ? s.slice(0, -2) : s;
}

/**
 * A session cost in US dollars. Small amounts keep enough digits to be
 * non-zero ("$0.0042"); zero is "$0.00".
 */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd)) return "$?";
  if (usd === 0) return "$0.00";
  const abs = Math.abs(usd);
  if (abs < 0.01) return `$${usd.toFixed(4)}`;
  if (abs < 100) return `$${usd.toFixed(2)}`;
  return `$${Math.round(usd).toLocaleString("en-US")}`;
}

/** A price per million tokens: 3 → "$3", 0.15 → "$0.15", 0 → "free". */
export function formatRate(perMtok: number): string {
  if (!Number.isFinite(perMtok)) return "?";
  if (perMtok === 0) return "free";
  // Number() drops trailing zeros: 3 → "3", 2.50 → "2.5", 0.075 → "0.075".
  return `$${Number(perMtok.toFixed(perMtok < 0.1 ? 4 : 2))}`;
}

/** "$3 / $15 per Mtok", or "free" when both input and output cost nothing. */
export function formatModelCost(cost: ModelCost | undefined): string {
  if (!cost) return "price unknown";
  if (cost.input === 0 && cost.output === 0) return "free";
  return `${formatRate(cost.input)} in / ${formatRate(cost.output)} out per Mtok`;
}

export type MeterTone = "ok" | "warn" | "danger" | "unknown";

/** What the context-window meter shows. `percent` is null when the usage is unknown. */
export interface ContextMeter {
  tokens: number | null;
  contextWindow: number | null;
  percent: number | null;
  /** "12% · 15.4k / 128k", or "unknown / 128k". */
  label: string;
  tone: MeterTone;
  /** Where the numbers come from: the last stats, or the response streaming right now. */
  source: "stats" | "live" | "none";
}

/** Tokens a response's usage puts in the context window (as pi counts it). */
export function usageContextTokens(usage: Usage): number {
  const sum = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  return usage.totalTokens > 0 ? usage.totalTokens : sum;
}

function tone(percent: number | null): MeterTone {
  if (percent === null) return "unknown";
  if (percent >= 90) return "danger";
  if (percent >= 70) return "warn";
  return "ok";
}

/**
 * The context meter, from get_session_stats' `contextUsage` or, while a
 * response streams, from its live usage. Unknown (right after a compaction,
 * or no stats yet) is never shown as 0.
 */
export function contextMeter(stats: Pick<SessionStats, "contextUsage"> | null, live: { usage: Usage; contextWindow: number } | null = null): ContextMeter {
  if (live && live.contextWindow > 0) {
    const tokens = usageContextTokens(live.usage);
    if (tokens > 0) return meter(tokens, live.contextWindow, (tokens / live.contextWindow) * 100, "live");
  }
  const usage: ContextUsage | undefined = stats?.contextUsage;
  if (!usage) return { tokens: null, contextWindow: null, percent: null, label: "unknown", tone: "unknown", source: "none" };
  return meter(usage.tokens, usage.contextWindow, usage.percent, "stats");
}

function meter(tokens: number | null, contextWindow: number, percent: number | null, source: ContextMeter["source"]): ContextMeter {
  const known = tokens !== null && percent !== null && Number.isFinite(percent);
  const pct = known ? Math.max(0, Math.min(100, percent!)) : null;
  const windowText = formatContextWindow(contextWindow);
  const label = known ? `${formatPercent(pct!)} · ${formatTokenCount(tokens!)} / ${windowText}` : `unknown / ${windowText}`;
  return { tokens: known ? tokens : null, contextWindow, percent: pct, label, tone: tone(pct), source };
}

/** 0.4 → "<1%", 12.6 → "13%". */
export function formatPercent(percent: number): string {
  if (percent > 0 && percent < 1) return "<1%";
  return `${Math.round(percent)}%`;
}
