// A long record (a whole session's get_entries answer: 21 MB at 50,000
// messages) cut into slices that can cross from the worker that parsed it
// (long-line.worker.ts) to the page a few thousand entries at a time, and
// put back together there (RecordAssembler).
//
// Why slices: the page receives each message from a worker in a task of its
// own, and reading one is about as costly as parsing its JSON. The whole
// record in one message would be one task of hundreds of milliseconds; a
// slice of SLICE_ITEMS entries is a few. The cut is at the record's one big
// array (`data.entries` of get_entries, `data.messages` of get_messages);
// a long record of any other shape crosses whole.
//
// Pure data and functions: the worker, the page and the tests share them.

import { checkedEntries } from "../pi-state/entry-index.ts";

/** Items (entries or messages) per slice: ~1 MB of pi's JSON, a few ms to read on the page's thread. */
export const SLICE_ITEMS = 2000;

/** What a worker posts for one long line, in this order: a head (or whole, or invalid), then the head's slices. */
export type SliceMessage =
  /** Not JSON: the text, for the log and the failure shown. */
  | { kind: "invalid"; raw: string; error: string }
  /** The record in one piece (no big array to cut); `length`: the line's length in UTF-16 units. */
  | { kind: "whole"; value: unknown; length: number }
  /**
   * The record with its big array `data[field]` emptied; `slices` messages
   * follow with its `total` items, `stride` to a slice (the last one may hold
   * fewer). `checked`: the items are session entries with no id twice
   * (entry-index.ts checkedEntries), checked in the worker so the page need not.
   */
  | { kind: "head"; value: unknown; field: SlicedField; total: number; slices: number; stride: number; length: number; checked: boolean }
  /** Items `start`… of the head's big array. */
  | { kind: "slice"; start: number; items: unknown[] };

export type SlicedField = "entries" | "messages";

/** The big array of a record worth cutting, if it has one longer than a slice. */
function bigArrayOf(value: unknown, sliceItems: number): { data: Record<string, unknown>; field: SlicedField; items: unknown[] } | null {
  if (typeof value !== "object" || value === null) return null;
  const data = (value as { data?: unknown }).data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  for (const field of ["entries", "messages"] as const) {
    const items = (data as Record<string, unknown>)[field];
    if (Array.isArray(items) && items.length > sliceItems) return { data: data as Record<string, unknown>, field, items };
  }
  return null;
}

/**
 * The messages to post for a parsed long line, head first. The slices come
 * newest first (the end of a session is what the page shows first; the
 * assembler puts them back in order). `value` is changed (its big array
 * is emptied): it is the worker's own copy.
 */
export function sliceRecord(value: unknown, length: number, sliceItems = SLICE_ITEMS): SliceMessage[] {
  const big = bigArrayOf(value, sliceItems);
  if (big === null) return [{ kind: "whole", value, length }];
  const { data, field, items } = big;
  data[field] = [];
  const slices: SliceMessage[] = [];
  for (let start = Math.floor((items.length - 1) / sliceItems) * sliceItems; start >= 0; start -= sliceItems) {
    slices.push({ kind: "slice", start, items: items.slice(start, start + sliceItems) });
  }
  const checked = field === "entries" && checkedEntries(items);
  return [{ kind: "head", value, field, total: items.length, slices: slices.length, stride: sliceItems, length, checked }, ...slices];
}

/**
 * A long line put back together: the record (or the text that is not JSON),
 * its length on the wire, whether its big array came in slices (then
 * `onItems` saw all of them), and whether those were checked entries (see
 * the head).
 */
export type AssembledLine = { kind: "record"; value: unknown; length: number; sliced: boolean; checked: boolean } | { kind: "invalid"; raw: string; error: string };

/**
 * Puts one long line back together from the messages of sliceRecord, in the
 * order they were posted. `onItems` sees each slice's items as they come
 * (the page settles them there, a slice per task instead of all at once).
 */
export class RecordAssembler {
  #head: Extract<SliceMessage, { kind: "head" }> | null = null;
  /** The slices so far, by their start. */
  #slices: (unknown[] | undefined)[] = [];
  #received = 0;
  #items = 0;
  readonly #onItems: ((field: SlicedField, items: unknown[]) => void) | undefined;

  constructor(onItems?: (field: SlicedField, items: unknown[]) => void) {
    this.#onItems = onItems;
  }

  /** Takes the next message; returns the line once it is whole, else null. Throws on a message out of place. */
  push(message: SliceMessage): AssembledLine | null {
    if (message.kind === "slice") {
      const head = this.#head;
      if (head === null) throw new Error("a slice of a long record came before its head");
      const index = message.start / head.stride;
      if (!Number.isInteger(index) || index < 0 || index >= head.slices || this.#slices[index] !== undefined) throw new Error(`a slice of a long record at ${message.start} does not fit`);
      this.#onItems?.(head.field, message.items);
      this.#slices[index] = message.items;
      this.#received++;
      this.#items += message.items.length;
      if (this.#received < head.slices) return null;
      if (this.#items !== head.total) throw new Error(`a long record's slices held ${this.#items} items, not ${head.total}`);
      const items = ([] as unknown[]).concat(...(this.#slices as unknown[][]));
      (head.value as { data: Record<string, unknown> }).data[head.field] = items;
      this.#head = null;
      this.#slices = [];
      return { kind: "record", value: head.value, length: head.length, sliced: true, checked: head.checked };
    }
    if (this.#head !== null) throw new Error("a long record began before the last one was whole");
    if (message.kind === "invalid") return { kind: "invalid", raw: message.raw, error: message.error };
    if (message.kind === "whole") return { kind: "record", value: message.value, length: message.length, sliced: false, checked: false };
    if (!(Number.isInteger(message.stride) && message.stride > 0 && message.slices === Math.ceil(message.total / message.stride))) throw new Error("a long record's head does not add up");
    this.#head = message;
    this.#slices = new Array<unknown[] | undefined>(message.slices).fill(undefined);
    this.#received = 0;
    this.#items = 0;
    return null;
  }
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** One long line's bytes (without its LF) parsed and cut: what the worker posts, in order. */
export function sliceLine(bytes: Uint8Array, sliceItems = SLICE_ITEMS): SliceMessage[] {
  return sliceText(utf8.decode(bytes), sliceItems);
}

/**
 * One long line's text (without its LF) parsed and cut. A trailing CR is
 * not part of the record (pi's framing: LF, and one CR before it is
 * stripped); it is a character of its own in the text, as it was a byte.
 */
export function sliceText(text: string, sliceItems = SLICE_ITEMS): SliceMessage[] {
  if (text.endsWith("\r")) text = text.slice(0, -1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return [{ kind: "invalid", raw: text, error: error instanceof Error ? error.message : String(error) }];
  }
  return sliceRecord(value, text.length, sliceItems);
}
