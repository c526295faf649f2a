// What cutting reads' answers out of pi's stdout costs the relay per GB
// (relay/src/response-router.ts), in this process: real pi records (every
// transcript in web/test/fixtures/) cut into 64 KiB reads as a pipe would,
// pushed through the router with no read pending (the usual case: one look
// at each chunk's last byte), with reads pending all along that pi never
// answers (every line start is compared with `{"id":"`), and with a pending
// read answered in every chunk (its answer cut out). A bare pass-through
// sets the floor. Prints ms per GB; asserts nothing.
import { readdirSync, readFileSync } from "node:fs";
import { ResponseRouter } from "../relay/src/response-router.ts";

const GB = 1024 ** 3;
const CHUNK = 64 * 1024;
const ROUNDS = 5;

const fixtures = new URL("../web/test/fixtures/", import.meta.url);
const records = Buffer.concat(
  readdirSync(fixtures)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => readFileSync(new URL(name, fixtures))),
);
const chunks: Buffer[] = [];
for (let at = 0; at < records.length; at += CHUNK) chunks.push(records.subarray(at, at + CHUNK));
const lines = records.toString("utf8").split("\n").length;

type Sink = { shared(bytes: Buffer): void; routed(owner: number, bytes: Buffer, end: boolean): void; answered(owner: number, id: string): void };

function run(label: string, setup: (router: ResponseRouter<number>) => (index: number) => void): void {
  let sharedBytes = 0;
  const sink: Sink = { shared: (bytes) => void (sharedBytes += bytes.length), routed: () => {}, answered: () => {} };
  const timings: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const router = new ResponseRouter<number>(sink);
    const beforeChunk = setup(router);
    let pushed = 0;
    const started = performance.now();
    for (let pass = 0; pushed < GB / 4; pass++) {
      for (let i = 0; i < chunks.length; i++) {
        beforeChunk(i);
        // A fresh view each time: the router may hand the chunk on whole.
        router.push(chunks[i]!.subarray(0));
        pushed += chunks[i]!.length;
      }
    }
    timings.push(((performance.now() - started) / pushed) * GB);
  }
  timings.sort((a, b) => a - b);
  console.log(`${label.padEnd(58)} ${timings[Math.floor(ROUNDS / 2)]!.toFixed(0).padStart(6)} ms per GB (median of ${ROUNDS})`);
  void sharedBytes;
}

console.log(`${(records.length / 1024 / 1024).toFixed(1)} MB of pi records (${lines} lines), in ${CHUNK / 1024} KiB reads\n`);
let floorSink = 0;
{
  const timings: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let pushed = 0;
    const started = performance.now();
    while (pushed < GB / 4) for (const chunk of chunks) ((floorSink += chunk.subarray(0).length), (pushed += chunk.length));
    timings.push(((performance.now() - started) / pushed) * GB);
  }
  timings.sort((a, b) => a - b);
  console.log(`${"bare pass-through (the floor)".padEnd(58)} ${timings[Math.floor(ROUNDS / 2)]!.toFixed(0).padStart(6)} ms per GB`);
}
run("router, no read pending", () => () => {});
run("router, 8 reads pending that pi never answers", (router) => {
  for (let i = 0; i < 8; i++) router.expect(`viewer:${i}`, "get_messages", i);
  return () => {};
});
const answer = Buffer.from(`{"id":"v:0","type":"response","command":"get_state","success":true,"data":{"x":1}}\n`);
run("router, a read answered in every 64 KiB read", (router) => {
  let seq = 0;
  return () => {
    const id = `v:${++seq}`;
    router.expect(id, "get_state", seq);
    router.push(Buffer.from(answer.toString().replace('"v:0"', JSON.stringify(id))));
  };
});
void floorSink;
