// Reducer throughput: pi's stdout bytes → JsonlDecoder → session reducer,
// against bare JSON.parse of the same lines (the least any client must do).
// The capture is built from real pi 0.87.1 transcripts (web/test/fixtures),
// repeated until it holds at least 100,000 records, and fed in 64 KiB chunks
// as a pipe would deliver it. Prints medians and the ratio; asserts nothing.
import { readdirSync, readFileSync } from "node:fs";
import { JsonlDecoder } from "../shared-protocol/src/index.ts";
import { applyDecodedLine } from "../web/src/lib/session/reduce-record.ts";
import { createSessionState } from "../web/src/lib/session/session-state.ts";

const MIN_RECORDS = 100_000;
const CHUNK = 64 * 1024;
const ROUNDS = 7;

const fixtures = new URL("../web/test/fixtures/", import.meta.url);
const transcripts = readdirSync(fixtures)
  .filter((name) => name.endsWith(".jsonl"))
  .map((name) => readFileSync(new URL(name, fixtures), "utf8"));
if (transcripts.length === 0) throw new Error("no captured transcripts in web/test/fixtures");

const parts: string[] = [];
let records = 0;
while (records < MIN_RECORDS) {
  for (const text of transcripts) {
    parts.push(text.endsWith("\n") ? text : `${text}\n`);
    records += text.split("\n").filter(Boolean).length;
  }
}
const text = parts.join("");
const bytes = new TextEncoder().encode(text);
const chunks: Uint8Array[] = [];
for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.subarray(at, at + CHUNK));

function decodeAndReduce(): number {
  const decoder = new JsonlDecoder();
  const state = createSessionState();
  for (const chunk of chunks) for (const line of decoder.push(chunk)) applyDecodedLine(state, line);
  for (const line of decoder.end()) applyDecodedLine(state, line);
  return state.messages.length;
}

function bareParse(): number {
  let count = 0;
  for (const line of text.split("\n")) {
    if (line.length === 0) continue;
    JSON.parse(line);
    count++;
  }
  return count;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(run: () => number): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// Warm up both paths, then alternate them so drift hits both alike.
decodeAndReduce();
bareParse();
const reduceMs: number[] = [];
const parseMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  reduceMs.push(time(decodeAndReduce));
  parseMs.push(time(bareParse));
}
const reduce = median(reduceMs);
const parse = median(parseMs);
console.log(`reducer benchmark: ${records.toLocaleString("en")} records, ${(bytes.length / 1024 / 1024).toFixed(1)} MiB, ${ROUNDS} rounds (median)`);
console.log(`  JSON.parse per line:        ${parse.toFixed(1)} ms (${Math.round(records / (parse / 1000)).toLocaleString("en")} records/s)`);
console.log(`  JsonlDecoder + reducer:     ${reduce.toFixed(1)} ms (${Math.round(records / (reduce / 1000)).toLocaleString("en")} records/s)`);
console.log(`  ratio decode+reduce / parse: ${(reduce / parse).toFixed(2)}x`);
