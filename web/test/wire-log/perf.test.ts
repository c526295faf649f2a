// How much the inspector's models cost per record, next to the reducer the
// chat needs anyway. Prints timings; asserts only that everything ran (times
// depend on the machine, and a shared 2-core box is noisy).
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { lessonFor } from "../../src/lib/wire-log/lessons.ts";
import { describeEffect } from "../../src/lib/wire-log/meaning.ts";
import { applyPairing, createPairing } from "../../src/lib/wire-log/pairing.ts";
import { applyTimeline, createTimeline, visibleBars } from "../../src/lib/wire-log/timeline.ts";
import type { WireEntry } from "../../src/lib/wire-log/wire-entry.ts";
import { applyRecord } from "../../src/lib/pi-state/reduce-record.ts";
import { createSessionState } from "../../src/lib/pi-state/session-state.ts";
import { fixtureEntries, fixtureNames } from "./support.ts";

const TOTAL = 100_000;

function workload(): WireEntry[] {
  const entries: WireEntry[] = [];
  let seq = 0;
  let at = 1_700_000_000_000;
  while (entries.length < TOTAL) {
    for (const name of fixtureNames()) {
      for (const e of fixtureEntries(name, { firstSeq: seq + 1, startAt: at, step: 1 })) {
        entries.push(e);
        seq = e.seq;
        at = e.at;
        if (entries.length === TOTAL) return entries;
      }
    }
  }
  return entries;
}

function deltaStream(n: number): WireEntry[] {
  const entries: WireEntry[] = [];
  const push = (value: unknown) => entries.push({ seq: entries.length + 1, at: 1_700_000_000_000 + entries.length, direction: "in", raw: "", value });
  push({ type: "agent_start" });
  push({ type: "turn_start" });
  push({ type: "message_start", message: { role: "assistant", content: [], stopReason: "pending" } });
  for (let i = 0; i < n; i++) push({ type: "message_update", usage: {}, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "word " } });
  push({ type: "message_end", message: { role: "assistant", content: [{ type: "text", text: "word ".repeat(n) }], stopReason: "stop" } });
  push({ type: "turn_end", message: {}, toolResults: [] });
  push({ type: "agent_end", messages: [], willRetry: false });
  push({ type: "agent_settled" });
  return entries;
}

function time(label: string, entries: readonly WireEntry[], step: (e: WireEntry) => void): number {
  const start = performance.now();
  for (const e of entries) step(e);
  const ms = performance.now() - start;
  const perRecordUs = (ms * 1000) / entries.length;
  console.log(`${label.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms  ${perRecordUs.toFixed(2).padStart(6)} µs/record`);
  return perRecordUs;
}

// It prints costs and asserts none: the timeout only has to outlast a busy
// machine (it took 6.8 s, over vitest's default 5 s, on two shared cores).
describe("inspector cost per record", { timeout: 60_000 }, () => {
  it(`feeds ${TOTAL.toLocaleString("en")} captured records through reducer, pairing, timeline, meaning and lessons`, () => {
    const entries = workload();
    const fromPi = entries.filter((e) => e.direction === "in");
    console.log(`\n${entries.length} entries (${fromPi.length} from pi), fixtures repeated:`);
    const state = createSessionState();
    const pairing = createPairing();
    const timeline = createTimeline();
    time("reducer (applyRecord, for scale)", fromPi, (e) => applyRecord(state, e.value));
    time("pairing", entries, (e) => applyPairing(pairing, e));
    time("timeline", entries, (e) => applyTimeline(timeline, e));
    time("lessonFor", entries, (e) => void lessonFor(e));
    const meaningState = createSessionState();
    let chars = 0;
    time("reducer + describeEffect", fromPi, (e) => {
      applyRecord(meaningState, e.value);
      chars += describeEffect(e.value, meaningState).text.length;
    });
    const start = performance.now();
    const last = entries[entries.length - 1]!.at;
    let visible = 0;
    for (let i = 0; i < 1000; i++) visible += visibleBars(timeline, last - 5000 - i * 50, last - i * 50).length;
    console.log(`visibleBars, 5 s window             ${((performance.now() - start) / 1000).toFixed(3)} ms/query`);
    expect(chars).toBeGreaterThan(0);
    expect(visible).toBeGreaterThan(0);
    expect(pairing.pairs.size).toBeLessThanOrEqual(5000);
  });

  it("keeps up with a 20,000-delta answer", () => {
    const entries = deltaStream(20_000);
    console.log(`\n${entries.length} entries of one streamed answer:`);
    const state = createSessionState();
    const pairing = createPairing();
    const timeline = createTimeline();
    time("reducer", entries, (e) => applyRecord(state, e.value));
    time("pairing", entries, (e) => applyPairing(pairing, e));
    time("timeline", entries, (e) => applyTimeline(timeline, e));
    const meaningState = createSessionState();
    time("reducer + describeEffect", entries, (e) => {
      applyRecord(meaningState, e.value);
      describeEffect(e.value, meaningState);
    });
    expect(state.status).toBe("idle");
  });
});
