// Pure arithmetic of a capture player: speeds, how long to wait for the next
// event, which events are due, and how positions are written. No timers, no
// DOM (tested in Node).

/** Playback speeds offered; "max" feeds as fast as the page applies. */
export const SPEEDS = [0.5, 1, 2, 10, "max"] as const;
export type Speed = (typeof SPEEDS)[number];

/** A pause longer than this (someone thinking, a coffee) plays as this long. */
export const MAX_GAP_MS = 2000;

/** At "max", events handed to the page per tick (it applies them in time-boxed slices anyway). */
export const MAX_SPEED_BATCH = 2000;

export function speedLabel(speed: Speed): string {
  return speed === "max" ? "max" : `${speed}×`;
}

/**
 * Milliseconds of wall time to wait between two events recorded `fromT` and
 * `toT` apart, at this speed (a long pause shortened to MAX_GAP_MS first).
 */
export function waitBetween(fromT: number, toT: number, speed: Speed): number {
  if (speed === "max") return 0;
  return Math.min(Math.max(0, toT - fromT), MAX_GAP_MS) / speed;
}

/** The first index at or after `from` whose time is later than `t` (times never decrease). */
export function firstAfter(times: ArrayLike<number>, t: number, from = 0): number {
  let lo = from;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** mm:ss (h:mm:ss from an hour on) of a duration in milliseconds. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h > 0 ? `${h}:` : ""}${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}

/** "record 12 of 345, 00:07": `position` events applied of `count`, at recorded time `t`. */
export function positionText(position: number, count: number, t: number): string {
  return `record ${position.toLocaleString("en")} of ${count.toLocaleString("en")}, ${formatClock(t)}`;
}
