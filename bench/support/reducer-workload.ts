// The reducer benchmark's workload and its timed runs, shared by the run in
// Node and the run in Chromium (bench/reducer.bench.ts bundles this file for
// the page): the same code measures the same work in both engines.
//
// The workload is real pi output, repeated until it holds at least
// `minRecords` records, as ONE growing session: the records that would start
// another session (get_state answers naming another session id,
// new_session…) are left out, and tool call ids are made unique per
// repetition, so messages and tool executions pile up as in a long day of
// work (a reducer that does O(session) work per record shows here). It is
// fed in 64 KiB chunks, as a pipe delivers it.
import { JsonlDecoder, type DecodedLine } from "../../shared-protocol/src/jsonl-decoder.ts";
import { settleRecord } from "../../web/src/lib/relay/settle-records.ts";
import { applyDecodedLine } from "../../web/src/lib/pi-state/reduce-record.ts";
import { appendLog, createRecordLog, logSize } from "../../web/src/lib/pi-state/record-log.ts";
import { createSessionState } from "../../web/src/lib/pi-state/session-state.ts";

const CHUNK = 64 * 1024;
/** Answers that would move the reducer to another session (and so empty it). */
const SESSION_SWITCHES = new Set(["get_state", "new_session", "switch_session", "fork", "clone"]);

export interface Workload {
  /** The records, one string per line: what the JSON.parse baseline gets. */
  lines: string[];
  /** The same records as UTF-8 bytes in pipe-sized chunks: what the page gets. */
  chunks: Uint8Array[];
  bytes: number;
}

export function buildWorkload(transcripts: readonly string[], minRecords: number): Workload {
  if (transcripts.length === 0) throw new Error("no captured transcripts to build the workload from");
  const lines: string[] = [];
  for (let round = 0; lines.length < minRecords; round++) {
    for (const text of transcripts) {
      for (const line of text.split("\n")) {
        if (line.length === 0) continue;
        const record = JSON.parse(line) as { type?: unknown; command?: unknown };
        if (record.type === "response" && SESSION_SWITCHES.has(String(record.command))) continue;
        lines.push(line.replaceAll('"call_', `"call_r${round}_`));
      }
    }
  }
  const bytes = new TextEncoder().encode(`${lines.join("\n")}\n`);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.subarray(at, at + CHUNK));
  return { lines, chunks, bytes: bytes.length };
}

/** The least any client must do: JSON.parse of the lines, already split. */
function bareParse(workload: Workload): number {
  let count = 0;
  for (const line of workload.lines) {
    JSON.parse(line);
    count++;
  }
  return count;
}

/** What the page does with each record: decode, settle, reduce, and (withLog) log it. */
function decodeAndReduce(workload: Workload, withLog: boolean) {
  const decoder = new JsonlDecoder();
  const state = createSessionState();
  const log = createRecordLog();
  const apply = (line: DecodedLine) => {
    if (withLog) appendLog(log, "in", line.raw, line.kind === "record" ? line.value : undefined);
    if (line.kind === "record") settleRecord(line.value);
    applyDecodedLine(state, line);
  };
  for (const chunk of workload.chunks) for (const line of decoder.push(chunk)) apply(line);
  for (const line of decoder.end()) apply(line);
  return { messages: state.messages.length, tools: Object.keys(state.tools).length, logged: logSize(log) };
}

function decodeOnly(workload: Workload): number {
  const decoder = new JsonlDecoder();
  let count = 0;
  for (const chunk of workload.chunks) count += decoder.push(chunk).length;
  return count + decoder.end().length;
}

/**
 * UTF-8 decoding alone, the fastest way the engine has: one TextDecoder call
 * per chunk, no framing. Any client of pi's byte stream pays at least this
 * on top of JSON.parse, which the baseline's ready-made strings skip.
 * (One-shot calls, faster than the streaming mode in Node: a character cut
 * by a chunk's end comes out as U+FFFD, which costs the same.)
 */
function utf8Only(workload: Workload): number {
  const utf8 = new TextDecoder();
  let chars = 0;
  for (const chunk of workload.chunks) chars += utf8.decode(chunk).length;
  return chars;
}

export interface ReducerTimings {
  records: number;
  bytes: number;
  rounds: number;
  /** The session at the end of a run. */
  messages: number;
  tools: number;
  /** Median milliseconds of each run. */
  parseMs: number;
  fullMs: number;
  noLogMs: number;
  decodeMs: number;
  utf8Ms: number;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Times every run `rounds` times, alternating them so drift on the machine
 * hits all alike, each from a collected heap (what one run leaves behind, a
 * whole session, must not be collected on the next one's clock).
 */
export function timeReducer(workload: Workload, rounds: number, collectGarbage: () => void, now: () => number): ReducerTimings {
  const time = (run: () => unknown): number => {
    collectGarbage();
    const start = now();
    run();
    return now() - start;
  };
  // Warm up every path first.
  const end = decodeAndReduce(workload, true);
  decodeAndReduce(workload, false);
  decodeOnly(workload);
  utf8Only(workload);
  bareParse(workload);
  const parseMs: number[] = [];
  const fullMs: number[] = [];
  const noLogMs: number[] = [];
  const decodeMs: number[] = [];
  const utf8Ms: number[] = [];
  for (let round = 0; round < rounds; round++) {
    parseMs.push(time(() => bareParse(workload)));
    fullMs.push(time(() => decodeAndReduce(workload, true)));
    noLogMs.push(time(() => decodeAndReduce(workload, false)));
    decodeMs.push(time(() => decodeOnly(workload)));
    utf8Ms.push(time(() => utf8Only(workload)));
  }
  return {
    records: workload.lines.length,
    bytes: workload.bytes,
    rounds,
    messages: end.messages,
    tools: end.tools,
    parseMs: median(parseMs),
    fullMs: median(fullMs),
    noLogMs: median(noLogMs),
    decodeMs: median(decodeMs),
    utf8Ms: median(utf8Ms),
  };
}
