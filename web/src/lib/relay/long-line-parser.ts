// Parses pi's long lines (long-lines.ts) off the page's thread: one module
// worker (long-line.worker.ts, bundled by Vite; the page's CSP allows
// `worker-src 'self'`) receives each line's bytes, transferred, not copied,
// and posts the record back in slices (record-slices.ts). Each slice is a
// message, so a task of its own on the page's thread: reading a slice, and
// whatever `onItems` does with it (the connection settles the messages),
// costs a few milliseconds where parsing the whole line in one call cost
// hundreds.
//
// Where there is no Worker (Node, in the unit tests) or the worker cannot
// start (it says "ready" before it is given any bytes, so no line is lost),
// the same slices are made and put together in this thread.

import { RecordAssembler, sliceLine, type AssembledLine, type SlicedField } from "./record-slices.ts";
import type { WorkerRequest } from "./long-line.worker.ts";

/** Parses one long line (its bytes, which it may take: the buffer can be transferred). */
export type LongLineParser = (bytes: Uint8Array, onItems?: (field: SlicedField, items: unknown[]) => void) => Promise<AssembledLine>;

/** In this thread, at once: the same slices and the same assembly as through the worker. */
export function parseLongLineHere(bytes: Uint8Array, onItems?: (field: SlicedField, items: unknown[]) => void): AssembledLine {
  const assembler = new RecordAssembler(onItems);
  for (const message of sliceLine(bytes)) {
    const line = assembler.push(message);
    if (line !== null) return line;
  }
  throw new Error("a long line's slices did not add up");
}

type Waiting = { assembler: RecordAssembler; resolve(line: AssembledLine): void; reject(error: Error): void };

class WorkerParser {
  #worker: Worker | null = null;
  /** Whether the worker started (it said "ready"); false: parse in this thread. */
  #started: Promise<boolean> | null = null;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 1;

  parse: LongLineParser = async (bytes, onItems) => {
    if (!(await this.#start())) return parseLongLineHere(bytes, onItems);
    return new Promise<AssembledLine>((resolve, reject) => {
      const id = this.#nextId++;
      this.#waiting.set(id, { assembler: new RecordAssembler(onItems), resolve, reject });
      // The splitter gives each long line a buffer of its own: it is handed over, not copied.
      const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
      const buffer = whole ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
      const request: WorkerRequest = { id, buffer };
      this.#worker!.postMessage(request, [buffer]);
    });
  };

  #start(): Promise<boolean> {
    this.#started ??= new Promise<boolean>((resolve) => {
      let worker: Worker;
      try {
        worker = new Worker(new URL("./long-line.worker.ts", import.meta.url), { type: "module", name: "pier-long-lines" });
      } catch {
        resolve(false);
        return;
      }
      let ready = false;
      worker.onmessage = (event: MessageEvent) => {
        if (event.data === "ready") {
          ready = true;
          this.#worker = worker;
          resolve(true);
        } else this.#receive(event.data as { id: number; message: Parameters<RecordAssembler["push"]>[0] });
      };
      worker.onerror = (event) => {
        event.preventDefault();
        worker.terminate();
        this.#worker = null;
        if (!ready) return resolve(false);
        // Lines it had taken are lost with it: said as such; the next line starts another worker.
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

/** The page's parser of long lines: one worker for every connection, started at the first long line. */
export const parseLongLine: LongLineParser = (bytes, onItems) => {
  if (typeof Worker !== "function") return Promise.resolve().then(() => parseLongLineHere(bytes, onItems));
  shared ??= new WorkerParser();
  return shared.parse(bytes, onItems);
};
