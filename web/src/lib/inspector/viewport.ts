// The time window a swimlane shows: `start` (ms since the epoch) and `span`
// (ms across the plot's width). Pure arithmetic, so zooming, panning and
// following the live edge can be tested without a canvas.
//
// Zoom keeps the time under the pointer where it was; pan is clamped so some
// data always stays in view (you cannot lose the timeline off an edge); the
// span is clamped between a couple of milliseconds (entry times are whole
// milliseconds) and a few times the whole recording.

export interface Viewport {
  /** Time at the plot's left edge, ms. */
  start: number;
  /** Time across the plot's width, ms (> 0). */
  span: number;
}

/** The data's time range: first entry … now (or the last entry). */
export interface TimeRange {
  from: number;
  to: number;
}

/** Narrowest window: entry times are whole milliseconds. */
export const MIN_SPAN_MS = 2;
/** Widest window when there is little or no data. */
export const MIN_MAX_SPAN_MS = 10_000;
/** How far past an edge of the data the view may go, as a share of the span. */
export const EDGE_SLACK = 0.9;
/** Where "now" sits while following live, as a share of the width from the left. */
export const LIVE_EDGE = 0.96;

export function timeToX(view: Viewport, width: number, t: number): number {
  return ((t - view.start) / view.span) * width;
}

export function xToTime(view: Viewport, width: number, x: number): number {
  return view.start + (x / width) * view.span;
}

export function viewEnd(view: Viewport): number {
  return view.start + view.span;
}

/** Widest sensible window for a range: a few times its length, at least MIN_MAX_SPAN_MS. */
export function maxSpan(range: TimeRange | null): number {
  if (range === null) return MIN_MAX_SPAN_MS;
  return Math.max(MIN_MAX_SPAN_MS, (range.to - range.from) * 4);
}

export function clampSpan(span: number, range: TimeRange | null): number {
  if (!Number.isFinite(span)) return maxSpan(range);
  return Math.min(maxSpan(range), Math.max(MIN_SPAN_MS, span));
}

/**
 * Keep some of the data in view: the left edge may go at most EDGE_SLACK of
 * the span before the first time, the right edge at most EDGE_SLACK past
 * the last.
 */
export function clampView(view: Viewport, range: TimeRange | null): Viewport {
  const span = clampSpan(view.span, range);
  if (range === null) return { start: view.start, span };
  const lowest = range.from - EDGE_SLACK * span;
  const highest = range.to - (1 - EDGE_SLACK) * span;
  const start = Math.min(Math.max(view.start, lowest), Math.max(lowest, highest));
  return { start, span };
}

/**
 * Zoom by `factor` (> 1 zooms in: the span shrinks) keeping the time at
 * `anchor` (0 = left edge … 1 = right edge) fixed.
 */
export function zoomAt(view: Viewport, factor: number, anchor: number, range: TimeRange | null): Viewport {
  const a = Math.min(1, Math.max(0, anchor));
  const pivot = view.start + a * view.span;
  const span = clampSpan(view.span / factor, range);
  return clampView({ start: pivot - a * span, span }, range);
}

/** Move the window by `deltaMs` (positive: later). */
export function panBy(view: Viewport, deltaMs: number, range: TimeRange | null): Viewport {
  return clampView({ start: view.start + deltaMs, span: view.span }, range);
}

/** Move the window by a number of pixels of a plot `width` wide (positive: later). */
export function panByPixels(view: Viewport, dx: number, width: number, range: TimeRange | null): Viewport {
  return panBy(view, (dx / Math.max(1, width)) * view.span, range);
}

/** The whole range with a little air on both sides. */
export function fitView(range: TimeRange | null, now: number): Viewport {
  if (range === null) return { start: now - MIN_MAX_SPAN_MS * LIVE_EDGE, span: MIN_MAX_SPAN_MS };
  const length = Math.max(range.to - range.from, MIN_SPAN_MS * 10);
  const span = clampSpan(length / (LIVE_EDGE - 0.02), range);
  return { start: range.from - span * 0.02, span };
}

/** Slide (keeping the span) so `now` sits at the live edge. */
export function followView(view: Viewport, now: number, range: TimeRange | null): Viewport {
  const span = clampSpan(view.span, range);
  return { start: now - span * LIVE_EDGE, span };
}

/**
 * Bring [from, to] into view: unchanged if it is already inside (with a
 * small margin), else centred; an item longer than the window is shown
 * from its start.
 */
export function revealRange(view: Viewport, from: number, to: number, range: TimeRange | null): Viewport {
  const margin = view.span * 0.05;
  if (from >= view.start + margin && to <= viewEnd(view) - margin) return view;
  if (to - from > view.span * 0.9) return clampView({ start: from - margin, span: view.span }, range);
  return clampView({ start: (from + to) / 2 - view.span / 2, span: view.span }, range);
}

/** Zoom factor for one wheel event (deltaY in pixels; negative zooms in). */
export function wheelZoomFactor(deltaY: number, deltaMode = 0): number {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  // Trackpad pinches come as many small deltas, mouse wheels as ±100.
  return Math.exp(-Math.max(-300, Math.min(300, pixels)) * 0.0025);
}
