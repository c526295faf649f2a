// Lists of the session state that are only ever appended to and cut from
// the front (markers, failures, invalid lines, timed-out commands, the last
// entries): each change makes a new list, which replaces the old one in the
// state, and the list itself is not made reactive.
//
// In the page the state is a deep Svelte `$state` proxy. A plain array put
// into it is wrapped, each index read makes a signal, and trimming a full
// list (`splice(0, 1)` on 500 markers) moved every element through the
// proxy's traps: in the reducer bench a session with a thousand retries
// spent more time trimming its markers than reducing its 40,000 deltas.
// Svelte wraps only arrays whose prototype is Array.prototype; these lists
// have one of their own that inherits from it (Array.isArray, iteration,
// spreading and JSON are unchanged), so the state holds them as they are,
// and whoever shows one re-reads it when the field is assigned a new one.
// The items in them are not changed after they are added either.

/** An array Svelte's `$state` leaves as it is: replaced in the state, never changed in place. */
class ReplacedList<T> extends Array<T> {}

/** `items` as a list of the kind above (a new array; `items` is not changed). */
export function replacedList<T>(items: readonly T[]): T[] {
  const list = items.slice();
  Object.setPrototypeOf(list, ReplacedList.prototype);
  return list;
}

/** A new list: `list` with `item` after it, the oldest dropped beyond `max`. */
export function appendBounded<T>(list: readonly T[], item: T, max: number): T[] {
  const start = Math.max(0, list.length + 1 - max);
  const next: T[] = [];
  for (let i = start; i < list.length; i++) next.push(list[i]!);
  next.push(item);
  Object.setPrototypeOf(next, ReplacedList.prototype);
  return next;
}
