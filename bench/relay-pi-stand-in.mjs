// A stand-in for `pi --mode rpc` in the relay benchmarks: it answers on
// stdout the way pi does (JSONL records), but streams as fast as its stdout
// pipe takes bytes, which a real pi (bounded by a model) never could.
//
// The records are real pi records: every transcript in web/test/fixtures/,
// played in a loop. Commands (one JSON object per stdin line):
//   {"type":"prompt","id":…,"message":"stream <bytes>"}  answers, then writes
//       whole records until at least <bytes> are out, then the end marker
//       line `{"type":"pier_bench_end"}`;
//   anything else with an id gets `{"type":"response",…,"success":true}`.
// pi's own arguments (--mode rpc, session flags) are ignored. Ends on stdin
// EOF or SIGTERM, like pi.
import { readdirSync, readFileSync } from "node:fs";
import { once } from "node:events";

export const END_MARKER = '{"type":"pier_bench_end"}\n';

const fixtures = new URL("../web/test/fixtures/", import.meta.url);
const records = Buffer.concat(
  readdirSync(fixtures)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => readFileSync(new URL(name, fixtures))),
);

async function write(bytes) {
  if (!process.stdout.write(bytes)) await once(process.stdout, "drain");
}

async function stream(total) {
  let sent = 0;
  while (sent < total) {
    // Whole copies of the transcripts, then whole records of the last one.
    let piece = records;
    if (total - sent < records.length) {
      const lf = records.indexOf(0x0a, total - sent - 1);
      piece = records.subarray(0, lf + 1);
    }
    await write(piece);
    sent += piece.length;
  }
  await write(END_MARKER);
}

let partial = "";
let queue = Promise.resolve();
process.stdin.setEncoding("utf8");
process.stdin.on("data", (text) => {
  const lines = (partial + text).split("\n");
  partial = lines.pop() ?? "";
  for (const line of lines) queue = queue.then(() => handle(line));
});
process.stdin.on("end", () => void queue.then(() => process.exit(0)));
process.on("SIGTERM", () => process.exit(0));

async function handle(line) {
  let command;
  try {
    command = JSON.parse(line);
  } catch {
    return write('{"type":"response","command":"parse","success":false,"error":"not JSON"}\n');
  }
  // In pi's order (rpc-mode.js: id first), which the relay reads to route an answer to whoever asked.
  const answer = { ...(command.id !== undefined ? { id: command.id } : {}), type: "response", command: command.type, success: true };
  await write(`${JSON.stringify(answer)}\n`);
  const match = command.type === "prompt" && /^stream (\d+)$/.exec(command.message ?? "");
  if (match) await stream(Number(match[1]));
}
