// Throughput of what the page does with each record pi sends: pi's stdout
// bytes → JsonlDecoder → settling (web/src/lib/relay/settle-records.ts) →
// session reducer → record log, against the least any client must do: bare
// JSON.parse of the same lines, already split, one string per line.
//
// The capture is real pi 0.87.1 output (web/test/fixtures), repeated until
// it holds at least 100,000 records, as ONE growing session: the records
// that would start another session (get_state answers naming another
// session id, new_session…) are left out, and tool call ids are made unique
// per repetition, so messages and tool executions pile up as in a long day
// of work (a reducer that does O(session) work per record shows here). It is
// fed in 64 KiB chunks, as a pipe delivers it. Prints medians and throughput
// ratios (higher is better, 1.00 = as fast as JSON.parse alone); asserts nothing.
import { readdirSync, readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { JsonlDecoder } from "../shared-protocol/src/index.ts";
import { settleRecord } from "../web/src/lib/relay/settle-records.ts";
import { applyDecodedLine } from "../web/src/lib/session/reduce-record.ts";
import { appendLog, createRecordLog, logSize } from "../web/src/lib/session/record-log.ts";
import { createSessionState } from "../web/src/lib/session/session-state.ts";

const MIN_RECORDS = 100_000;
const CHUNK = 64 * 1024;
const ROUNDS = 11;

// Each timed run starts from a collected heap: what one run leaves behind
// (a whole session) must not be collected on the next one's clock.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
/** Answers that would move the reducer to another session (and so empty it). */
const SESSION_SWITCHES = new Set(["get_state", "new_session", "switch_session", "fork", "clone"]);

const fixtures = new URL("../web/test/fixtures/", import.meta.url);
const transcripts = readdirSync(fixtures)
  .filter((name) => name.endsWith(".jsonl"))
  .map((name) => readFileSync(new URL(name, fixtures), "utf8"));
if (transcripts.length === 0) throw new Error("no captured transcripts in web/test/fixtures");

const lines: string[] = [];
for (let round = 0; lines.length < MIN_RECORDS; round++) {
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

function bareParse(): number {
  let count = 0;
  for (const line of lines) {
    JSON.parse(line);
    count++;
  }
  return count;
}

function decodeAndReduce(withLog: boolean) {
  const decoder = new JsonlDecoder();
  const state = createSessionState();
  const log = createRecordLog();
  const apply = (line: ReturnType<JsonlDecoder["push"]>[number]) => {
    if (withLog) appendLog(log, "in", line.raw, line.kind === "record" ? line.value : undefined);
    if (line.kind === "record") settleRecord(line.value);
    applyDecodedLine(state, line);
  };
  for (const chunk of chunks) for (const line of decoder.push(chunk)) apply(line);
  for (const line of decoder.end()) apply(line);
  return { messages: state.messages.length, tools: Object.keys(state.tools).length, logged: logSize(log) };
}

function decodeOnly(): number {
  const decoder = new JsonlDecoder();
  let count = 0;
  for (const chunk of chunks) count += decoder.push(chunk).length;
  return count + decoder.end().length;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(run: () => unknown): number {
  collectGarbage();
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// Warm up every path, then alternate them so drift on the machine hits all alike.
const end = decodeAndReduce(true);
decodeAndReduce(false);
decodeOnly();
bareParse();
const parseMs: number[] = [];
const fullMs: number[] = [];
const noLogMs: number[] = [];
const decodeMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  parseMs.push(time(bareParse));
  fullMs.push(time(() => decodeAndReduce(true)));
  noLogMs.push(time(() => decodeAndReduce(false)));
  decodeMs.push(time(decodeOnly));
}
const records = lines.length;
const mib = bytes.length / 1024 / 1024;
const rate = (ms: number) => `${Math.round(records / (ms / 1000)).toLocaleString("en").padStart(9)} records/s, ${(mib / (ms / 1000)).toFixed(0).padStart(4)} MiB/s`;
const parse = median(parseMs);
const full = median(fullMs);
const noLog = median(noLogMs);
const decode = median(decodeMs);
console.log(
  `reducer benchmark: ${records.toLocaleString("en")} records, ${mib.toFixed(1)} MiB, one growing session ` +
    `(${end.messages.toLocaleString("en")} messages, ${end.tools.toLocaleString("en")} tool runs at the end), ${ROUNDS} rounds (median)`,
);
console.log(`  JSON.parse of the split lines:      ${parse.toFixed(1).padStart(7)} ms  ${rate(parse)}`);
console.log(`  decode + reduce + log:              ${full.toFixed(1).padStart(7)} ms  ${rate(full)}`);
console.log(`  decode + reduce (no log):           ${noLog.toFixed(1).padStart(7)} ms  ${rate(noLog)}`);
console.log(`  decode only (JsonlDecoder):         ${decode.toFixed(1).padStart(7)} ms  ${rate(decode)}`);
console.log(`  throughput ratio, decode + reduce + log ÷ JSON.parse: ${(parse / full).toFixed(2)} (higher is better)`);
console.log(`  throughput ratio, decode + reduce ÷ JSON.parse:       ${(parse / noLog).toFixed(2)}`);
console.log(`  throughput ratio, decode only ÷ JSON.parse:           ${(parse / decode).toFixed(2)} (UTF-8 decoding and framing, which pre-split strings skip)`);
