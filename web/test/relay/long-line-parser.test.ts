// The page's parser of long lines with its worker: the real worker module
// (long-line.worker.ts) runs in this thread behind a Worker of the test's
// own that passes messages as a browser does (structured clones, transfers,
// each in a task of its own), so that what the page does when the worker is
// slow to start, fails mid-line or fails parsing can be made to happen.
import { afterEach, describe, expect, it } from "vitest";
import type { ParsedLongLine } from "../../src/lib/relay/long-line-parser.ts";
import { entriesAnswer } from "./entries-answer.ts";

type Request = { id: number; kind: string; buffer?: ArrayBuffer };

/** Entries whose texts hold what JSON escapes, and characters cut between two parts. */
const answer = (count: number) => entriesAnswer(count, (n) => `message ${n} é😀 "q" \\ ]`);

/** A long line's bytes, cut into parts of `size` (a character may be cut between two). */
function partsOf(text: string, size: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(bytes.subarray(at, at + size));
  return parts;
}

const task = () => new Promise((resolve) => setTimeout(resolve, 0));
/** The items a line's slices gave, in session order (the slices come newest first). */
const inOrder = (items: unknown[]) => [...items].sort((a, b) => (a as { message: { timestamp: number } }).message.timestamp - (b as { message: { timestamp: number } }).message.timestamp);

let loads = 0;
const WORKER_MODULE = new URL("../../src/lib/relay/long-line.worker.ts", import.meta.url).pathname;
const PARSER_MODULE = new URL("../../src/lib/relay/long-line-parser.ts", import.meta.url).pathname;

/** Worker, as far as the parser uses it; `failOn` makes it fail (as an uncaught error in a worker does) when given such a request. */
class TestWorker {
  static made: TestWorker[] = [];
  static failOn: ((request: Request) => boolean) | null = null;
  static startFails = false;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  readonly requests: Request[] = [];
  terminated = false;
  #scope: { onmessage: ((event: { data: unknown }) => void) | null; postMessage(message: unknown): void } | null = null;
  #early: unknown[] = [];

  constructor() {
    TestWorker.made.push(this);
    setTimeout(() => void this.#load());
  }

  async #load() {
    if (TestWorker.startFails) return this.#fail("the worker's script could not be fetched");
    const scope = { onmessage: null, postMessage: (message: unknown) => this.#deliver(message) };
    (globalThis as { self?: unknown }).self = scope;
    // A module instance of its own per worker, as each worker has.
    await import(/* @vite-ignore */ `${WORKER_MODULE}?worker=${++loads}`);
    this.#scope = scope;
    for (const data of this.#early.splice(0)) this.#run(data);
  }

  postMessage(data: unknown, transfer: Transferable[] = []) {
    if (this.terminated) return;
    const copy = structuredClone(data, { transfer });
    setTimeout(() => (this.#scope === null ? this.#early.push(copy) : this.#run(copy)));
  }

  terminate() {
    this.terminated = true;
  }

  #run(data: unknown) {
    if (this.terminated) return;
    const request = data as Request;
    this.requests.push(request);
    if (TestWorker.failOn?.(request)) return this.#fail("out of memory");
    this.#scope!.onmessage?.({ data });
  }

  #deliver(message: unknown) {
    const copy = structuredClone(message);
    setTimeout(() => {
      if (!this.terminated) this.onmessage?.({ data: copy });
    });
  }

  #fail(message: string) {
    this.terminated = true;
    this.onerror?.({ message, preventDefault() {} });
  }
}

/** The parser module, fresh (its worker is shared by every line of a page), with TestWorker as the page's Worker. */
async function freshParser() {
  (globalThis as { Worker?: unknown }).Worker = TestWorker;
  return (await import(/* @vite-ignore */ `${PARSER_MODULE}?page=${++loads}`)) as typeof import("../../src/lib/relay/long-line-parser.ts");
}

/** Writes the parts, a task apart as frames arrive, and returns the line's record. */
async function stream(line: ParsedLongLine, parts: Uint8Array[]) {
  for (const part of parts) {
    line.write(part);
    await task();
  }
  return await line.finish();
}

afterEach(() => {
  delete (globalThis as { Worker?: unknown }).Worker;
  delete (globalThis as { self?: unknown }).self;
  TestWorker.made = [];
  TestWorker.failOn = null;
  TestWorker.startFails = false;
});

describe("long line parser", () => {
  const value = answer(5000);
  const text = JSON.stringify(value);
  const expected = { kind: "record", value, length: text.length, sliced: true, checked: true };

  it("gives the worker a line's bytes while they arrive, and gets the record back in slices", async () => {
    const { startLongLine, warmLongLineParser } = await freshParser();
    warmLongLineParser();
    const parts = partsOf(text, 64 * 1024);
    const seen: unknown[] = [];
    const line = startLongLine((_field: string, items: unknown[]) => seen.push(...items));
    for (const part of parts.slice(0, -1)) {
      line.write(part);
      await task();
      await task();
    }
    // Before the line ends, the worker has its beginning and all but its last part.
    const worker = TestWorker.made[0]!;
    expect(worker.requests.map((r) => r.kind)).toEqual(["begin", ...parts.slice(0, -1).map(() => "bytes")]);
    line.write(parts.at(-1)!);
    expect(await line.finish()).toEqual(expected);
    expect(inOrder(seen)).toEqual(value.data.entries);
    expect(TestWorker.made).toHaveLength(1);
  });

  it("parts that came before the worker was ready reach it at most 1 MiB a task", async () => {
    const { startLongLine } = await freshParser();
    const big = answer(25_000);
    const bigText = JSON.stringify(big);
    expect(bigText.length).toBeGreaterThan(3 * 1024 * 1024);
    const parts = partsOf(bigText, 16 * 1024);
    const line = startLongLine();
    // Most of the line before the worker runs (it starts with the first long line), the rest in one task as it is ready.
    const before = parts.slice(0, -40);
    for (const part of before) line.write(part);
    const posted: number[] = [];
    const worker = await new Promise<TestWorker>((resolve) => setTimeout(() => resolve(TestWorker.made[0]!)));
    const post = worker.postMessage.bind(worker);
    let inTask = 0;
    worker.postMessage = (data: unknown, transfer?: Transferable[]) => {
      const request = data as Request;
      if (request.kind === "bytes") {
        if (inTask === 0) queueMicrotask(() => posted.push(inTask) && (inTask = 0));
        inTask += request.buffer!.byteLength;
      }
      post(data, transfer);
    };
    while (!worker.requests.some((r) => r.kind === "bytes")) await task();
    for (const part of parts.slice(before.length)) line.write(part);
    expect(await line.finish()).toEqual({ ...expected, value: big, length: bigText.length });
    expect(posted.length).toBeGreaterThan(1);
    expect(Math.max(...posted)).toBeLessThanOrEqual(1024 * 1024 + 16 * 1024);
    expect(posted.reduce((a, b) => a + b, 0) + inTask).toBe(new TextEncoder().encode(bigText).length);
  });

  it("a worker that fails while the line arrives, or while parsing it, loses nothing: the page parses the parts it held", async () => {
    for (const failOn of [(r: Request) => r.kind === "bytes", (r: Request) => r.kind === "end"]) {
      const { startLongLine } = await freshParser();
      TestWorker.failOn = failOn;
      const seen: unknown[] = [];
      const line = startLongLine((_field: string, items: unknown[]) => seen.push(...items));
      expect(await stream(line, partsOf(text, 100_000))).toEqual(expected);
      expect(TestWorker.made[0]!.terminated).toBe(true);
      expect(inOrder(seen)).toEqual(value.data.entries);
      // The next line starts another worker, and it parses there.
      TestWorker.failOn = null;
      expect(await stream(startLongLine(), partsOf(text, 100_000))).toEqual(expected);
      expect(TestWorker.made).toHaveLength(2);
      expect(TestWorker.made[1]!.requests.at(-1)!.kind).toBe("end");
      TestWorker.made = [];
    }
  });

  it("where no worker starts, lines are parsed here; a line let go of is forgotten by the worker", async () => {
    const { startLongLine } = await freshParser();
    TestWorker.startFails = true;
    expect(await stream(startLongLine(), partsOf(text, 100_000))).toEqual(expected);

    TestWorker.startFails = false;
    const again = await freshParser();
    const dropped = again.startLongLine();
    for (const part of partsOf(text, 100_000).slice(0, 3)) dropped.write(part);
    // Once the worker has the line's beginning, it is let go of.
    while (!TestWorker.made.at(-1)!.requests.some((r) => r.kind === "bytes")) await task();
    dropped.abort();
    const next = again.startLongLine();
    expect(await stream(next, partsOf(text, 100_000))).toEqual(expected);
    const kinds = TestWorker.made.at(-1)!.requests.map((r) => `${r.id} ${r.kind}`);
    expect(kinds.filter((k) => k.endsWith("abort"))).toHaveLength(1);
    expect(kinds.filter((k) => k.endsWith("end"))).toEqual([kinds.at(-1)]);
  });
});
