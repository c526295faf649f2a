import { describe, expect, it } from "vitest";
import { DECODE_SLICE_BYTES, InboundQueue, type InboundHandlers, type InboundQueueOptions } from "../../src/lib/relay/inbound-queue.ts";
import { LONG_LINE_BYTES } from "../../src/lib/relay/long-lines.ts";
import { HeldLongLine, type OnItems } from "../../src/lib/relay/long-line-parser.ts";

/** A long line held in this thread whose parse waits for `parsed` (a worker taking its time); `given`: its bytes, when it was asked to parse. */
function slowLongLines(parsed: Promise<void>) {
  const given: Uint8Array[] = [];
  const start = (onItems?: OnItems) =>
    new (class extends HeldLongLine {
      override async finish() {
        given.push(this.bytes());
        await parsed;
        return this.finishHere();
      }
    })(onItems);
  return { start, given };
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** A queue whose scheduling is counted (the test calls drain() for the frame) and whose clock the test moves. */
function setup(options: { endSlice?: (text: string) => boolean; msPerLine?: number; hidden?: boolean; startLongLine?: InboundQueueOptions["startLongLine"] } = {}) {
  const events: string[] = [];
  const chunks: number[] = [];
  let streamed = 0;
  let clock = 0;
  const counts = { schedule: 0, task: 0, cancel: 0, idle: 0, sliceEnd: 0 };
  const handlers: InboundHandlers = {
    chunk: (b) => chunks.push(b.length),
    streamReached: (n) => (streamed += n),
    line: (line, at) => {
      clock += options.msPerLine ?? 0;
      events.push(line.kind === "invalid" ? `invalid ${line.raw}` : `${line.kind === "long" ? "long" : "line"} ${JSON.stringify(line.value)} @${at}`);
    },
    text: (text) => {
      events.push(`text ${text}`);
      return options.endSlice?.(text) ?? false;
    },
    out: (item) => events.push(`out ${item.raw}`),
    replayedOut: (item) => events.push(`replayed ${item.raw}`),
    closed: (code, opened) => events.push(`closed ${code} ${opened}`),
    longItems: (field, items) => events.push(`items ${field} ${items.length}`),
    idle: () => counts.idle++,
    sliceEnd: () => counts.sliceEnd++,
  };
  const queueOptions: InboundQueueOptions = {
    now: () => clock,
    hidden: () => options.hidden ?? false,
    budgetMs: 16,
    scheduler: () => ({ schedule: () => counts.schedule++, scheduleTask: () => counts.task++, cancel: () => counts.cancel++ }),
  };
  if (options.startLongLine !== undefined) queueOptions.startLongLine = options.startLongLine;
  const queue = new InboundQueue(handlers, queueOptions);
  return { queue, events, chunks, counts, streamed: () => streamed };
}

describe("inbound queue", () => {
  it("applies bytes, relay frames, sent commands and the close in arrival order, on the next frame", () => {
    const { queue, events, counts } = setup();
    queue.push({ kind: "bytes", bytes: bytes('{"n":1}\n{"n"'), at: 1 });
    queue.push({ kind: "text", text: "hello", at: 2 });
    queue.push({ kind: "out", raw: "cmd", value: {}, at: 3 });
    queue.push({ kind: "bytes", bytes: bytes(":2}\n"), at: 4 });
    queue.push({ kind: "replayed_out", raw: "old", at: 5 });
    queue.push({ kind: "closed", code: 1006, opened: true });
    expect(events).toEqual([]);
    expect(counts.schedule).toBe(6);
    queue.drain();
    expect(events).toEqual(['line {"n":1} @1', "text hello", "out cmd", 'line {"n":2} @4', "replayed old", "closed 1006 true"]);
    expect(counts.idle).toBe(1);
    expect(counts.sliceEnd).toBe(1);
    expect(queue.length).toBe(0);
  });

  it("stops a slice when its budget is spent, and goes on where it stopped on the next frame", () => {
    const { queue, events, counts } = setup({ msPerLine: 10 });
    queue.push({ kind: "bytes", bytes: bytes("1\n2\n3\n4\n5\n"), at: 7 });
    queue.push({ kind: "text", text: "after", at: 8 });
    const scheduledBefore = counts.schedule;
    queue.drain();
    // 0 → 10 ms (within 16) → 20 ms: over, the slice ends after the second line.
    expect(events).toEqual(["line 1 @7", "line 2 @7"]);
    expect(counts.schedule).toBe(scheduledBefore + 1);
    expect(counts.idle).toBe(0);
    queue.drain();
    expect(events).toEqual(["line 1 @7", "line 2 @7", "line 3 @7", "line 4 @7"]);
    // 40 → 50 ms for the last line; the text frame costs no time: all done.
    queue.drain();
    expect(events).toEqual(["line 1 @7", "line 2 @7", "line 3 @7", "line 4 @7", "line 5 @7", "text after"]);
    expect(counts.idle).toBe(1);
    expect(counts.sliceEnd).toBe(3);
  });

  it("decodes a big frame a slice at a time, but tells chunk about it once, whole", () => {
    const line = `${JSON.stringify({ pad: "x".repeat(1000) })}\n`;
    const big = bytes(line.repeat(Math.ceil((2.5 * DECODE_SLICE_BYTES) / line.length)));
    const { queue, events, chunks, counts, streamed } = setup({ msPerLine: 1 });
    queue.push({ kind: "bytes", bytes: big, at: 1 });
    queue.drain();
    // The budget ended the first slice inside the frame: fewer lines than it holds.
    const firstSlice = events.length;
    expect(firstSlice).toBeGreaterThan(0);
    expect(firstSlice).toBeLessThan(big.length / line.length);
    // Only the first slice of its bytes was handed to the decoder so far.
    expect(streamed()).toBe(DECODE_SLICE_BYTES);
    for (let i = 0; i < 100 && counts.idle === 0; i++) queue.drain();
    expect(events.length).toBe(big.length / line.length);
    expect(chunks).toEqual([big.length]);
    expect(streamed()).toBe(big.length);
  });

  it("ends the slice after a frame that starts or ends a replay, and runs the rest in a task of its own", () => {
    const { queue, events, counts } = setup({ endSlice: (text) => text === "hello" });
    queue.push({ kind: "text", text: "hello", at: 1 });
    queue.push({ kind: "bytes", bytes: bytes("1\n"), at: 2 });
    queue.drain();
    expect(events).toEqual(["text hello"]);
    expect(counts.task).toBe(1);
    queue.drain();
    expect(events).toEqual(["text hello", "line 1 @2"]);
  });

  it("keeps up at once in a hidden page (no frames come)", () => {
    const { queue, events, counts } = setup({ hidden: true, msPerLine: 100 });
    queue.push({ kind: "bytes", bytes: bytes("1\n2\n3\n"), at: 1 });
    expect(events).toEqual(["line 1 @1", "line 2 @1", "line 3 @1"]);
    expect(counts.schedule).toBe(0);
  });

  it("applies nothing while held, and everything in order once the hold is released", async () => {
    const { queue, events, counts } = setup();
    let release!: () => void;
    queue.holdUntil(new Promise<void>((resolve) => (release = resolve)), 60_000);
    queue.push({ kind: "text", text: "a", at: 1 });
    queue.drain();
    expect(events).toEqual([]);
    const scheduled = counts.schedule;
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(counts.schedule).toBe(scheduled + 1);
    queue.drain();
    expect(events).toEqual(["text a"]);
  });

  it("drops what was not applied on clear, and applies a last line without its newline on flush", () => {
    const { queue, events } = setup();
    queue.push({ kind: "text", text: "dropped", at: 1 });
    queue.clear();
    queue.drain();
    expect(events).toEqual([]);
    queue.push({ kind: "bytes", bytes: bytes('{"last":true}'), at: 3 });
    queue.drain();
    expect(events).toEqual([]);
    queue.flushDecoder(9);
    expect(events).toEqual(['line {"last":true} @9']);
  });

  it("forgets a partial line when the stream starts again", () => {
    const { queue, events } = setup();
    queue.push({ kind: "bytes", bytes: bytes('{"cut":'), at: 1 });
    queue.drain();
    queue.resetDecoder();
    queue.push({ kind: "bytes", bytes: bytes('{"n":1}\n'), at: 2 });
    queue.drain();
    expect(events).toEqual(['line {"n":1} @2']);
  });

  it("parses a long line off the thread and applies nothing after it until it is whole, in order", async () => {
    const entries = Array.from({ length: 2500 }, (_, n) => ({ type: "message", id: `e${n}`, parentId: n ? `e${n - 1}` : null }));
    const long = JSON.stringify({ id: "c:1", type: "response", command: "get_entries", success: true, data: { entries, leafId: "e2499" } });
    expect(long.length).toBeGreaterThan(LONG_LINE_BYTES / 16);
    let release: () => void = () => {};
    const parsed = new Promise<void>((resolve) => (release = resolve));
    const { start, given } = slowLongLines(parsed);
    const { queue, events } = setup({ startLongLine: start });
    // A long line (over 1 MiB: padded) between two short ones, in 64 KiB pieces as the queue decodes them.
    const padded = `${long.slice(0, -1)},"pad":"${"x".repeat(LONG_LINE_BYTES)}"}`;
    queue.push({ kind: "bytes", bytes: bytes(`{"n":1}\n${padded}\n{"n":2}\n`), at: 5 });
    queue.push({ kind: "text", text: "after", at: 6 });
    for (let i = 0; i < 40 && given.length === 0; i++) queue.drain();
    expect(given).toHaveLength(1);
    expect(new TextDecoder().decode(given[0]!)).toBe(padded);
    queue.drain();
    expect(events).toEqual(['line {"n":1} @5']);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    queue.drain();
    expect(events.slice(0, 3)).toEqual(['line {"n":1} @5', "items entries 500", "items entries 2000"]);
    expect(events[3]).toMatch(/^long \{"id":"c:1"/);
    expect(events.slice(4)).toEqual(['line {"n":2} @5', "text after"]);
  });

  it("forgets a long line being parsed when what was queued is dropped", async () => {
    let release: () => void = () => {};
    const parsed = new Promise<void>((resolve) => (release = resolve));
    const { queue, events } = setup({ startLongLine: slowLongLines(parsed).start });
    queue.push({ kind: "bytes", bytes: bytes(`"${"y".repeat(LONG_LINE_BYTES)}"\n`), at: 1 });
    for (let i = 0; i < 40; i++) queue.drain();
    queue.clear();
    queue.resetDecoder();
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    queue.push({ kind: "bytes", bytes: bytes('{"n":3}\n'), at: 2 });
    queue.drain();
    expect(events).toEqual(['line {"n":3} @2']);
  });
});
