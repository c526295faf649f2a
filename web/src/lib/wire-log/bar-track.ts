// One row of a swimlane: intervals appended in start order, some still open,
// with a fast "which of them intersect [from, to]" for a zoomed-in view.
//
// Bars are kept sorted by start (the timeline appends them in time order), so
// the last bar starting before `to` is a binary search away. The first bar
// that can still reach `from` is found through a running maximum of the ends
// (an open bar counts as ending at +∞): that maximum never decreases along
// the row, so it can be binary searched too. Bars between those two indexes
// are scanned; in a row whose bars do not overlap (turns, messages) that is
// exactly the visible ones.
//
// Closing a bar raises the running maximum from its position on: the rows the
// timeline builds close bars in about the order they opened, so that touches
// a few entries. Dropping bars from the front keeps the maxima as they are:
// they then include dropped bars, which only makes them larger, so the search
// stays correct (it may start a little early).

export interface TrackItem {
  start: number;
  end: number | null;
  /** Position in the track (absolute: counts dropped items too). Set by pushItem. */
  index: number;
}

export interface BarTrack<T extends TrackItem> {
  items: T[];
  /** maxEnd[i] = max(end of items[0..i]), open items as +∞. */
  maxEnd: number[];
  /** First live index in `items`. */
  head: number;
  /** Absolute index of items[0]. */
  base: number;
}

export function createTrack<T extends TrackItem>(): BarTrack<T> {
  return { items: [], maxEnd: [], head: 0, base: 0 };
}

export function trackSize(track: BarTrack<TrackItem>): number {
  return track.items.length - track.head;
}

/** Append an item; its start must not be before the last item's start. */
export function pushItem<T extends TrackItem>(track: BarTrack<T>, item: T): void {
  item.index = track.base + track.items.length;
  const previous = track.maxEnd.length > 0 ? track.maxEnd[track.maxEnd.length - 1]! : -Infinity;
  track.items.push(item);
  track.maxEnd.push(Math.max(previous, item.end ?? Infinity));
}

/** Record that `item` (already in the track) now ends at item.end. */
export function itemClosed<T extends TrackItem>(track: BarTrack<T>, item: T): void {
  const position = item.index - track.base;
  if (position < 0 || position >= track.items.length || track.items[position] !== item) return;
  let running = position > 0 ? track.maxEnd[position - 1]! : -Infinity;
  for (let i = position; i < track.items.length; i++) {
    const end = track.items[i]!.end;
    running = Math.max(running, end ?? Infinity);
    if (track.maxEnd[i] === running) break; // later maxima were computed from the same prefix
    track.maxEnd[i] = running;
  }
}

/** Drop items from the front while `shouldDrop` says so; returns them. Amortised O(1) per item. */
export function dropFront<T extends TrackItem>(track: BarTrack<T>, shouldDrop: (item: T) => boolean): T[] {
  const dropped: T[] = [];
  while (track.head < track.items.length && shouldDrop(track.items[track.head]!)) dropped.push(track.items[track.head++]!);
  if (track.head > 1024 && track.head * 2 > track.items.length) {
    track.items = track.items.slice(track.head);
    track.maxEnd = track.maxEnd.slice(track.head);
    track.base += track.head;
    track.head = 0;
  }
  return dropped;
}

/** Items intersecting [from, to] (an open item reaches +∞), in start order. */
export function itemsIn<T extends TrackItem>(track: BarTrack<T>, from: number, to: number, out: T[] = []): T[] {
  const { items, maxEnd } = track;
  // First index whose running max end reaches `from`.
  let lo = track.head;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (maxEnd[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  const first = lo;
  // One past the last index starting at or before `to`.
  lo = first;
  hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid]!.start <= to) lo = mid + 1;
    else hi = mid;
  }
  for (let i = first; i < lo; i++) {
    const item = items[i]!;
    if ((item.end ?? Infinity) >= from) out.push(item);
  }
  return out;
}

/** All live items, in start order. */
export function allItems<T extends TrackItem>(track: BarTrack<T>): T[] {
  return track.items.slice(track.head);
}
