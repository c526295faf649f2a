// A capture read in slices after it opened (capture-progress.ts): the same
// events, times and record counts as a capture read whole, and a bad line
// past the first slice refused with the sentence naming it.
import { describe, expect, it } from "vitest";
import { CaptureWriter } from "../../src/lib/wire-log/capture.ts";
import { openCaptureProgressively, openCaptureText, type OpenedCapture } from "../../src/lib/replay/open-capture.ts";
import type { ProgressOptions } from "../../src/lib/replay/capture-progress.ts";

const START = Date.parse("2026-12-01T10:00:00.000Z");
const encoder = new TextEncoder();

/** 200 events of every kind, lines cut across chunks, a restart of pi's stream. */
function capture(): string {
  const writer = new CaptureWriter({ startedAt: START, pier: "0.1.0" });
  writer.addFrame(JSON.stringify({ type: "hello", clientId: "c1" }), START);
  for (let i = 0; i < 66; i++) {
    writer.addSent(JSON.stringify({ id: `c1:${i}`, type: "get_state" }), START + i * 3);
    writer.addBytes(encoder.encode(`{"type":"response","id":"c1:${i}","command":"get_state","success":true}\n{"type":`), START + i * 3 + 1);
    writer.addBytes(encoder.encode('"agent_start"}\n'), START + i * 3 + 2);
  }
  writer.addFrame(JSON.stringify({ type: "child_exited", code: 0 }), START + 300);
  writer.finish();
  return writer.text();
}

/** Slices run only when the test says: one event each (sliceMs 0 stops after every event). */
function manual(): { options: ProgressOptions; runAll: () => number } {
  const queue: (() => void)[] = [];
  return {
    options: { fromChars: 0, firstSliceMs: 0, sliceMs: 0, schedule: (next) => queue.push(next) },
    runAll: () => {
      let slices = 0;
      for (let next = queue.shift(); next !== undefined; next = queue.shift(), slices++) next();
      return slices;
    },
  };
}

function open(text: string, options: ProgressOptions): OpenedCapture {
  const result = openCaptureProgressively("big.jsonl", text, options);
  if (!result.ok) throw new Error(result.message);
  return result.capture;
}

describe("a capture read in slices", () => {
  it("opens on its first events, then holds exactly what a whole read gives", () => {
    const text = capture();
    const whole = openCaptureText("big.jsonl", text);
    if (!whole.ok) throw new Error(whole.message);
    const { options, runAll } = manual();
    const lazy = open(text, options);
    const progress = lazy.progress!;
    expect(progress.read).toBe(1);
    expect(progress.expected).toBe(200);
    expect(lazy.items.length).toBe(200); // room for every line: a feed to the end is the capture's end only once read
    let told = 0;
    progress.onChange(() => told++);
    expect(runAll()).toBe(200);
    expect(told).toBe(200);
    expect([progress.done, progress.error, progress.read, progress.fraction]).toEqual([true, null, 200, 1]);
    expect(lazy.items).toEqual(whole.capture.items);
    expect([...lazy.times]).toEqual([...whole.capture.times]);
    expect([...lazy.recordEnds]).toEqual([...whole.capture.recordEnds]);
    expect(lazy.source.layout).toEqual(whole.capture.source.layout);
  });

  it("refuses a bad line past the first slice with the sentence a whole read gives, keeping only the events before it", () => {
    const lines = capture().split("\n");
    lines[150] = '{"t":200,"k":"bytes","b":"not base64!"}';
    const text = lines.join("\n");
    const whole = openCaptureText("big.jsonl", text);
    expect(whole).toEqual({ ok: false, message: 'big.jsonl cannot be replayed: Line 151: "b" is not valid base64.' });
    const { options, runAll } = manual();
    const lazy = open(text, options);
    runAll();
    const progress = lazy.progress!;
    expect(progress.error).toBe(!whole.ok && whole.message);
    expect(progress.done).toBe(true);
    // Line 151 is event 150: the 149 events before it, each checked.
    expect([progress.read, progress.expected, lazy.items.length, lazy.times.length, lazy.recordEnds.length]).toEqual([149, 149, 149, 149, 149]);
  });

  it("reads a small file, or one with notes, whole before it opens", () => {
    const text = capture();
    const small = openCaptureProgressively("small.jsonl", text);
    expect(small.ok && small.capture.progress).toBeNull();
    const lines = text.split("\n");
    lines[0] = lines[0]!.replace('"version":1', '"version":2');
    const walk = openCaptureProgressively("walk.jsonl", `${lines.join("\n")}${JSON.stringify({ k: "note", at: 3, text: "here" })}\n`, manual().options);
    expect(walk.ok && walk.capture.progress).toBeNull();
    expect(walk.ok && walk.capture.notes.map((n) => n.at)).toEqual([3]);
  });
});
