// pi's last full `get_entries` answer, kept so that a browser loading the
// session (a late joiner, a viewer, a page reconnecting) is answered by the
// relay instead of pi, as long as pi's session cannot have moved since.
//
// Why: with a 5,000-message session (~3 MB answer) a class of 20 opening the
// page made pi serialise 20 × 3 MB on its one stdout, one after the other,
// while everyone's events waited behind them. Now pi answers once; the others
// get the same bytes from here (read-routing.ts sends each its own copy's id).
//
// Who it serves: any browser allowed to send pi a read (drivers and viewers:
// get_entries is in READ_ONLY_COMMANDS, so a viewer could ask pi for the very
// same bytes); a revoked link's socket is closed before its frames reach
// read-routing.ts, so it never gets here.
//
// Sound by construction: an answer is only ever what pi would answer now.
// The cache is valid for one "epoch"; the epoch moves (and the cache is
// dropped) on anything that can change pi's entries: any stdout bytes that
// are not an answer to a read (every event: message_end, entry_appended,
// compaction, session switches… and every response to a driver's command),
// any command other than a read written to pi (prompt, new_session,
// switch_session, fork, set_session_name…), and pi starting or exiting. An
// answer is kept only when the epoch did not move between the request going
// to pi and its last byte coming back, so nothing pi did while answering is
// missing from it.
//
// Bytes: pi writes `{"id":…,"type":"response","command":"get_entries",`
// then `"success":true,"data":{"entries":[…],"leafId":…}}` and LF. Only the
// header (the id) differs between two answers, so the rest is kept as pi
// wrote it and sent verbatim after a header with the asker's id. A `since`
// request is answered with the same bytes cut after that entry, exactly as
// pi's `entries.slice(index + 1)` would print them; when the cursor is not
// in the cache, pi is asked (it answers the error itself).
//
// Memory: one answer, at most MAX_CACHED_ENTRIES_BYTES; a larger one is not
// kept (pi answers each asker, as before).
import { responseHeader } from "./response-router.ts";

export const MAX_CACHED_ENTRIES_BYTES = 64 * 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** What follows the header of a successful answer, up to the first entry. */
const BODY_PREFIX = Buffer.from('"success":true,"data":{"entries":[');

/** A full get_entries on its way to pi: its answer is collected here, and identical requests meanwhile wait for it. */
export class EntriesCapture<Waiter> {
  readonly epoch: number;
  /** Requests that came while this one was in pi, each to be answered from it (or, if it is not kept, anew). */
  readonly waiters: Waiter[] = [];
  readonly #parts: Buffer[] = [];
  #size = 0;
  #tooLarge = false;
  #bytes: Buffer | null = null;

  constructor(epoch: number) {
    this.epoch = epoch;
  }

  /** A piece of pi's answer (copied: the router's pieces belong to the hub once handed on). */
  take(bytes: Buffer, end: boolean): void {
    if (!this.#tooLarge) {
      this.#size += bytes.length;
      if (this.#size > MAX_CACHED_ENTRIES_BYTES) {
        this.#tooLarge = true;
        this.#parts.length = 0;
      } else {
        this.#parts.push(Buffer.from(bytes));
      }
    }
    if (end && !this.#tooLarge) {
      this.#bytes = Buffer.concat(this.#parts);
      this.#parts.length = 0;
    }
  }

  /** The whole answer line, or null (not complete, or over the cap). */
  get bytes(): Buffer | null {
    return this.#bytes;
  }
}

/** A kept answer: everything after its header, and (once asked for a `since`) where its entries lie. */
type Kept = { body: Buffer; layout: EntriesLayout | null | undefined };

/** Offsets in a kept body: the first byte of each entry, and the `]` that closes the array. */
export type EntriesLayout = { starts: number[]; close: number };

export class EntriesCache<Waiter> {
  #epoch = 0;
  #kept: Kept | null = null;
  /** The latest full get_entries sent to pi. */
  #capture: EntriesCapture<Waiter> | null = null;
  /** Answers given from here (for diagnostics and tests). */
  served = 0;

  /** Something that can change pi's entries happened: nothing known before it holds now. */
  invalidate(): void {
    this.#epoch++;
    this.#kept = null;
  }

  /**
   * pi started or exited: as invalidate, and the answer in flight will never
   * come. Returns the requests that were waiting for it: pi never saw them,
   * and no answer will reach them unless the caller says so.
   */
  reset(): Waiter[] {
    this.invalidate();
    const orphans = this.#capture?.waiters ?? [];
    this.#capture = null;
    return orphans;
  }

  /** Bytes kept now (for tests and diagnostics). */
  get keptBytes(): number {
    return this.#kept?.body.length ?? 0;
  }

  /**
   * The answer to get_entries with `id` (and `since`, or null for all), as
   * the pieces of one line to send in order; null when it must go to pi.
   */
  answer(id: string, since: string | null): Buffer[] | null {
    const kept = this.#kept;
    if (kept === null) return null;
    const header = responseHeader(id, "get_entries");
    if (since === null) return [header, kept.body];
    if (kept.layout === undefined) kept.layout = entriesLayout(kept.body);
    const layout = kept.layout;
    if (layout === null) return null;
    const index = findEntry(kept.body, layout, since);
    if (index === -1) return null;
    const prefix = kept.body.subarray(0, BODY_PREFIX.length);
    const tail = kept.body.subarray(layout.close);
    const from = layout.starts[index + 1];
    if (from === undefined) return [header, prefix, tail];
    // The entries after `since`, without the comma that preceded the first of them.
    return [header, prefix, kept.body.subarray(from, layout.close), tail];
  }

  /** A full get_entries pi is answering now, that a new one may wait for instead of asking again; or null. */
  inFlight(): EntriesCapture<Waiter> | null {
    return this.#capture !== null && this.#capture.epoch === this.#epoch ? this.#capture : null;
  }

  /** A full get_entries goes to pi now: collect its answer. */
  capture(): EntriesCapture<Waiter> {
    this.#capture = new EntriesCapture<Waiter>(this.#epoch);
    return this.#capture;
  }

  /** pi finished answering `capture`: kept if nothing moved meanwhile, it is whole and it succeeded. */
  finish(capture: EntriesCapture<Waiter>): void {
    if (this.#capture === capture) this.#capture = null;
    const bytes = capture.bytes;
    if (bytes === null || capture.epoch !== this.#epoch) return;
    // The header is the one the router matched (read-routing.ts expected it); its length is found, not assumed.
    const bodyAt = headerLength(bytes);
    if (bodyAt === -1 || bytes.length < bodyAt + BODY_PREFIX.length) return;
    if (bytes.compare(BODY_PREFIX, 0, BODY_PREFIX.length, bodyAt, bodyAt + BODY_PREFIX.length) !== 0) return;
    this.#kept = { body: bytes.subarray(bodyAt), layout: undefined };
  }
}

/** Where `"command":"get_entries",` ends in an answer line, or -1. */
function headerLength(line: Buffer): number {
  const marker = Buffer.from('"type":"response","command":"get_entries",');
  const at = line.indexOf(marker);
  return at === -1 ? -1 : at + marker.length;
}

/**
 * Finds each entry of the kept answer's array in one pass over its bytes
 * (strings are skipped with indexOf, so long message texts cost little), or
 * null when the bytes are not the shape expected.
 */
export function entriesLayout(body: Buffer): EntriesLayout | null {
  const starts: number[] = [];
  let depth = 0;
  let at = BODY_PREFIX.length;
  while (at < body.length) {
    const byte = body[at]!;
    if (byte === QUOTE) {
      at = stringEnd(body, at);
      if (at === -1) return null;
      continue;
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (depth === 0) starts.push(at);
      depth++;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth === 0) return byte === CLOSE_ARRAY ? { starts, close: at } : null;
      depth--;
    }
    at++;
  }
  return null;
}

/** The index just past the JSON string that starts at `at` (a quote), or -1. */
function stringEnd(body: Buffer, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = body.indexOf(QUOTE, from);
    if (quote === -1) return -1;
    // Escaped when an odd number of backslashes precede it.
    let slashes = 0;
    while (body[quote - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index of the first entry whose own `id` is `id` (pi's findIndex), or -1. */
function findEntry(body: Buffer, layout: EntriesLayout, id: string): number {
  // An entry's id appears as `"id":"<id>"`; the same text may also occur deeper (a tool call's id), so each hit is checked.
  const needle = Buffer.from(`"id":${JSON.stringify(id)}`);
  let from = BODY_PREFIX.length;
  for (;;) {
    const hit = body.indexOf(needle, from);
    if (hit === -1 || hit >= layout.close) return -1;
    const index = entryAt(layout.starts, hit);
    const end = layout.starts[index + 1] ?? layout.close;
    // The entry's bytes, without the comma that follows all but the last.
    const text = body.toString("utf8", layout.starts[index]!, end).replace(/,$/, "");
    try {
      if ((JSON.parse(text) as { id?: unknown }).id === id) return index;
    } catch {
      return -1;
    }
    from = hit + needle.length;
  }
}

/** The index of the entry that holds byte `at` (the last start at or before it). */
function entryAt(starts: readonly number[], at: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}
