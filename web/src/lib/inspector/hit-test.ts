// What the pointer is on: the draw pass records a rectangle per item it
// painted (in plot pixels), and hitTest finds the item under a point. Thin
// bars and instants get a minimum target width so they can be clicked at
// any zoom. O(items drawn) per query, which is O(visible items).

export interface HitRects<T> {
  x: number[];
  y: number[];
  w: number[];
  h: number[];
  items: T[];
  /** 0 for bars, 1 for instants (instants win over the bars behind them). */
  layer: number[];
  length: number;
}

export function createHitRects<T>(): HitRects<T> {
  return { x: [], y: [], w: [], h: [], items: [], layer: [], length: 0 };
}

/** Forget the previous frame's rectangles (keeps the arrays' storage). */
export function clearHitRects<T>(rects: HitRects<T>): void {
  rects.length = 0;
  rects.items.length = 0;
}

export function addHitRect<T>(rects: HitRects<T>, item: T, x: number, y: number, w: number, h: number, layer = 0): void {
  const i = rects.length++;
  rects.x[i] = x;
  rects.y[i] = y;
  rects.w[i] = w;
  rects.h[i] = h;
  rects.layer[i] = layer;
  rects.items[i] = item;
}

/** Smallest clickable width, px. */
export const MIN_TARGET_PX = 7;

/**
 * The item at (px, py), or null. A rectangle narrower than MIN_TARGET_PX
 * counts as that wide around its centre. Among several hits: instants
 * first, then the narrowest (the most specific bar), then the one drawn last.
 */
export function hitTest<T>(rects: HitRects<T>, px: number, py: number): T | null {
  let best = -1;
  let bestLayer = -1;
  let bestWidth = Infinity;
  let bestDistance = Infinity;
  for (let i = 0; i < rects.length; i++) {
    const y = rects.y[i]!;
    if (py < y || py >= y + rects.h[i]!) continue;
    let x = rects.x[i]!;
    let w = rects.w[i]!;
    if (w < MIN_TARGET_PX) {
      x -= (MIN_TARGET_PX - w) / 2;
      w = MIN_TARGET_PX;
    }
    if (px < x || px >= x + w) continue;
    const layer = rects.layer[i]!;
    const width = rects.w[i]!;
    // Between overlapping thin targets, the one whose centre is closest.
    const distance = Math.abs(px - (x + w / 2));
    const better = layer > bestLayer || (layer === bestLayer && (width < bestWidth - 0.5 || (Math.abs(width - bestWidth) <= 0.5 && distance <= bestDistance)));
    if (better) {
      best = i;
      bestLayer = layer;
      bestWidth = width;
      bestDistance = distance;
    }
  }
  return best < 0 ? null : rects.items[best]!;
}
