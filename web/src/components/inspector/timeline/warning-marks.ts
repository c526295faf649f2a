// The expert warnings on the swimlane: a small amber mark on the time axis
// at each flagged record's time (expert-checks.ts), and which mark a click
// on the axis hit. A handful at most on a sound wire: drawn one by one.

import type { Viewport } from "../../../lib/inspector/viewport.ts";
import type { TimelineTheme } from "./theme.ts";

export interface WarningMark {
  seq: number;
  at: number;
}

/** Half the mark's width, and how far from it a click still hits it (CSS pixels). */
const HALF = 4;
const HIT = 6;

export function drawWarningMarks(ctx: CanvasRenderingContext2D, width: number, dpr: number, view: Viewport, marks: readonly WarningMark[], theme: TimelineTheme): void {
  if (marks.length === 0) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = theme.warn;
  for (const mark of marks) {
    const x = ((mark.at - view.start) / view.span) * width;
    if (x < -HALF || x > width + HALF) continue;
    ctx.beginPath();
    ctx.moveTo(x - HALF, 1);
    ctx.lineTo(x + HALF, 1);
    ctx.lineTo(x, 1 + HALF * 2);
    ctx.fill();
  }
}

/** The mark nearest to `x` within reach, or null. */
export function warningMarkAt(x: number, width: number, view: Viewport, marks: readonly WarningMark[]): WarningMark | null {
  let best: WarningMark | null = null;
  let bestDistance = HIT;
  for (const mark of marks) {
    const distance = Math.abs(((mark.at - view.start) / view.span) * width - x);
    if (distance <= bestDistance) {
      best = mark;
      bestDistance = distance;
    }
  }
  return best;
}
