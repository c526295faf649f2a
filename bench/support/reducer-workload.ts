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
//
// What the records are reduced into is the caller's: in Node plain objects
// (createSessionState), in Chromium also the page's own store, the Svelte
// `$state` the connection holds the session in (session-store.svelte.ts).
// The anchor is a bytes client: TextDecoder, split and JSON.parse on the
// same chunks, the least any client of pi's stdout does.
import { JsonlDecoder, type DecodedLine } from "../../shared-protocol/src/jsonl-decoder.ts";
import { settleRecord } from "../../web/src/lib/relay/settle-records.ts";
import { applyDecodedLine } from "../../web/src/lib/pi-state/reduce-record.ts";
import { appendLog, createRecordLog, logSize } from "../../web/src/lib/pi-state/record-log.ts";
import type { SessionState } from "../../web/src/lib/pi-state/session-state.ts";

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

/**
 * The least a client of pi's byte stream does, two ways: split the chunk's
 * bytes at LF, then TextDecoder and JSON.parse each line (the faster in
 * Chromium); or TextDecoder each chunk (streaming, so a character cut by
 * the chunk's end stays whole), split the text at LF and JSON.parse each
 * piece. The anchor is the faster of the two.
 */
function bytesClient(workload: Workload): number {
  const utf8 = new TextDecoder();
  let held: Uint8Array | null = null;
  let count = 0;
  for (const chunk of workload.chunks) {
    let bytes = chunk;
    if (held !== null) {
      bytes = new Uint8Array(held.length + chunk.length);
      bytes.set(held);
      bytes.set(chunk, held.length);
      held = null;
    }
    let start = 0;
    for (let lf = bytes.indexOf(0x0a); lf !== -1; lf = bytes.indexOf(0x0a, start)) {
      if (lf > start) {
        JSON.parse(utf8.decode(bytes.subarray(start, lf)));
        count++;
      }
      start = lf + 1;
    }
    if (start < bytes.length) held = bytes.slice(start);
  }
  if (held !== null) {
    JSON.parse(utf8.decode(held));
    count++;
  }
  return count;
}

function textClient(workload: Workload): number {
  const utf8 = new TextDecoder();
  let carry = "";
  let count = 0;
  for (const chunk of workload.chunks) {
    const lines = (carry + utf8.decode(chunk, { stream: true })).split("\n");
    carry = lines.pop()!;
    for (const line of lines) {
      if (line.length === 0) continue;
      JSON.parse(line);
      count++;
    }
  }
  carry += utf8.decode();
  if (carry.length > 0) {
    JSON.parse(carry);
    count++;
  }
  return count;
}

/** A session state to reduce into, and its name in the report. */
export interface StateKind {
  name: string;
  create: () => SessionState;
  /**
   * Called after each chunk: the page's store flushes Svelte's pending
   * updates here (flushSync), as the page does after each slice of work it
   * applies (a task of at most 16 ms, a 64 KiB chunk or less of a fast
   * stream), instead of gathering 100,000 records' writes in one batch.
   */
  flush?: () => void;
}

/** What the page does with each record: decode, settle, reduce, and (withLog) log it. */
function decodeAndReduce(workload: Workload, kind: StateKind, withLog: boolean) {
  const decoder = new JsonlDecoder();
  const state = kind.create();
  const flush = kind.flush ?? (() => {});
  const log = createRecordLog();
  const apply = (line: DecodedLine) => {
    if (withLog) appendLog(log, "in", line.raw, line.kind === "record" ? line.value : undefined);
    if (line.kind === "record") settleRecord(line.value);
    applyDecodedLine(state, line);
  };
  for (const chunk of workload.chunks) {
    for (const line of decoder.push(chunk)) apply(line);
    flush();
  }
  for (const line of decoder.end()) apply(line);
  flush();
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

/** One timed run: its name in the report, and the work. */
export interface Run {
  name: string;
  run: () => unknown;
}

/**
 * The runs to time, after one warm-up of each; every kind of state must end
 * as the first does (the same messages and tool runs), or this throws. The
 * anchor comes first, then the page's work into each kind of state, with
 * and without the log, then its parts. The first two are the anchor's two
 * ways (see bytesClient).
 */
export function reducerRuns(workload: Workload, states: readonly StateKind[]): Run[] {
  if (states.length === 0) throw new Error("no session state to reduce into");
  const runs: Run[] = [
    { name: "anchor: split bytes at LF, TextDecoder + parse", run: () => bytesClient(workload) },
    { name: "anchor: TextDecoder chunk, split text, parse", run: () => textClient(workload) },
  ];
  for (const kind of states) runs.push({ name: `decode + reduce + log, ${kind.name}`, run: () => decodeAndReduce(workload, kind, true) });
  for (const kind of states) runs.push({ name: `decode + reduce (no log), ${kind.name}`, run: () => decodeAndReduce(workload, kind, false) });
  runs.push({ name: "decode only (JsonlDecoder)", run: () => decodeOnly(workload) });
  runs.push({ name: "UTF-8 decoding alone (TextDecoder)", run: () => utf8Only(workload) });
  runs.push({ name: "JSON.parse of the lines already split", run: () => bareParse(workload) });
  const first = decodeAndReduce(workload, states[0]!, true);
  for (const kind of states) {
    const got = decodeAndReduce(workload, kind, true);
    if (got.messages !== first.messages || got.tools !== first.tools) {
      throw new Error(`${kind.name}: ${got.messages} messages and ${got.tools} tool runs, not ${first.messages} and ${first.tools}`);
    }
  }
  for (const { run } of runs) run();
  return runs;
}

/** The session a run into the first kind of state ends with (for the report). */
export function sessionSize(workload: Workload, state: StateKind): { messages: number; tools: number } {
  const { messages, tools } = decodeAndReduce(workload, state, false);
  return { messages, tools };
}

/** A run's cost: wall time, and CPU time (all threads; the main thread alone) where it is known (null where not). */
export interface Sample {
  wallMs: number;
  cpuMs: number | null;
  mainMs: number | null;
}

export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
