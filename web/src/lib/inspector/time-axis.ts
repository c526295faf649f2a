// The time axis of the swimlane: tick positions with labels at any zoom,
// from single milliseconds to hours, and the words used for durations.
//
// Labels are offsets from an origin (the first record), because "2.5 s
// after it started" is what a person reading a protocol trace wants; the
// clock time of a single item is in its tooltip.

export interface AxisTick {
  /** Time, ms since the epoch. */
  t: number;
  /** Pixels from the plot's left edge. */
  x: number;
  label: string;
}

export interface Axis {
  /** Milliseconds between ticks. */
  step: number;
  ticks: AxisTick[];
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Tick steps a person counts in: 1-2-5 below a second, then clock-friendly ones. */
export const AXIS_STEPS: readonly number[] = [
  1,
  2,
  5,
  10,
  20,
  50,
  100,
  200,
  500,
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  30 * DAY,
  365 * DAY,
];

/** The smallest step that keeps ticks at least `minPx` apart. */
export function axisStep(span: number, width: number, minPx: number): number {
  const msPerPx = span / Math.max(1, width);
  const wanted = msPerPx * minPx;
  for (const step of AXIS_STEPS) if (step >= wanted) return step;
  return Math.ceil(wanted / (365 * DAY)) * 365 * DAY;
}

/**
 * Ticks for the window [start, start + span] drawn `width` pixels wide,
 * at least `minPx` apart, aligned to whole steps after `origin`.
 */
export function axisTicks(start: number, span: number, width: number, origin: number, minPx = 72): Axis {
  const step = axisStep(span, width, minPx);
  const ticks: AxisTick[] = [];
  if (!(span > 0) || !(width > 0)) return { step, ticks };
  const first = origin + Math.ceil((start - origin) / step) * step;
  const end = start + span;
  // Bounded: at most width / minPx + 2 ticks.
  for (let i = 0, t = first; t <= end && i < 10_000; i++, t = first + i * step) {
    ticks.push({ t, x: ((t - start) / span) * width, label: formatOffset(t - origin, step) });
  }
  return { step, ticks };
}

/**
 * An offset from the origin, with as much precision as the step needs:
 * "0 s", "1.25 s", "45 s", "1:05", "1:05.250", "2:00:00", "-0.5 s".
 */
export function formatOffset(ms: number, step: number): string {
  const sign = ms < 0 ? "-" : "";
  const abs = Math.abs(ms);
  const decimals = step >= SECOND ? 0 : step >= 100 ? 1 : step >= 10 ? 2 : 3;
  if (abs < MINUTE) {
    const text = (abs / SECOND).toFixed(decimals);
    return `${sign}${text} s`;
  }
  const totalSeconds = abs / SECOND;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  let secondsText = seconds.toFixed(decimals);
  // 59.96 rounded to "60.0" would read as a minute too few.
  if (Number(secondsText) >= 60) secondsText = (0).toFixed(decimals);
  const [whole, fraction] = secondsText.split(".");
  const ss = whole!.padStart(2, "0") + (fraction === undefined ? "" : `.${fraction}`);
  if (hours > 0 || step >= HOUR) return `${sign}${hours}:${String(minutes).padStart(2, "0")}:${ss}`;
  return `${sign}${minutes}:${ss}`;
}

/** A duration in words a person reads at a glance: "0.4 ms", "12 ms", "1.2 s", "12.3 s", "1 min 5 s", "1 h 2 min". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  if (ms < 10) return `${Number.isInteger(ms) ? ms : ms.toFixed(1)} ms`;
  if (ms < SECOND - 0.5) return `${Math.round(ms)} ms`;
  if (ms < 10 * SECOND) return `${trim((ms / SECOND).toFixed(2))} s`;
  if (ms < MINUTE) return `${trim((ms / SECOND).toFixed(1))} s`;
  if (ms < HOUR) {
    const minutes = Math.floor(ms / MINUTE);
    const seconds = Math.floor((ms % MINUTE) / SECOND);
    return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
  }
  const hours = Math.floor(ms / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}

/** "1.20" → "1.2", "2.00" → "2". */
function trim(text: string): string {
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}
