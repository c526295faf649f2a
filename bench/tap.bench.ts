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
//    as it can, tap ÷ direct, with a viewer on the tap and without one (both
//    in the same run), and the tap process's own CPU seconds per GB streamed
//    (user + system, from /proc: the lever on a small machine, where the
//    tap's process competes with pi and the client for the same cores).
//    Beside them the limit: a bare Node pass-through (support/
//    node-pass-through.mjs: spawn, pipe both ways, nothing else), since any
//    process in between costs a hop; tap ÷ bare Node is the tap's own share.
//
// The viewer (bench/tap-viewer.mjs) is a process of its own, as a browser
// is, and keeps nothing. It used to read in this process, keeping every
// byte: its work then ran on the client's own event loop, as if the tap
// had slowed the client by it. A viewer that falls further behind than the tap's replay holds is
// closed by the tap (4008; the client is never held up for it): how much it
// got is printed.
//
// PIER_BENCH_TAP_VIEWER=0 leaves the viewer out (latency, and the
// throughput rounds with one). Rounds alternate (direct, tap, then tap,
// direct) so a machine getting busier or quieter favours neither side.
// Prints, asserts nothing.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createDemoAgentDir } from "../relay/src/demo/agent-dir.ts";
import { PIER_BIN } from "../relay/test/support/pier-process.ts";
import { piCliPathFor } from "../relay/test/support/pi-under-test.ts";

const ROUND_TRIPS = 200;
const WARM_UP = 20;
const STREAM_BYTES = 256 * 1024 * 1024;
const STAND_IN = fileURLToPath(new URL("./relay-pi-stand-in.mjs", import.meta.url));
const VIEWER = fileURLToPath(new URL("./tap-viewer.mjs", import.meta.url));
const PASS_THROUGH = fileURLToPath(new URL("./support/node-pass-through.mjs", import.meta.url));
const END_MARKER = Buffer.from('{"type":"pier_bench_end"}\n');
const WITH_VIEWER = process.env["PIER_BENCH_TAP_VIEWER"] !== "0";
const VIEWER_NOTE = WITH_VIEWER ? "a viewer on the tap" : "no viewer";
const LINK_LINE = /pier tap: read-only inspector of this conversation: (http:\S+)/;

type Side = "direct" | "tap" | "node";

/** The child as the client starts it: directly, under `pier tap --`, or under the bare Node pass-through. */
function startClientSide(side: Side, command: string[], env: NodeJS.ProcessEnv): { child: ChildProcessWithoutNullStreams; stderr: () => string } {
  const argv = side === "direct" ? command : side === "tap" ? [process.execPath, PIER_BIN, "tap", "--", ...command] : [process.execPath, PASS_THROUGH, ...command];
  const child = spawn(argv[0]!, argv.slice(1), { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return { child, stderr: () => stderr };
}

type Viewer = { close(): Promise<string> };

/** A viewer on the tap once it printed its link, with the replay read. close() says what it got. */
async function viewerOn(stderr: () => string): Promise<Viewer> {
  let url: string | undefined;
  const deadline = Date.now() + 30_000;
  while ((url = LINK_LINE.exec(stderr())?.[1]) === undefined) {
    if (Date.now() > deadline) throw new Error(`pier tap printed no link in 30 s; its stderr:\n${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const viewer = spawn(process.execPath, [VIEWER, url], { stdio: ["pipe", "pipe", "inherit"] });
  let said = "";
  viewer.stdout.setEncoding("utf8");
  await new Promise<void>((resolve, reject) => {
    viewer.stdout.on("data", (text: string) => {
      said += text;
      if (said.startsWith("ready\n")) resolve();
    });
    viewer.once("exit", (code) => reject(new Error(`the viewer exited (${code}) before it was ready`)));
  });
  return {
    async close() {
      viewer.stdin.end();
      await new Promise((resolve) => viewer.once("close", resolve));
      const [bytes, end] = said.slice("ready\n".length).trim().split(" ");
      return `${(Number(bytes) / 1024 ** 2).toFixed(0)} MB${end === "open" ? "" : ` (closed ${end})`}`;
    },
  };
}

/** CPU seconds (user + system) process `pid` has used so far; NaN where /proc is not there. */
function cpuSeconds(pid: number): number {
  try {
    // Fields after the command name: state is 3rd, utime the 14th, stime the 15th (proc(5)).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
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

type Run = { seconds: number; cpu: number; viewerGot: string | null };

/** Seconds to read STREAM_BYTES of records through this side; the CPU seconds its process used meanwhile. */
async function throughput(side: Side, withViewer: boolean): Promise<Run> {
  const { child, stderr } = startClientSide(side, [process.execPath, STAND_IN], {});
  const viewer = side === "tap" && withViewer ? await viewerOn(stderr) : null;
  // Started up on either side (its first answer) before the clock starts: start-up is not throughput.
  let starting = true;
  let answered = () => {};
  const started = new Promise<void>((resolve) => (answered = resolve));
  let tail = Buffer.alloc(0);
  let bytes = 0;
  const done = new Promise<void>((resolve) =>
    child.stdout.on("data", (chunk: Buffer) => {
      if (starting) {
        starting = false;
        return answered();
      }
      bytes += chunk.length;
      tail = Buffer.concat([tail, chunk]).subarray(-END_MARKER.length);
      if (tail.equals(END_MARKER)) resolve();
    }),
  );
  child.stdin.write(`{"type":"get_state","id":"w"}\n`);
  await started;
  const cpuBefore = cpuSeconds(child.pid!);
  const start = process.hrtime.bigint();
  child.stdin.write(`{"type":"prompt","id":"s","message":"stream ${STREAM_BYTES}"}\n`);
  await done;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = cpuSeconds(child.pid!) - cpuBefore;
  if (bytes < STREAM_BYTES) throw new Error(`only ${bytes} bytes arrived`);
  const viewerGot = (await viewer?.close()) ?? null;
  await ended(child);
  return { seconds, cpu, viewerGot };
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const ms = (value: number) => `${value.toFixed(3)} ms`;

const order: Side[] = ["direct", "tap", "tap", "direct"];
const rounds: Record<Side, number[]> = { direct: [], tap: [], node: [] };
for (const side of order) rounds[side].push(...(await latency(side)));
console.log(`get_state round trips (${ROUND_TRIPS} per round, 2 rounds each, real pi 0.87.1; ${VIEWER_NOTE}):`);
console.log(`  direct  median ${ms(quantile(rounds.direct, 0.5))}  p95 ${ms(quantile(rounds.direct, 0.95))}  p99 ${ms(quantile(rounds.direct, 0.99))}`);
console.log(`  tap     median ${ms(quantile(rounds.tap, 0.5))}  p95 ${ms(quantile(rounds.tap, 0.95))}  p99 ${ms(quantile(rounds.tap, 0.99))}`);
console.log(`  added   median ${ms(quantile(rounds.tap, 0.5) - quantile(rounds.direct, 0.5))}  p95 ${ms(quantile(rounds.tap, 0.95) - quantile(rounds.direct, 0.95))}`);

// Each kind of run twice, in an order that is its own mirror image.
// "bare Node": the least any pass-through in Node does (support/node-pass-through.mjs), the limit beside the tap.
type Kind = "direct" | "bare Node" | "tap, viewer" | "tap, no viewer";
const kinds: Kind[] = WITH_VIEWER ? ["direct", "bare Node", "tap, viewer", "tap, no viewer"] : ["direct", "bare Node", "tap, no viewer"];
const sideOf = (kind: Kind): Side => (kind === "direct" ? "direct" : kind === "bare Node" ? "node" : "tap");
const runs = new Map<Kind, Run[]>(kinds.map((kind) => [kind, []]));
for (const kind of [...kinds, ...[...kinds].reverse()]) runs.get(kind)!.push(await throughput(sideOf(kind), kind === "tap, viewer"));
const GB = STREAM_BYTES / 1024 ** 3;
const rateOf = (kind: Kind) => (2 * STREAM_BYTES) / runs.get(kind)!.reduce((sum, run) => sum + run.seconds, 0) / 1024 ** 2;
const cpuOf = (kind: Kind) => runs.get(kind)!.reduce((sum, run) => sum + run.cpu, 0) / (2 * GB);
console.log(`throughput, ${STREAM_BYTES / 1024 ** 2} MB of pi records from the stand-in pi (2 rounds each; CPU: the client's child, the stand-in, the bare Node pass-through or the tap):`);
for (const kind of kinds) {
  const got = runs
    .get(kind)!
    .map((run) => run.viewerGot)
    .filter((got) => got !== null);
  console.log(
    `  ${kind.padEnd(15)} ${rateOf(kind).toFixed(0).padStart(4)} MB/s  ÷ direct ${(rateOf(kind) / rateOf("direct")).toFixed(2)}  ÷ bare Node ${(rateOf(kind) / rateOf("bare Node")).toFixed(2)}  CPU ${cpuOf(kind).toFixed(2)} s/GB${got.length > 0 ? `  (the viewer got ${got.join(", ")})` : ""}`,
  );
}
process.exit(0);
