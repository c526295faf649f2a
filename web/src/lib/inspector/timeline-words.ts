// The words for a bar or an instant of the swimlane: its accessible name
// ("message assistant, 1.2 s, 1,204 text deltas"), the short text painted
// on it when it is wide enough, and the longer tooltip.

import type { Bar, BarEndCause, Instant } from "../wire-log/timeline.ts";
import { formatDuration, formatOffset } from "./time-axis.ts";

const count = (n: number): string => n.toLocaleString("en-US");

/** "message assistant", "tool bash", "turn 2", "run (aborted)", "dialog confirm: Delete?". */
export function barName(bar: Bar): string {
  return bar.label === bar.kind || bar.label.startsWith(`${bar.kind} `) ? bar.label : `${bar.kind} ${bar.label}`;
}

/** The bar's length in words; a running bar counts up to `now`. */
export function barDuration(bar: Bar, now: number): string {
  return bar.end === null ? `running ${formatDuration(Math.max(0, now - bar.start))}` : formatDuration(bar.end - bar.start);
}

const ENDINGS: Partial<Record<BarEndCause, string>> = {
  timeout: "timed out",
  "pi-exited": "cut short: pi exited",
  reconnected: "cut short: reconnected",
  superseded: "cut short: superseded",
  "retry-started": "ended: retry started",
  answered: "answered",
};

/** Deltas of a message bar, most first: "1,204 text deltas, 30 thinking deltas". */
export function deltaWords(bar: Bar): string | null {
  const d = bar.deltas;
  if (d === undefined) return null;
  const parts: string[] = [];
  const add = (n: number, what: string) => {
    if (n > 0) parts.push(`${count(n)} ${what} ${n === 1 ? "delta" : "deltas"}`);
  };
  add(d.text, "text");
  add(d.thinking, "thinking");
  add(d.toolcall, "tool-call");
  return parts.length === 0 ? null : parts.join(", ");
}

/** The accessible name of a bar. */
export function barWords(bar: Bar, now: number): string {
  const parts = [barName(bar), barDuration(bar, now)];
  const deltas = deltaWords(bar);
  if (deltas !== null) parts.push(deltas);
  if (bar.kind === "tool") {
    if (bar.isError === true) parts.push("failed");
    if ((bar.updates ?? 0) > 0) parts.push(`${count(bar.updates!)} ${bar.updates === 1 ? "update" : "updates"}`);
  }
  const ending = bar.endedBy === null ? undefined : ENDINGS[bar.endedBy];
  if (ending !== undefined) parts.push(ending);
  if (bar.replayed === true) parts.push("replayed");
  return parts.join(", ");
}

/**
 * What is painted on a bar, longest first (the caller draws the first that
 * fits): its label and duration, the duration, the label. The row already
 * says the kind, so "assistant · 1.2 s", not "message assistant · 1.2 s".
 */
export function barCaptions(bar: Bar, now: number): string[] {
  const duration = barDuration(bar, now);
  return [`${bar.label} · ${duration}`, duration, bar.label];
}

/** "response get_state ✓", "prompt", "stderr: warning …". */
export function instantName(instant: Instant): string {
  return instant.label === instant.kind || instant.label.startsWith(`${instant.kind} `) ? instant.label : `${instant.kind} ${instant.label}`;
}

/** The accessible name of an instant: its name and when, after `origin`. */
export function instantWords(instant: Instant, origin: number): string {
  return `${instantName(instant)}, at ${formatOffset(instant.start - origin, 1)}`;
}

/** Tooltip lines for a bar: name, times, pi's own measure, record numbers. */
export function barTooltip(bar: Bar, now: number, origin: number, clock: (ms: number) => string): string[] {
  const lines = [barWords(bar, now)];
  const end = bar.end === null ? "running" : `${formatOffset(bar.end - origin, 1)}`;
  lines.push(`${formatOffset(bar.start - origin, 1)} → ${end} (${clock(bar.start)})`);
  if (bar.durationMs !== undefined) lines.push(`pi measured ${formatDuration(bar.durationMs)}`);
  lines.push(`record #${bar.startSeq}${bar.endSeq === null ? "" : ` … #${bar.endSeq}`}`);
  return lines;
}

export function instantTooltip(instant: Instant, origin: number, clock: (ms: number) => string): string[] {
  return [instantName(instant), `${formatOffset(instant.start - origin, 1)} (${clock(instant.start)})`, `record #${instant.seq}`];
}
