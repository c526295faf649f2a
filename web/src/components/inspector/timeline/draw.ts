// One frame of the swimlane on a canvas. Asks the timeline model only for
// what intersects the visible window (visibleBars / visibleInstants), so a
// frame costs O(visible items) however long the recording is; bars under
// 2 px and instants closer than 2 px share one mark per pixel column.
// Records what it drew (for hit testing and for the accessible overlay).

import { visibleBars, visibleInstants, type Bar, type Instant, type LaneKind, type TimelineModel } from "../../../lib/wire-log/timeline.ts";
import { densityBins, maxBin } from "../../../lib/inspector/delta-density.ts";
import { addHitRect, clearHitRects, type HitRects } from "../../../lib/inspector/hit-test.ts";
import type { Axis } from "../../../lib/inspector/time-axis.ts";
import { rowKey, type PlotLayout, type PlotRow } from "../../../lib/inspector/timeline-layout.ts";
import { barCaptions } from "../../../lib/inspector/timeline-words.ts";
import type { Viewport } from "../../../lib/inspector/viewport.ts";
import { barStyle, instantColor, styleOfRank, type TimelineTheme } from "./theme.ts";

export type TimelineItem = Bar | Instant;

export function isBar(item: TimelineItem): item is Bar {
  return "startSeq" in item;
}

export interface FrameInput {
  ctx: CanvasRenderingContext2D;
  /** CSS pixels. */
  width: number;
  height: number;
  dpr: number;
  view: Viewport;
  layout: PlotLayout;
  model: TimelineModel;
  now: number;
  live: boolean;
  axis: Axis;
  theme: TimelineTheme;
  selected: TimelineItem | null;
  hovered: TimelineItem | null;
  /** Filled with what was drawn. */
  hits: HitRects<TimelineItem>;
  /** Row key → slots needed; raised when a bar sits in a slot the layout has no room for. */
  slots: Map<string, number>;
}

export interface FrameResult {
  bars: number;
  instants: number;
  /** A row needs more slots than the layout gave it: lay out again. */
  relayout: boolean;
  /** A running bar is in view (it grows with time). */
  openInView: boolean;
}

const BAR_PAD = 2;
const TEXT_MIN_PX = 28;
const DENSITY_MIN_PX = 8;
const DENSITY_H = 3;

let densityBuffer = new Uint16Array(512);

export function drawFrame(input: FrameInput): FrameResult {
  const { ctx, width, height, dpr, view, layout, model, now, theme, hits } = input;
  const snap = (v: number) => Math.round(v * dpr) / dpr;
  const scale = width / view.span;
  const from = view.start;
  const to = view.start + view.span;

  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  clearHitRects(hits);

  // Lane bands: every other lane slightly sunken, so rows read as groups.
  let laneIndex = -1;
  let bandStart = 0;
  for (let i = 0; i < layout.rows.length; i++) {
    const row = layout.rows[i]!;
    if (row.firstOfLane) {
      laneIndex++;
      bandStart = row.y;
    }
    const next = layout.rows[i + 1];
    if (next === undefined || next.firstOfLane) {
      if (laneIndex % 2 === 1) {
        ctx.fillStyle = theme.sunken;
        ctx.fillRect(0, bandStart - 3, width, row.y + row.height - bandStart + 6);
      }
    }
  }

  // Grid at the axis ticks.
  ctx.fillStyle = theme.border;
  for (const tick of input.axis.ticks) ctx.fillRect(snap(tick.x), 0, 1 / dpr, height);

  // Bars.
  const bars = visibleBars(model, from, to);
  let relayout = false;
  let openInView = false;
  setTextStyle(ctx, theme);
  // Thin bars (under 2 px) are not drawn one by one: each marks the pixel
  // columns it covers in its row and slot (the most telling kind wins a
  // column: an error over a tool over a message …), and each run of equal
  // columns is then one rectangle. A zoomed-out frame thus does a few
  // comparisons per bar and at most one fill per run of columns; the first
  // bar in a column is its hit target.
  const columns = width + 2;
  const touched: Raster[] = [];

  // Bars come row by row: look the row up only when it changes.
  let rowLane = "";
  let rowName = "";
  let row: PlotRow | undefined;
  let rowIndex = -1;
  let rowSlots = 1;
  let rowKeyText = "";
  const rowRasters: Raster[] = [];
  for (const bar of bars) {
    if (bar.lane !== rowLane || bar.row !== rowName) {
      rowLane = bar.lane;
      rowName = bar.row;
      rowKeyText = rowKey(bar.lane, bar.row);
      row = layout.byKey.get(rowKeyText);
      rowIndex = row === undefined ? -1 : layout.rows.indexOf(row);
      rowSlots = input.slots.get(rowKeyText) ?? 1;
      rowRasters.length = 0;
    }
    if (row === undefined) continue;
    if (bar.slot + 1 > rowSlots) {
      rowSlots = bar.slot + 1;
      input.slots.set(rowKeyText, rowSlots);
      relayout = true;
    }
    if (bar.slot >= row.slots) continue;
    const open = bar.end === null;
    if (open) openInView = true;
    const end = open ? Math.max(now, bar.start) : bar.end!;
    const x0 = Math.max(-4, (bar.start - from) * scale);
    const x1 = Math.min(width + 4, (end - from) * scale);
    const w = x1 - x0;
    const style = barStyle(bar, theme);
    const slotH = row.height / row.slots;
    const y = row.y + bar.slot * slotH + BAR_PAD / 2;
    const h = slotH - BAR_PAD;

    if (w < 2 && !open && bar !== input.selected) {
      const raster = (rowRasters[bar.slot] ??= rasterFor(rowIndex * 64 + Math.min(bar.slot, 63), columns, touched, y, h));
      const c0 = Math.min(columns - 1, Math.max(0, Math.floor(x0)));
      const c1 = Math.min(columns - 1, Math.max(c0, Math.ceil(x1) - 1));
      const cells = raster.cells;
      if (cells[c0] === 0) addHitRect(hits, bar, x0, y, Math.max(0, w), h);
      for (let c = c0; c <= c1; c++) if (cells[c]! < style.rank) cells[c] = style.rank;
      continue;
    }
    addHitRect(hits, bar, x0, y, w, h);
    drawBar(ctx, bar, style.color, style.solid, snap(x0), y, Math.max(snap(x1) - snap(x0), 1 / dpr), h, open, dpr, theme, now, width);
  }
  for (const raster of touched) {
    const cells = raster.cells;
    let c = 0;
    while (c < columns) {
      const rank = cells[c]!;
      if (rank === 0) {
        c++;
        continue;
      }
      let e = c + 1;
      while (e < columns && cells[e] === rank) e++;
      const style = styleOfRank(theme, rank);
      ctx.globalAlpha = style.solid ? 0.85 : 0.45;
      ctx.fillStyle = style.color;
      ctx.fillRect(c, raster.y, e - c, raster.h);
      c = e;
    }
    cells.fill(0, 0, columns);
    raster.used = false;
  }
  ctx.globalAlpha = 1;

  // Instants: a tick each, one per pixel column and row.
  const instants = visibleInstants(model, from, to);
  let lastLane = "";
  let lastX = -Infinity;
  let laneKind: LaneKind = "pi";
  let rowY = 0;
  let rowH = 0;
  for (const instant of instants) {
    if (instant.lane !== lastLane) {
      const row = layout.byKey.get(rowKey(instant.lane, null));
      lastLane = instant.lane;
      lastX = -Infinity;
      if (row === undefined) {
        rowH = 0;
        continue;
      }
      laneKind = row.laneKind;
      rowY = row.y;
      rowH = row.height;
    }
    if (rowH === 0) continue;
    const x = snap((instant.start - from) * scale);
    if (x - lastX < 2 && instant !== input.selected) continue;
    lastX = x;
    addHitRect(hits, instant, x - 1, rowY + 2, 3, rowH - 4, 1);
    ctx.fillStyle = instantColor(instant, laneKind, theme);
    ctx.fillRect(x - 1, rowY + 3, 2, rowH - 6);
    ctx.fillRect(x - 2.5, rowY + 3, 5, 3);
  }

  // Now, while something runs.
  if (input.live) {
    const x = snap((now - from) * scale);
    if (x >= 0 && x <= width) {
      ctx.fillStyle = theme.accent;
      ctx.globalAlpha = 0.6;
      for (let y = 0; y < height; y += 6) ctx.fillRect(x, y, 1, 3);
      ctx.globalAlpha = 1;
    }
  }

  // Hover and selection rings on top of everything.
  for (const [item, strong] of [
    [input.hovered, false],
    [input.selected, true],
  ] as const) {
    if (item === null) continue;
    const rect = rectOf(hits, item);
    if (rect === null) continue;
    const pad = strong ? 2 : 1;
    const lineWidth = strong ? 2 : 1;
    ctx.strokeStyle = strong ? theme.text : theme.muted;
    ctx.lineWidth = lineWidth;
    const off = ((lineWidth * dpr) % 2) / 2 / dpr;
    const w = Math.max(rect.w, 3);
    ctx.strokeRect(snap(rect.x - pad) + off, snap(rect.y - pad) + off, snap(w + 2 * pad), snap(rect.h + 2 * pad));
  }

  return { bars: bars.length, instants: instants.length, relayout, openInView };
}

// Setting a font, and drawing or measuring text, make the browser bring the
// canvas element's style up to date first (a pending restyle of the page is
// then paid inside the frame: the view publishes its DOM right after a draw
// for that reason). The font and direction are set only when they change
// (resizing a canvas resets its context, hence the size in the key).
const fontKeys = new WeakMap<CanvasRenderingContext2D, string>();

function setTextStyle(ctx: CanvasRenderingContext2D, theme: TimelineTheme): void {
  const font = `11px ${theme.font}`;
  const key = `${ctx.canvas.width}x${ctx.canvas.height}|${font}`;
  if (fontKeys.get(ctx) === key) return;
  fontKeys.set(ctx, key);
  ctx.direction = "ltr";
  ctx.font = font;
  ctx.textBaseline = "middle";
}

interface Raster {
  cells: Uint8Array;
  y: number;
  h: number;
  used: boolean;
}

/** Column rasters by row and slot, kept between frames (zeroed after use). */
const rasters = new Map<number, Raster>();

function rasterFor(key: number, columns: number, touched: Raster[], y: number, h: number): Raster {
  let raster = rasters.get(key);
  if (raster === undefined || raster.cells.length < columns) {
    raster = { cells: new Uint8Array(Math.max(columns, 256)), y, h, used: false };
    rasters.set(key, raster);
  }
  if (!raster.used) {
    raster.used = true;
    raster.y = y;
    raster.h = h;
    touched.push(raster);
  }
  return raster;
}

/** Widths of captions already measured (most bars keep theirs from frame to frame). */
const widths = new Map<string, number>();
let widthsFont = "";

function textWidth(ctx: CanvasRenderingContext2D, text: string): number {
  if (widthsFont !== ctx.font || widths.size > 4000) {
    widths.clear();
    widthsFont = ctx.font;
  }
  let width = widths.get(text);
  if (width === undefined) {
    width = ctx.measureText(text).width;
    widths.set(text, width);
  }
  return width;
}

/** Where an item was drawn this frame, or null. */
export function rectOf(hits: HitRects<TimelineItem>, item: TimelineItem): { x: number; y: number; w: number; h: number } | null {
  for (let i = hits.length - 1; i >= 0; i--) {
    if (hits.items[i] === item) return { x: hits.x[i]!, y: hits.y[i]!, w: hits.w[i]!, h: hits.h[i]! };
  }
  return null;
}

function drawBar(
  ctx: CanvasRenderingContext2D,
  bar: Bar,
  color: string,
  solid: boolean,
  x: number,
  y: number,
  w: number,
  h: number,
  open: boolean,
  dpr: number,
  theme: TimelineTheme,
  now: number,
  plotWidth: number,
): void {
  const faded = bar.replayed === true ? 0.6 : 1;
  ctx.fillStyle = color;
  ctx.globalAlpha = (solid ? 0.88 : 0.14) * faded;
  ctx.fillRect(x, y, w, h);
  ctx.globalAlpha = (solid ? 1 : 0.7) * faded;
  // Outline (hairline): frames get all four sides, solid bars only a darker start edge.
  const line = 1 / dpr;
  if (!solid) {
    ctx.fillRect(x, y, w, line);
    ctx.fillRect(x, y + h - line, w, line);
    ctx.fillRect(x, y, line, h);
    if (!open) ctx.fillRect(x + w - line, y, line, h);
  } else if (w > 3) {
    ctx.fillStyle = theme.text;
    ctx.globalAlpha = 0.25 * faded;
    ctx.fillRect(x, y, line * 2, h);
  }
  // A running bar: a striped growing end.
  if (open && w > 2) {
    ctx.fillStyle = solid ? theme.accentText : color;
    ctx.globalAlpha = 0.55;
    const edge = Math.min(10, w);
    for (let i = 0; i < edge; i += 3) ctx.fillRect(x + w - edge + i, y, 1.5, h);
  }
  ctx.globalAlpha = 1;

  // Delta density strip along the bottom of a message bar.
  const times = bar.deltaTimes;
  if (times !== undefined && times.length > 0 && w >= DENSITY_MIN_PX) {
    // Bins a few px wide with a few samples each: a smooth strip, not specks.
    const bins = Math.min(512, Math.max(1, Math.floor(w / 3), 1), Math.max(1, Math.floor(times.length / 3)));
    if (densityBuffer.length < bins) densityBuffer = new Uint16Array(bins);
    const end = bar.end ?? now;
    const counts = densityBins(times, bar.start, end, bins, densityBuffer);
    const max = maxBin(counts);
    if (max > 0) {
      ctx.fillStyle = solid ? theme.accentText : color;
      const binW = w / bins;
      for (let i = 0; i < bins; i++) {
        const c = counts[i]!;
        if (c === 0) continue;
        ctx.globalAlpha = 0.3 + 0.7 * (c / max);
        ctx.fillRect(x + i * binW, y + h - DENSITY_H - 1, Math.max(binW, 1 / dpr), DENSITY_H);
      }
      ctx.globalAlpha = 1;
    }
  }

  // Caption: name and duration, or whatever part fits.
  if (w >= TEXT_MIN_PX) {
    const visibleX = Math.max(x, 0);
    const room = Math.min(x + w, plotWidth) - visibleX - 8;
    if (room > 14) {
      for (const caption of barCaptions(bar, now)) {
        if (textWidth(ctx, caption) <= room) {
          ctx.fillStyle = solid ? theme.accentText : theme.text;
          ctx.fillText(caption, visibleX + 5, y + (times !== undefined && w >= DENSITY_MIN_PX ? h / 2 - 1 : h / 2) + 0.5);
          break;
        }
      }
    }
  }
}

/** The time axis: tick labels along the bottom of a strip. */
export function drawAxis(ctx: CanvasRenderingContext2D, width: number, height: number, dpr: number, axis: Axis, theme: TimelineTheme, nowX: number | null): void {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.fillStyle = theme.border;
  ctx.fillRect(0, height - 1 / dpr, width, 1 / dpr);
  setTextStyle(ctx, theme);
  ctx.fillStyle = theme.muted;
  for (const tick of axis.ticks) {
    const x = Math.round(tick.x * dpr) / dpr;
    ctx.fillRect(x, height - 5, 1 / dpr, 5);
    ctx.fillText(tick.label, x + 3, height / 2 - 1);
  }
  if (nowX !== null && nowX >= 0 && nowX <= width) {
    ctx.fillStyle = theme.accent;
    ctx.beginPath();
    ctx.moveTo(nowX - 4, height - 6);
    ctx.lineTo(nowX + 4, height - 6);
    ctx.lineTo(nowX, height - 1);
    ctx.fill();
  }
}
