// What `pier tap` costs the RPC client it sits under, side by side in one
// run with the same client talking to the child directly:
//
// 1. Latency: a round trip client → pi → client for get_state (a real pi,
//    the pinned 0.87.1, offline with the demo model's config), ROUND_TRIPS
//    calls one after the other, median and p95, tap vs direct. During the
//    tap's run a viewer (a WebSocket client reading as fast as it can) is
//    connected, so the tap's fan-out work is counted.
// 2. Throughput: 256 MB of real pi records from the relay benchmarks'
//    stand-in pi (bench/relay-pi-stand-in.mjs), read by the client as fast
//    as it can, tap ÷ direct, again with a viewer on the tap.
//
// PIER_BENCH_TAP_VIEWER=0 leaves the viewer out (it reads in this same
// process, beside the client, so on a small machine it takes CPU from the
// client too). Rounds alternate (direct, tap, then tap, direct) so a
// machine getting busier or quieter favours neither side. Prints, asserts
// nothing.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createDemoAgentDir } from "../relay/src/demo/agent-dir.ts";
import { connectBrowser, exchangeToken, PIER_BIN, type Browser, type RunningPier } from "../relay/test/support/pier-process.ts";
import { piCliPathFor } from "../relay/test/support/pi-under-test.ts";

const ROUND_TRIPS = 200;
const WARM_UP = 20;
const STREAM_BYTES = 256 * 1024 * 1024;
const STAND_IN = fileURLToPath(new URL("./relay-pi-stand-in.mjs", import.meta.url));
const END_MARKER = Buffer.from('{"type":"pier_bench_end"}\n');
const WITH_VIEWER = process.env["PIER_BENCH_TAP_VIEWER"] !== "0";
const VIEWER_NOTE = WITH_VIEWER ? "a viewer on the tap" : "no viewer";
const LINK_LINE = /pier tap: read-only inspector of this conversation: (http:\S+)/;

type Side = "direct" | "tap";

/** The child as the client starts it: directly, or under `pier tap --`. */
function startClientSide(side: Side, command: string[], env: NodeJS.ProcessEnv): { child: ChildProcessWithoutNullStreams; stderr: () => string } {
  const argv = side === "direct" ? command : [process.execPath, PIER_BIN, "tap", "--", ...command];
  const child = spawn(argv[0]!, argv.slice(1), { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return { child, stderr: () => stderr };
}

async function viewerOn(stderr: () => string): Promise<Browser> {
  let url: string | undefined;
  while ((url = LINK_LINE.exec(stderr())?.[1]) === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
  const parsed = new URL(url);
  const port = Number(parsed.port);
  const pier = { url, origin: `http://${parsed.host}`, host: parsed.host, hostname: parsed.hostname, port, cookie: await exchangeToken(url, port) } as RunningPier;
  return connectBrowser(pier, { parseRecords: false });
}

async function ended(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin.end();
  await new Promise((resolve) => child.once("close", resolve));
}

/** Milliseconds of each get_state round trip, after a warm-up. */
async function latency(side: Side): Promise<number[]> {
  const agent = await createDemoAgentDir({ modelServerUrl: "http://127.0.0.1:9/v1" });
  const { child, stderr } = startClientSide(side, [process.execPath, piCliPathFor("0.87.1"), "--mode", "rpc", "--no-session"], {
    PI_CODING_AGENT_DIR: agent.dir,
    PI_OFFLINE: "1",
  });
  const viewer = side === "tap" && WITH_VIEWER ? await viewerOn(stderr) : null;
  let buffered = "";
  let waiting: { id: string; resolve: () => void } | null = null;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text: string) => {
    buffered += text;
    let lf: number;
    while ((lf = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, lf);
      buffered = buffered.slice(lf + 1);
      if (waiting !== null && line.includes(`"id":"${waiting.id}"`)) waiting.resolve();
    }
  });
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + ROUND_TRIPS; i++) {
    const id = `b${i}`;
    const answered = new Promise<void>((resolve) => (waiting = { id, resolve }));
    const start = process.hrtime.bigint();
    child.stdin.write(`{"type":"get_state","id":"${id}"}\n`);
    await answered;
    if (i >= WARM_UP) times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  await viewer?.close();
  await ended(child);
  await agent.cleanup();
  return times;
}

/** Seconds to read STREAM_BYTES of records through this side. */
async function throughput(side: Side): Promise<number> {
  const { child, stderr } = startClientSide(side, [process.execPath, STAND_IN], {});
  const viewer = side === "tap" && WITH_VIEWER ? await viewerOn(stderr) : null;
  let tail = Buffer.alloc(0);
  let bytes = 0;
  const start = process.hrtime.bigint();
  const done = new Promise<void>((resolve) =>
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      tail = Buffer.concat([tail, chunk]).subarray(-END_MARKER.length);
      if (tail.equals(END_MARKER)) resolve();
    }),
  );
  child.stdin.write(`{"type":"prompt","id":"s","message":"stream ${STREAM_BYTES}"}\n`);
  await done;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (bytes < STREAM_BYTES) throw new Error(`only ${bytes} bytes arrived`);
  await viewer?.close();
  await ended(child);
  return seconds;
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const ms = (value: number) => `${value.toFixed(3)} ms`;

const order: Side[] = ["direct", "tap", "tap", "direct"];
const rounds: Record<Side, number[]> = { direct: [], tap: [] };
for (const side of order) rounds[side].push(...(await latency(side)));
console.log(`get_state round trips (${ROUND_TRIPS} per round, 2 rounds each, real pi 0.87.1; ${VIEWER_NOTE}):`);
console.log(`  direct  median ${ms(quantile(rounds.direct, 0.5))}  p95 ${ms(quantile(rounds.direct, 0.95))}  p99 ${ms(quantile(rounds.direct, 0.99))}`);
console.log(`  tap     median ${ms(quantile(rounds.tap, 0.5))}  p95 ${ms(quantile(rounds.tap, 0.95))}  p99 ${ms(quantile(rounds.tap, 0.99))}`);
console.log(`  added   median ${ms(quantile(rounds.tap, 0.5) - quantile(rounds.direct, 0.5))}  p95 ${ms(quantile(rounds.tap, 0.95) - quantile(rounds.direct, 0.95))}`);

const seconds: Record<Side, number[]> = { direct: [], tap: [] };
for (const side of order) seconds[side].push(await throughput(side));
const rate = (side: Side) => (2 * STREAM_BYTES) / (seconds[side][0]! + seconds[side][1]!) / 1024 ** 2;
console.log(`throughput, ${STREAM_BYTES / 1024 ** 2} MB of pi records from the stand-in pi (2 rounds each; ${VIEWER_NOTE}):`);
console.log(`  direct ${rate("direct").toFixed(0)} MB/s   tap ${rate("tap").toFixed(0)} MB/s   tap ÷ direct ${(rate("tap") / rate("direct")).toFixed(2)}`);
process.exit(0);
