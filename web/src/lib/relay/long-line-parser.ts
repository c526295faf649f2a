// Parses pi's long lines (long-lines.ts) off the page's thread: one module
// worker (long-line.worker.ts, bundled by Vite; the page's CSP allows
// `worker-src 'self'`) is given each line's bytes while they arrive (a copy
// of each part, transferred) and decodes them as they come; when the line
// ends it parses it and posts the record back in slices (record-slices.ts).
// Each slice is a message, so a task of its own on the page's thread:
// reading a slice, and whatever `onItems` does with it (the connection
// settles the messages), costs a few milliseconds where parsing the whole
// line in one call cost hundreds.
//
// The page's thread keeps the parts it was given until the line is parsed
// (it held them before the worker did this: no more memory than then), so
// that where there is no Worker (Node, in the unit tests), the worker
// cannot start (it says "ready" before it is given any bytes) or it failed
// while the line arrived, the line is parsed in this thread into the same
// record, and no line is lost.

import { RecordAssembler, sliceLine, type AssembledLine, type SlicedField } from "./record-slices.ts";
import type { LongLine } from "./long-lines.ts";
import { concatBytes } from "../bytes.ts";
import type { WorkerRequest } from "./long-line.worker.ts";

export type OnItems = (field: SlicedField, items: unknown[]) => void;

/**
 * A long line as the inbound queue uses it: written while it arrives, then
 * parsed. Its `onItems` (given when it begins) sees each slice of its big
 * array before the record is whole.
 */
export interface ParsedLongLine extends LongLine {
  /** The line ended: its record, parsed (off the thread where it can be). */
  finish(): Promise<AssembledLine>;
  /** The same, in this thread, at once (the stream ended mid-line: rare). */
  finishHere(): AssembledLine;
}

/** In this thread, at once: the same slices and the same assembly as through the worker. */
export function parseLongLineHere(bytes: Uint8Array, onItems?: OnItems): AssembledLine {
  const assembler = new RecordAssembler(onItems);
  for (const message of sliceLine(bytes)) {
    const line = assembler.push(message);
    if (line !== null) return line;
  }
  throw new Error("a long line's slices did not add up");
}

/** A long line parsed in this thread when it ends: its parts are held until then. */
export class HeldLongLine implements ParsedLongLine {
  readonly parts: Uint8Array[] = [];
  #bytes = 0;
  readonly #onItems: OnItems | undefined;

  constructor(onItems?: OnItems) {
    this.#onItems = onItems;
  }

  write(part: Uint8Array): void {
    this.parts.push(part);
    this.#bytes += part.length;
  }

  abort(): void {
    this.parts.length = 0;
    this.#bytes = 0;
  }

  /** The line's bytes so far, in one buffer. */
  bytes(): Uint8Array {
    return concatBytes(this.parts);
  }

  finish(): Promise<AssembledLine> {
    return Promise.resolve().then(() => this.finishHere());
  }

  finishHere(): AssembledLine {
    return parseLongLineHere(this.bytes(), this.#onItems);
  }
}

type Waiting = { assembler: RecordAssembler; resolve(line: AssembledLine): void; reject(error: Error): void };

/**
 * Bytes copied to the worker in one task. Parts that came before the worker
 * was ready (its start takes a few hundred ms on a busy machine; a session's
 * answer arrives at ~20 MB/s) wait for it, and copying megabytes of them in
 * one go was a task of ~60 ms of CPU (50,000 messages).
 */
const SEND_BYTES_PER_TASK = 1024 * 1024;
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A long line streamed to the worker as it arrives; parsed here if the worker is not there for it. */
class StreamedLongLine implements ParsedLongLine {
  readonly #held: HeldLongLine;
  readonly #parser: WorkerParser;
  readonly #id: number;
  /** The record from the worker, asked for once the line began there. */
  #answer: Promise<AssembledLine> | null = null;
  /** The worker that was given the line's beginning (its generation), or null: none (yet, or ever). */
  #worker: number | null = null;
  /** How many of the held parts the worker has. */
  #sent = 0;
  /** More parts wait for the next task (see SEND_BYTES_PER_TASK). */
  #sendLater = false;
  #aborted = false;

  constructor(parser: WorkerParser, onItems?: OnItems) {
    this.#parser = parser;
    this.#id = parser.nextId();
    this.#held = new HeldLongLine(onItems);
    void parser.started().then((generation) => {
      if (generation === null || this.#aborted) return;
      if (!parser.post({ id: this.#id, kind: "begin" }, [], generation)) return;
      this.#worker = generation;
      this.#answer = parser.expect(this.#id, onItems);
      // Not awaited until the line ends; a failure then is the finish's.
      this.#answer.catch(() => {});
      this.#send();
    });
  }

  write(part: Uint8Array): void {
    this.#held.write(part);
    this.#send();
  }

  abort(): void {
    this.#aborted = true;
    this.#held.abort();
    if (this.#worker !== null) this.#parser.post({ id: this.#id, kind: "abort" }, [], this.#worker);
    this.#worker = null;
    this.#parser.forget(this.#id);
  }

  async finish(): Promise<AssembledLine> {
    // Once this settles, the constructor's own wait has run (it was first): the worker has the beginning, if any.
    await this.#parser.started();
    // What is left to send goes a batch a task (#send keeps itself going while parts are left).
    while (this.#worker !== null && this.#sent < this.#held.parts.length) await nextTask();
    if (this.#worker !== null && this.#answer !== null && this.#parser.post({ id: this.#id, kind: "end" }, [], this.#worker)) {
      try {
        return await this.#answer;
      } catch {
        // The worker failed with the line (or its slices did not fit): parsed here instead.
      }
    }
    // No worker for this line (any more): parsed here, from the parts held.
    this.#parser.forget(this.#id);
    return this.#held.finishHere();
  }

  finishHere(): AssembledLine {
    const line = this.#held.finishHere();
    this.abort();
    return line;
  }

  /**
   * Parts the worker does not have yet, each copied (the page's own are
   * held) and the copy handed over, up to SEND_BYTES_PER_TASK; the rest in
   * the next task (and until then, parts written wait behind them).
   */
  #send(): void {
    if (this.#worker === null || this.#sendLater) return;
    const parts = this.#held.parts;
    let budget = SEND_BYTES_PER_TASK;
    while (this.#sent < parts.length && budget > 0) {
      const part = parts[this.#sent]!;
      const buffer = part.slice().buffer;
      if (!this.#parser.post({ id: this.#id, kind: "bytes", buffer }, [buffer], this.#worker)) {
        // The worker is gone: the line is parsed here when it ends, from the parts held.
        this.#worker = null;
        return;
      }
      this.#sent++;
      budget -= part.length;
    }
    if (this.#sent < parts.length) {
      this.#sendLater = true;
      void nextTask().then(() => {
        this.#sendLater = false;
        this.#send();
      });
    }
  }
}

class WorkerParser {
  #worker: Worker | null = null;
  /** Bumped each time a worker starts: a line begun in one that failed is not continued in the next. */
  #generation = 0;
  /** The running worker's generation, or null where none could start. */
  #started: Promise<number | null> | null = null;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 1;

  nextId(): number {
    return this.#nextId++;
  }

  /** Post to the worker of `generation`; false when that worker is gone. */
  post(request: WorkerRequest, transfer: Transferable[], generation: number): boolean {
    if (this.#worker === null || generation !== this.#generation) return false;
    this.#worker.postMessage(request, transfer);
    return true;
  }

  /** The slices of line `id`, put together. */
  expect(id: number, onItems?: OnItems): Promise<AssembledLine> {
    return new Promise<AssembledLine>((resolve, reject) => this.#waiting.set(id, { assembler: new RecordAssembler(onItems), resolve, reject }));
  }

  forget(id: number): void {
    this.#waiting.delete(id);
  }

  started(): Promise<number | null> {
    this.#started ??= new Promise<number | null>((resolve) => {
      let worker: Worker;
      try {
        worker = new Worker(new URL("./long-line.worker.ts", import.meta.url), { type: "module", name: "pier-long-lines" });
      } catch {
        resolve(null);
        return;
      }
      let ready = false;
      worker.onmessage = (event: MessageEvent) => {
        if (event.data === "ready") {
          ready = true;
          this.#worker = worker;
          resolve(++this.#generation);
        } else this.#receive(event.data as { id: number; message: Parameters<RecordAssembler["push"]>[0] });
      };
      worker.onerror = (event) => {
        event.preventDefault();
        worker.terminate();
        if (!ready) return resolve(null);
        this.#worker = null;
        // Lines it had, arriving or parsing, are parsed here (their parts
        // are held); the next line starts another worker.
        for (const waiting of this.#waiting.values()) waiting.reject(new Error(`the page's parser of long lines failed: ${event.message}`));
        this.#waiting.clear();
        this.#started = null;
      };
    });
    return this.#started;
  }

  #receive({ id, message }: { id: number; message: Parameters<RecordAssembler["push"]>[0] }): void {
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return;
    try {
      const line = waiting.assembler.push(message);
      if (line === null) return;
      this.#waiting.delete(id);
      waiting.resolve(line);
    } catch (error) {
      this.#waiting.delete(id);
      waiting.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

let shared: WorkerParser | null = null;

/**
 * Starts the worker ahead of a line that may be long (a whole session is
 * asked for), so that it is ready when the bytes come: otherwise they wait
 * for it, held, and reach it in a burst.
 */
export function warmLongLineParser(): void {
  if (typeof Worker !== "function") return;
  shared ??= new WorkerParser();
  void shared.started();
}

/** A long line begins: streamed to the page's parser of long lines (one worker for every connection, started at the first). */
export function startLongLine(onItems?: OnItems): ParsedLongLine {
  if (typeof Worker !== "function") return new HeldLongLine(onItems);
  shared ??= new WorkerParser();
  return new StreamedLongLine(shared, onItems);
}
