// The rest of a large capture, read after it opened (open-capture.ts,
// openCaptureProgressively): short slices of lines, one per task, so the
// page keeps drawing frames and answering clicks in between. Each slice's
// events join the capture's items, times and record counts (arrays sized for
// every line the file has, filled in order); whoever shows the capture
// listens (onChange) and lets the player go as far as what is read.
//
// Measured on a 100,262-event / 40 MB capture (bench/export.bench.ts): the
// whole read is 0.7-1.5 s of CPU here, most of it strict base64 and JSON of
// every line. Read up front it held back the first record by that much; in
// slices the first record shows after the first ~30 ms of reading.

import { RecordCounter } from "../wire-log/capture-notes.ts";
import type { CaptureEvent, CaptureTextReader } from "../wire-log/capture.ts";
import type { ReplayItem } from "../relay/replay-feed.ts";
import type { OpenedCapture } from "./open-capture.ts";

export interface ProgressOptions {
  /** Files smaller than this are read whole before they open (default open-capture.ts PROGRESSIVE_FROM_CHARS). */
  fromChars?: number;
  /** Reading before the capture opens, in ms (default 30). */
  firstSliceMs?: number;
  /** Reading per later slice, in ms (default 12: the page still draws ~60 frames a second between slices). */
  sliceMs?: number;
  /** Run the next slice later (default: a task of its own, posted to a MessageChannel: setTimeout's 4 ms clamp on nested timers would idle a third of the time). */
  schedule?: (next: () => void) => void;
}

export class CaptureProgress {
  #reader: CaptureTextReader | null;
  /** Events the file holds at most while reading (its lines); exactly its events once done. */
  expected: number;
  /** Events read and checked so far: items[0 … read) are there. */
  read = 0;
  done = false;
  /** Why the reading stopped before the end of the file: the one sentence naming its line. */
  error: string | null = null;
  readonly #counter = new RecordCounter();
  readonly #listeners = new Set<() => void>();
  #resolveDone: () => void = () => {};
  /** Settles once the whole file is read (or the reading stopped at a bad line). */
  readonly whenDone = new Promise<void>((resolve) => (this.#resolveDone = resolve));

  constructor(reader: CaptureTextReader, expected: number) {
    this.#reader = reader;
    this.expected = expected;
  }

  /** Part of the file read, 0 … 1. */
  get fraction(): number {
    const reader = this.#reader;
    return reader === null || reader.text.length === 0 ? 1 : reader.charsRead / reader.text.length;
  }

  /** Called after each slice and once at the end. Returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The capture was left (the replay exited, another file opened): the rest
   * is never read, so a 40 MB file does not go on costing CPU behind another
   * page. Whoever waits on `whenDone` (an export, a compare of this capture)
   * is let go with it.
   */
  cancel(): void {
    if (this.done) return;
    this.#reader = null;
    this.#listeners.clear();
  }

  /** Take what the first slice read, then read the rest slice by slice. */
  start(capture: OpenedCapture, toItem: (event: CaptureEvent) => ReplayItem, options: ProgressOptions, refuse: (message: string) => string): void {
    const schedule = options.schedule ?? nextTask();
    const sliceMs = options.sliceMs ?? 12;
    this.#take(capture, toItem);
    const slice = (): void => {
      const reader = this.#reader;
      if (reader === null) return;
      const until = performance.now() + sliceMs;
      const finished = reader.readSome(() => performance.now() > until);
      this.#take(capture, toItem);
      if (finished) this.#finish(capture, reader, refuse);
      else schedule(slice);
      for (const listener of this.#listeners) listener();
    };
    schedule(slice);
  }

  /** The reader's new events into the capture's arrays. */
  #take(capture: OpenedCapture, toItem: (event: CaptureEvent) => ReplayItem): void {
    const events = this.#reader!.events;
    if (events.length > capture.items.length) this.#grow(capture, events.length);
    for (let i = this.read; i < events.length; i++) {
      const event = events[i]!;
      capture.times[i] = event.t;
      capture.items[i] = toItem(event);
      capture.recordEnds[i] = this.#counter.add(event);
    }
    this.read = events.length;
  }

  /** Never when `expected` counted lines right (an event is a line); kept so a miscount cannot write past the arrays. */
  #grow(capture: OpenedCapture, size: number): void {
    const times = new Float64Array(size);
    times.set(capture.times);
    const ends = new Uint32Array(size);
    ends.set(capture.recordEnds);
    capture.times = times;
    capture.recordEnds = ends;
    capture.items.length = size;
    this.expected = size;
  }

  #finish(capture: OpenedCapture, reader: CaptureTextReader, refuse: (message: string) => string): void {
    if (reader.error !== null) this.error = refuse(reader.error.message);
    // Exactly what was read: a feed to the items' end is now the capture's end.
    capture.items.length = this.read;
    capture.times = capture.times.subarray(0, this.read);
    capture.recordEnds = capture.recordEnds.subarray(0, this.read);
    this.expected = this.read;
    this.done = true;
    // The events are in the capture's items now: let go of the reader's copy of the list.
    this.#reader = null;
    this.#resolveDone();
  }
}

/** A function that runs its argument in a task of its own, soon (after input and rendering that are due). */
function nextTask(): (next: () => void) => void {
  if (typeof MessageChannel === "undefined") return (next) => setTimeout(next, 0);
  const channel = new MessageChannel();
  let queued: (() => void) | null = null;
  channel.port1.onmessage = () => {
    const next = queued;
    queued = null;
    next?.();
  };
  return (next) => {
    queued = next;
    channel.port2.postMessage(null);
  };
}
