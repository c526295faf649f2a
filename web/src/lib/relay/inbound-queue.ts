// What arrives on a connection is not applied at once but queued and
// applied once per animation frame (drain), in arrival order, a time-boxed
// slice at a time: while pi streams, thousands of records a second then
// cost one re-render per frame instead of one per WebSocket message, and a
// burst that takes longer than a frame's budget is spread over several
// frames instead of freezing the page. Text frames, the bytes around them,
// the commands this browser sends (for the log) and the socket closing all
// go through the same queue, so their order is kept.
//
// Replay (replay-feed.ts) feeds the same queue from a capture file instead
// of the socket, so everything downstream is the code a live page runs.
//
// The queue owns the JSONL decoder of pi's stdout: bytes are decoded here,
// a slice at a time, and each line handed on in order with the time its
// bytes arrived. A long line (a whole session's entries: megabytes) is not
// decoded here: its bytes go off the page's thread as they are decoded, and
// it is parsed there when it ends (long-lines.ts, long-line-parser.ts);
// meanwhile nothing after it is applied, so the order holds.

import { JsonlDecoder, type DecodedLine } from "@pier/protocol";
import { FrameScheduler, pageHidden } from "./frame-scheduler.ts";
import { LongLineSplitter } from "./long-lines.ts";
import { startLongLine, type OnItems, type ParsedLongLine } from "./long-line-parser.ts";
import type { AssembledLine, SlicedField } from "./record-slices.ts";

/**
 * How long one slice of queued work may take (decoding and reducing; Svelte's
 * re-render comes on top, in the same task; layout and paint in the next
 * frame, see frame-scheduler.ts). A frame's worth: with half of it (and the
 * full one only once the page was 50 ms behind), every burst of a fast
 * stream left records for a later frame, and the page trailed it by more
 * (bench/stream.bench.ts, 8 rounds side by side: delta → visible p95 147 →
 * 102 ms with the inspector closed, 236 → 186 ms open on its records). The
 * slice and the Svelte update after it are a task of their own, apart from
 * the frame's layout and paint, so that task stays well under 50 ms (the
 * longest measured the same as with the shorter slice).
 */
export const SLICE_BUDGET_MS = 16;
/** Bytes decoded in one go (the budget is checked between such slices and between records). */
export const DECODE_SLICE_BYTES = 64 * 1024;

/** Something that happened on the socket, waiting to be applied (`at`: when it happened). */
export type Queued =
  /** `tapped`: `chunk` has seen these bytes (a big frame is decoded a slice at a time, and told once, whole). */
  | { kind: "bytes"; bytes: Uint8Array; at: number; tapped?: true }
  | { kind: "text"; text: string; at: number }
  | { kind: "out"; raw: string; value: unknown; at: number }
  /** A command from a capture (replay): this page (or, with `by`, another) sent it then. */
  | { kind: "replayed_out"; raw: string; at: number; by?: { clientId: string; name?: string } }
  | { kind: "closed"; code: number; opened: boolean };

/**
 * A line of pi's stdout as the queue hands it on: decoded here, or a long
 * one parsed off the page's thread, whose text is not kept (its length is),
 * and whose big array's items, when it came `sliced`, were already given to
 * `longItems`; `checked`: its entries were checked in the worker
 * (record-slices.ts).
 */
export type InboundLine = DecodedLine | { kind: "long"; value: unknown; length: number; sliced: boolean; checked: boolean };

/** A line waiting in #lines: decoded, or a long line ended but not parsed yet. */
type PendingLine = InboundLine | { kind: "unparsed"; line: ParsedLongLine };

/** What the queue hands on, in order. */
export interface InboundHandlers {
  /** A binary frame of pi's stdout, once and whole, before any line decoded from it. */
  chunk(bytes: Uint8Array, at: number): void;
  /** `length` more bytes of pi's stream are about to be decoded. */
  streamReached(length: number): void;
  /** A line of pi's stdout; `at`: when its bytes arrived. */
  line(line: InboundLine, at: number): void;
  /** Items of a long line's big array (a slice of a session's entries), before the line itself: each slice in a task of its own. */
  longItems?(field: SlicedField, items: unknown[]): void;
  /**
   * A relay text frame. Returns true when it started or ended a replay: that
   * ends the slice, and the rest runs in a task of its own, so that the next
   * record meets the app after its effects have seen the new phase (they run
   * in the microtask after this task).
   */
  text(text: string, at: number): boolean;
  out(item: Extract<Queued, { kind: "out" }>): void;
  replayedOut(item: Extract<Queued, { kind: "replayed_out" }>): void;
  closed(code: number, opened: boolean): void;
  /** Everything queued so far has been applied. */
  idle(): void;
  /** A slice ended (with or without work left). */
  sliceEnd(): void;
}

/** The scheduling FrameScheduler does (injectable for tests). */
export interface SliceScheduler {
  schedule(): void;
  scheduleTask(): void;
  cancel(): void;
}

export interface InboundQueueOptions {
  /** A clock in ms for the slice budget (default performance.now). */
  now?: () => number;
  /** Whether the page is hidden: then everything is applied at once (default pageHidden). */
  hidden?: () => boolean;
  scheduler?: (run: () => void) => SliceScheduler;
  budgetMs?: number;
  /** Begins each long line, given `longItems` (default: streamed to a worker and parsed there; in this thread where there is none). */
  startLongLine?: (onItems?: OnItems) => ParsedLongLine;
}

export class InboundQueue {
  readonly #handlers: InboundHandlers;
  readonly #now: () => number;
  readonly #hidden: () => boolean;
  readonly #budgetMs: number;
  readonly #scheduler: SliceScheduler;
  /** Not yet applied, oldest first from #head. */
  #queue: Queued[] = [];
  #head = 0;
  #decoder = new JsonlDecoder();
  readonly #startLongLine: () => ParsedLongLine;
  #splitter: LongLineSplitter<ParsedLongLine>;
  /** A long line is being parsed: nothing is applied until it is (see #parse). */
  #parsing = false;
  /** Bumped when what is queued is dropped or the stream starts again: a parse that ends after that is forgotten. */
  #generation = 0;
  /** Lines decoded from the bytes being applied, the next one to apply, and when those bytes arrived. */
  #lines: PendingLine[] = [];
  #lineAt = 0;
  #linesArrivedAt = 0;
  #draining = false;
  /** While set, what arrives is queued and not applied (see holdUntil). */
  #held: Promise<unknown> | null = null;

  constructor(handlers: InboundHandlers, options: InboundQueueOptions = {}) {
    this.#handlers = handlers;
    this.#now = options.now ?? (() => performance.now());
    this.#hidden = options.hidden ?? pageHidden;
    this.#budgetMs = options.budgetMs ?? SLICE_BUDGET_MS;
    const start = options.startLongLine ?? startLongLine;
    const longItems = handlers.longItems?.bind(handlers);
    this.#startLongLine = () => start(longItems);
    this.#splitter = new LongLineSplitter(this.#startLongLine);
    this.#scheduler = (options.scheduler ?? ((run) => new FrameScheduler(run)))(() => this.drain());
  }

  /** Items not yet applied (lines of bytes being applied not counted). */
  get length(): number {
    return this.#queue.length - this.#head;
  }

  push(item: Queued): void {
    this.#queue.push(item);
    this.#kick();
  }

  /** Many at once (a replay jump): queued here, applied from the next frame on like the rest. */
  pushMany(items: Iterable<Queued>): void {
    for (const item of items) this.#queue.push(item);
    this.#kick();
  }

  // A hidden page gets no frames to spread the work over, and nothing to
  // show meanwhile: it keeps up at once.
  #kick(): void {
    if (this.#hidden() && !this.#draining) this.drain();
    else this.#scheduler.schedule();
  }

  /**
   * Receive at once, but apply nothing before `ready` settles, or `maxMs`
   * passed: what arrives meanwhile waits in the queue, in order.
   */
  holdUntil(ready: Promise<unknown>, maxMs: number): void {
    const held = Promise.race([ready, new Promise((resolve) => setTimeout(resolve, maxMs))]).catch(() => undefined);
    this.#held = held;
    void held.then(() => {
      if (this.#held !== held) return;
      this.#held = null;
      if (this.#hidden()) this.drain();
      else this.#scheduler.schedule();
    });
  }

  /** Drop everything not yet applied (the decoder keeps any partial line: see resetDecoder). */
  clear(): void {
    this.#scheduler.cancel();
    this.#generation++;
    this.#parsing = false;
    this.#queue = [];
    this.#head = 0;
    this.#lines = [];
    this.#lineAt = 0;
  }

  /** Forget any partial line: pi's stream starts again (a hello's replay, a new child). */
  resetDecoder(): void {
    this.#decoder = new JsonlDecoder();
    this.#splitter.abort();
    this.#splitter = new LongLineSplitter(this.#startLongLine);
  }

  /** pi's stream ended (it exited): a last line without its newline is applied now, with time `at`. */
  flushDecoder(at: number): void {
    // Rare (pi exited mid-line), so a long last line is parsed here, at once.
    for (const piece of this.#splitter.end()) {
      if (piece.kind === "lines") this.#decoder.push(piece.bytes);
      else this.#handlers.line(longLine(piece.line.finishHere()), at);
    }
    for (const line of this.#decoder.end()) this.#handlers.line(line, at);
  }

  /**
   * Apply what is queued, in order, until it is all done or this slice's
   * budget is spent (then the rest waits for the next frame).
   */
  drain(): void {
    if (this.#draining || this.#held !== null || this.#parsing) return;
    this.#draining = true;
    const handlers = this.#handlers;
    const deadline = this.#hidden() ? Infinity : this.#now() + this.#budgetMs;
    try {
      for (;;) {
        if (this.#lineAt < this.#lines.length) {
          const line = this.#lines[this.#lineAt]!;
          if (line.kind === "unparsed") {
            // Off the thread; the slices come back as tasks of their own, and then this line and the rest.
            this.#parse(line.line);
            return;
          }
          this.#lineAt++;
          handlers.line(line, this.#linesArrivedAt);
        } else {
          const item = this.#queue[this.#head];
          if (item === undefined) break;
          if (item.kind === "bytes" && item.tapped === undefined) {
            item.tapped = true;
            handlers.chunk(item.bytes, item.at);
          }
          if (item.kind === "bytes" && item.bytes.length > DECODE_SLICE_BYTES) {
            // A big frame (replayed output can come a megabyte at once) is
            // decoded a slice at a time, so that the budget can end the
            // work between slices.
            this.#queue[this.#head] = { kind: "bytes", bytes: item.bytes.subarray(DECODE_SLICE_BYTES), at: item.at, tapped: true };
            this.#decode(item.bytes.subarray(0, DECODE_SLICE_BYTES), item.at);
          } else {
            this.#queue[this.#head++] = undefined as never;
            if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
              this.#queue = this.#queue.slice(this.#head);
              this.#head = 0;
            }
            if (item.kind === "bytes") this.#decode(item.bytes, item.at);
            else if (item.kind === "text") {
              if (handlers.text(item.text, item.at)) {
                this.#scheduler.scheduleTask();
                return;
              }
            } else if (item.kind === "out") handlers.out(item);
            else if (item.kind === "replayed_out") handlers.replayedOut(item);
            else handlers.closed(item.code, item.opened);
          }
        }
        if (this.#now() > deadline) {
          this.#scheduler.schedule();
          return;
        }
      }
      this.#lines = [];
      this.#lineAt = 0;
      this.#queue = [];
      this.#head = 0;
      handlers.idle();
    } finally {
      this.#draining = false;
      handlers.sliceEnd();
    }
  }

  #decode(bytes: Uint8Array, at: number): void {
    this.#handlers.streamReached(bytes.length);
    const pieces = this.#splitter.push(bytes);
    if (pieces.length === 1 && pieces[0]!.kind === "lines") this.#lines = this.#decoder.push(pieces[0]!.bytes);
    else {
      const lines: PendingLine[] = [];
      for (const piece of pieces) {
        if (piece.kind === "long") lines.push({ kind: "unparsed", line: piece.line });
        else for (const line of this.#decoder.push(piece.bytes)) lines.push(line);
      }
      this.#lines = lines;
    }
    this.#lineAt = 0;
    this.#linesArrivedAt = at;
  }

  /** Parses the long line at #lineAt off the thread; it takes its place once whole, and draining goes on. */
  #parse(long: ParsedLongLine): void {
    this.#parsing = true;
    const generation = this.#generation;
    const done = (line: InboundLine) => {
      if (generation !== this.#generation) return;
      this.#lines[this.#lineAt] = line;
      this.#parsing = false;
      if (this.#hidden()) this.drain();
      else this.#scheduler.schedule();
    };
    long.finish().then(
      (parsed) => done(longLine(parsed)),
      (error: unknown) => done({ kind: "invalid", raw: "", error: error instanceof Error ? error.message : String(error) }),
    );
  }
}

function longLine(parsed: AssembledLine): InboundLine {
  return parsed.kind === "invalid" ? parsed : { kind: "long", value: parsed.value, length: parsed.length, sliced: parsed.sliced, checked: parsed.checked };
}
