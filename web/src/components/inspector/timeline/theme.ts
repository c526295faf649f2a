// The swimlane's colours, read from app.css's custom properties (so the
// canvas follows light and dark like the rest of the app), and which colour
// each kind of bar and instant gets.

import type { Bar, Instant, LaneKind } from "../../../lib/wire-log/timeline.ts";

export interface TimelineTheme {
  bg: string;
  elev: string;
  sunken: string;
  border: string;
  borderStrong: string;
  text: string;
  muted: string;
  faint: string;
  accent: string;
  accentText: string;
  ok: string;
  warn: string;
  danger: string;
  demo: string;
  font: string;
}

const FALLBACK: TimelineTheme = {
  bg: "#f7f7f8",
  elev: "#ffffff",
  sunken: "#f0f0f2",
  border: "#e2e2e7",
  borderStrong: "#cfcfd6",
  text: "#1c1c21",
  muted: "#62626d",
  faint: "#686873",
  accent: "#3b5bdb",
  accentText: "#ffffff",
  ok: "#237a35",
  warn: "#a35300",
  danger: "#c92a2a",
  demo: "#7048e8",
  font: "system-ui, sans-serif",
};

export function readTheme(element: Element): TimelineTheme {
  const style = getComputedStyle(element);
  const get = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    bg: get("--bg", FALLBACK.bg),
    elev: get("--bg-elev", FALLBACK.elev),
    sunken: get("--bg-sunken", FALLBACK.sunken),
    border: get("--border", FALLBACK.border),
    borderStrong: get("--border-strong", FALLBACK.borderStrong),
    text: get("--text", FALLBACK.text),
    muted: get("--text-muted", FALLBACK.muted),
    faint: get("--text-faint", FALLBACK.faint),
    accent: get("--accent", FALLBACK.accent),
    accentText: get("--accent-text", FALLBACK.accentText),
    ok: get("--ok", FALLBACK.ok),
    warn: get("--warn", FALLBACK.warn),
    danger: get("--danger", FALLBACK.danger),
    demo: get("--demo", FALLBACK.demo),
    font: get("--font-sans", FALLBACK.font),
  };
}

/** How a bar is painted: "frame" bars (run, agent, turn…) are tinted outlines that others sit in, "solid" ones are filled. */
export interface BarStyle {
  color: string;
  solid: boolean;
  /** Which style wins a pixel column shared by thin bars (higher wins); 1 … 12. */
  rank: number;
}

interface StyleTable {
  byRank: BarStyle[];
  run: BarStyle;
  agent: BarStyle;
  turn: BarStyle;
  retry: BarStyle;
  compaction: BarStyle;
  assistant: BarStyle;
  user: BarStyle;
  system: BarStyle;
  otherMessage: BarStyle;
  tool: BarStyle;
  toolError: BarStyle;
  dialog: BarStyle;
}

// One table per theme: the draw loop asks for a style per bar and must not allocate.
const tables = new WeakMap<TimelineTheme, StyleTable>();

function styleTable(theme: TimelineTheme): StyleTable {
  let table = tables.get(theme);
  if (table === undefined) {
    const byRank: BarStyle[] = [{ color: theme.text, solid: true, rank: 0 }];
    // Ranked from least to most telling when thin bars share a pixel.
    const make = (color: string, solid: boolean): BarStyle => {
      const style = { color, solid, rank: byRank.length };
      byRank.push(style);
      return style;
    };
    const run = make(theme.faint, false);
    const turn = make(theme.muted, false);
    const agent = make(theme.accent, false);
    const compaction = make(theme.demo, false);
    const retry = make(theme.warn, false);
    const system = make(theme.demo, true);
    const user = make(theme.ok, true);
    const otherMessage = make(theme.muted, true);
    const assistant = make(theme.accent, true);
    const dialog = make(theme.demo, true);
    const tool = make(theme.warn, true);
    const toolError = make(theme.danger, true);
    table = { byRank, run, agent, turn, retry, compaction, assistant, user, system, otherMessage, tool, toolError, dialog };
    tables.set(theme, table);
  }
  return table;
}

export function barStyle(bar: Bar, theme: TimelineTheme): BarStyle {
  const table = styleTable(theme);
  switch (bar.kind) {
    case "message":
      return bar.role === "assistant" ? table.assistant : bar.role === "user" ? table.user : bar.role === "system" ? table.system : table.otherMessage;
    case "tool":
      return bar.isError === true ? table.toolError : table.tool;
    default:
      return table[bar.kind];
  }
}

export function styleOfRank(theme: TimelineTheme, rank: number): BarStyle {
  return styleTable(theme).byRank[rank] ?? styleTable(theme).byRank[0]!;
}

export function instantColor(instant: Instant, laneKind: LaneKind, theme: TimelineTheme): string {
  switch (laneKind) {
    case "browser":
      return theme.accent;
    case "relay":
      return instant.kind === "error" || instant.kind === "child_exited" ? theme.danger : theme.muted;
    case "stderr":
      return theme.danger;
    case "extension-ui":
      return theme.demo;
    case "pi":
      if (instant.kind === "response") return instant.label.endsWith("✗") ? theme.danger : theme.ok;
      return instant.kind.startsWith("auto_retry") ? theme.warn : theme.muted;
  }
}
