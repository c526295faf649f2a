// A classroom: one driver and N read-only viewers (N = 0, 50, 200, side by
// side) on one session while pi streams a long answer, with the real `pier`
// process and a real pi.
//
// How it is measured:
// - The model is bench/support/timestamped-model.ts, in this process: an
//   OpenAI-compatible streaming server (like Pier's demo model) that writes
//   DELTAS text deltas at an even pace over STREAM_MS, each stamped with the
//   machine's monotonic clock as it goes to pi. Every client reads the same
//   clock when the delta reaches it, so a delta's latency is "model wrote it
//   → this viewer decoded it": pi, the relay and the client, with no
//   reference client's own delays mixed in. (The demo model's scenarios are
//   fixed text and cannot carry a time, hence a model of our own.) The
//   driver's latency is the same path for the first browser the relay
//   serves; "behind the driver" is what the relay's fan-out to N more adds.
// - "The last viewer", per delta: the slowest of the N viewers to decode it;
//   its p50/p95/max over the deltas.
// - Viewers are WebSocket clients that open the viewer link themselves (their
//   own cookie), in two child processes (bench/support/classroom-clients.ts),
//   not in the one that measures. They split pi's bytes into lines and find
//   the stamps by search, without JSON.parse (bench/support/stamped-viewer.ts,
//   "scan"): a real class parses on 200 machines, while here 200 viewers
//   parsing like pages took twice the relay's CPU on the same 2 cores, so
//   they measured mostly themselves (PIER_BENCH_VIEWER_DECODE=page brings
//   that back). The driver and the late joiner decode like a page. The
//   viewers' CPU use is printed.
// - Relay = the pier process (pi is a separate process, printed for scale):
//   RSS from /proc/<pid>/status idle (driver connected, a warm-up answer
//   done), with the N viewers connected, and the peak sampled every 25 ms
//   while streaming; CPU time (utime + stime from /proc/<pid>/stat, every
//   thread) while streaming, per MB it delivered.
// - A viewer joins mid-stream (half the deltas out): once the answer has
//   settled, its decoded records (replay + live) must equal the driver's,
//   and every viewer's must too (compared by SHA-256 of the record lines).
//   Printed as a check; a bench asserts nothing (the test is
//   relay/test/relay/classroom.contract.test.ts).
//
// Each N runs on a fresh pier. PIER_BENCH_ROUNDS=3 repeats the sweep (every
// other one in the opposite order) and prints medians; PIER_BENCH_VIEWERS=0,10
// and PIER_BENCH_DELTAS=1000 make a quick one; PIER_BENCH_DEBUG=1 prints the
// latency over the stream, per tenth, and per viewers' process with its
// event-loop delay. PIER_BENCH_BASELINE_PIER=<checkout>/relay/bin/pier.js
// (another checkout, its relay bundle built) measures that pier too, in the
// same rounds, one column beside each N. Every child is stopped at the end.
import { fork, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDemoAgentDir } from "../relay/src/demo/agent-dir.ts";
import { startPier, type RunningPier } from "../relay/test/support/pier-process.ts";
import { redeemLink, StampedViewer } from "./support/stamped-viewer.ts";
import { startTimestampedModel } from "./support/timestamped-model.ts";

const relayRequire = createRequire(new URL("../relay/package.json", import.meta.url));
const CLIENTS = fileURLToPath(new URL("./support/classroom-clients.ts", import.meta.url));

const DELTAS = Number(process.env.PIER_BENCH_DELTAS ?? 5000);
const STREAM_MS = (DELTAS / 5000) * 10_000;
// PIER_BENCH_VIEWERS=0,10 for a quick look.
const COUNTS = (process.env.PIER_BENCH_VIEWERS ?? "0,50,200").split(",").map(Number);
const CLIENT_PROCESSES = 2;
const ROUNDS = Number(process.env.PIER_BENCH_ROUNDS ?? 1);
const SETTLE_MS = 1500;
const MB = 1024 ** 2;

if (!existsSync("/proc/self/status")) {
  console.log("This benchmark reads memory and CPU time from Linux's /proc. Skipping.");
  process.exit(0);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (values: readonly number[], q: number): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const median = (values: readonly number[]) => quantile(values, 0.5);

function rssMB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

/** CPU time (user + system, all threads) a process has used so far, in ms. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

function sampleRss(pid: number): () => number {
  let max = rssMB(pid);
  const timer = setInterval(() => (max = Math.max(max, rssMB(pid))), 25);
  return () => {
    clearInterval(timer);
    return Math.max(max, rssMB(pid));
  };
}

// ── the viewers' processes ──────────────────────────────────────────────

type Collected = {
  slowest: number[];
  missing: number;
  fingerprints: (string | null)[];
  closed: number[];
  bytes: number;
  frames: number;
  cpuMs: number;
  wallMs: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
};

class ClientProcess {
  readonly child: ChildProcess;
  #waiting = new Map<string, { resolve(message: any): void; reject(error: Error): void }>();
  #failed: Error | null = null;

  constructor() {
    this.child = fork(CLIENTS, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    this.child.on("message", (message: { type: string; message?: string }) => {
      if (message.type !== "failed") {
        this.#waiting.get(message.type)?.resolve(message);
        this.#waiting.delete(message.type);
        return;
      }
      this.#failed = new Error(`a viewers' process failed: ${message.message}`);
      for (const waiter of this.#waiting.values()) waiter.reject(this.#failed);
      this.#waiting.clear();
    });
  }

  /** One request; the answer is the next message of the same type. */
  ask<T = Record<string, unknown>>(request: { type: string; [key: string]: unknown }): Promise<T> {
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise((resolve, reject) => {
      this.#waiting.set(request.type, { resolve, reject });
      this.child.send(request);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    await Promise.race([this.ask({ type: "close" }).catch(() => undefined), delay(5000)]);
    const kill = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    if (this.child.connected) this.child.disconnect();
    await exited;
    clearTimeout(kill);
  }
}

// ── one classroom ───────────────────────────────────────────────────────

interface Sample {
  variant: string;
  viewers: number;
  idleMB: number;
  connectedMB: number;
  peakMB: number;
  connectMs: number;
  relayCpuMs: number;
  streamWallMs: number;
  piCpuMs: number;
  benchCpuMs: number;
  clientCpuPct: number[];
  deliveredMB: number;
  perClientMB: number;
  /** Binary frames (socket writes) per viewer while streaming, and the driver's. */
  framesPerViewer: number;
  driverFrames: number;
  driver: number[];
  lastViewer: number[];
  behindDriver: number[];
  missing: number;
  closed: number[];
  viewersIdentical: number;
  joiner: string;
  joinerHeadStart: number;
}

const model = await startTimestampedModel({ deltas: DELTAS, durationMs: STREAM_MS });
const bundle = process.env.PIER_FROM_SOURCES ? null : (relayRequire("./bin/current-bundle.js") as { currentBundle(): string | null }).currentBundle();

/** A pier to measure: this repository's, or a baseline build (PIER_BENCH_BASELINE_PIER). */
interface Variant {
  label: string;
  bin?: string;
}
const VARIANTS: Variant[] = [...(process.env.PIER_BENCH_BASELINE_PIER ? [{ label: "baseline", bin: process.env.PIER_BENCH_BASELINE_PIER }] : []), { label: "this" }];

async function classroom(viewers: number, variant: Variant): Promise<Sample> {
  const workspace = await mkdtemp(join(tmpdir(), "pier-bench-classroom-"));
  const agent = await createDemoAgentDir({ modelServerUrl: model.url });
  const clients: ClientProcess[] = [];
  let pier: RunningPier | null = null;
  let driver: StampedViewer | null = null;
  let joiner: StampedViewer | null = null;
  try {
    pier = await startPier(["--cwd", workspace, "--no-demo-fallback", "--new-session"], {
      env: { ...process.env, PI_CODING_AGENT_DIR: agent.dir, PI_OFFLINE: "1" },
      ...(variant.bin ? { bin: variant.bin } : {}),
    });
    const pid = pier.process.pid!;
    driver = await StampedViewer.connect(pier, pier.cookie, { deltas: DELTAS, keepLines: true });
    const piPid = driver.hello?.child?.pid;
    if (!piPid) throw new Error("pi is not running");

    // A viewer link, as a driver's page asks for one.
    const created = driver.nextFrame((frame) => frame.type === "link_created");
    driver.send({ type: "pier.create_link", role: "viewer" });
    const linkUrl = `http://${pier.host}/?token=${(await created).token as string}`;

    // Warm-up: pi's first run and the relay's JIT, before anything is measured.
    driver.send({ type: "prompt", id: "warm-up", message: "warm up" });
    await driver.whenSettled(1);
    await delay(SETTLE_MS);
    const idleMB = rssMB(pid);

    const started = performance.now();
    for (let i = 0; i < (viewers > 0 ? CLIENT_PROCESSES : 0); i++) clients.push(new ClientProcess());
    await Promise.all(
      clients.map((client, i) => {
        const count = Math.floor(viewers / clients.length) + (i < viewers % clients.length ? 1 : 0);
        return client.ask({ type: "connect", linkUrl, host: pier!.host, count, deltas: DELTAS });
      }),
    );
    const connectMs = performance.now() - started;
    await delay(SETTLE_MS);
    const connectedMB = rssMB(pid);

    await Promise.all(clients.map((client) => client.ask({ type: "arm", deltas: DELTAS })));
    driver.rearm(DELTAS);
    const driverBytes0 = driver.bytes;
    const driverFrames0 = driver.frames;
    const stopSampling = sampleRss(pid);
    const relayCpu0 = cpuMsOf(pid);
    const piCpu0 = cpuMsOf(piPid);
    const benchCpu0 = process.cpuUsage();
    const wall0 = performance.now();
    const collected = clients.map((client) => client.ask<Collected>({ type: "collect" }));
    driver.send({ type: "prompt", id: "classroom", message: "Explain the classroom, at length." });

    // Someone arrives late: half the answer is out.
    while (Number.isNaN(driver.arrivals[DELTAS / 2]!) && driver.closeCode === null) await delay(10);
    joiner = await StampedViewer.connect(pier, await redeemLink(linkUrl), { deltas: DELTAS, keepLines: true });

    await Promise.all([driver.whenDone(), joiner.whenDone()]);
    const results = await Promise.all(collected);
    const streamWallMs = performance.now() - wall0;
    const relayCpuMs = cpuMsOf(pid) - relayCpu0;
    const piCpuMs = cpuMsOf(piPid) - piCpu0;
    const benchCpu = process.cpuUsage(benchCpu0);
    const peakMB = stopSampling();

    // Latencies, per delta, in ms.
    const ms = (us: number) => us / 1000;
    const driverLatency: number[] = [];
    const lastViewer: number[] = [];
    const behindDriver: number[] = [];
    for (let n = 0; n < DELTAS; n++) {
      const written = driver.written[n]!;
      const atDriver = driver.arrivals[n]!;
      driverLatency.push(ms(atDriver - written));
      if (viewers === 0) continue;
      const slowest = Math.max(...results.map((result) => result.slowest[n]!));
      lastViewer.push(ms(slowest - written));
      behindDriver.push(ms(slowest - atDriver));
    }

    if (process.env.PIER_BENCH_DEBUG && viewers > 0) {
      const tenth = DELTAS / 10;
      const parts = Array.from({ length: 10 }, (_, i) => lastViewer.slice(i * tenth, (i + 1) * tenth));
      console.log(`${variant.label} N=${viewers} last viewer p95 by tenth of the stream:`, parts.map((part) => quantile(part, 0.95).toFixed(0)).join(" "));
      console.log(`${variant.label} N=${viewers} driver p95 by tenth:`, Array.from({ length: 10 }, (_, i) => quantile(driverLatency.slice(i * tenth, (i + 1) * tenth), 0.95).toFixed(0)).join(" "));
      results.forEach((result, i) => {
        const own = result.slowest.map((at, n) => ms(at - driver!.written[n]!));
        console.log(
          `${variant.label} N=${viewers} process ${i}: p50 ${median(own).toFixed(0)} p95 ${quantile(own, 0.95).toFixed(0)} cpu ${result.cpuMs.toFixed(0)} ms / ${result.wallMs.toFixed(0)} ms, loop delay p99 ${result.loopDelayP99Ms.toFixed(0)} max ${result.loopDelayMaxMs.toFixed(0)}`,
        );
      });
    }
    const fingerprint = driver.fingerprint();
    const fingerprints = results.flatMap((result) => result.fingerprints);
    // What the relay sent while streaming: to the viewers, the driver, and the latecomer (its replay included).
    const streamBytes = driver.bytes - driverBytes0;
    const deliveredBytes = results.reduce((sum, result) => sum + result.bytes, 0) + streamBytes + joiner.bytes;
    return {
      variant: variant.label,
      viewers,
      idleMB,
      connectedMB,
      peakMB,
      connectMs,
      relayCpuMs,
      streamWallMs,
      piCpuMs,
      benchCpuMs: (benchCpu.user + benchCpu.system) / 1000,
      clientCpuPct: results.map((result) => (100 * result.cpuMs) / result.wallMs),
      deliveredMB: deliveredBytes / MB,
      perClientMB: streamBytes / MB,
      framesPerViewer: viewers ? results.reduce((sum, result) => sum + result.frames, 0) / viewers : NaN,
      driverFrames: driver.frames - driverFrames0,
      driver: driverLatency,
      lastViewer,
      behindDriver,
      missing: results.reduce((sum, result) => sum + result.missing, 0),
      closed: results.flatMap((result) => result.closed),
      viewersIdentical: fingerprints.filter((value) => value !== null && value === fingerprint).length,
      joiner: compareLines(driver.lines!, joiner.lines!),
      joinerHeadStart: joiner.deltasInReplay,
    };
  } finally {
    await Promise.all(clients.map((client) => client.stop()));
    await joiner?.close();
    await driver?.close();
    await pier?.stop();
    await agent.cleanup();
    await rm(workspace, { recursive: true, force: true });
  }
}

/** "identical", or where two record lists first differ. */
function compareLines(expected: readonly string[], actual: readonly string[]): string {
  const length = Math.min(expected.length, actual.length);
  for (let i = 0; i < length; i++) {
    if (expected[i] !== actual[i]) return `first difference at record ${i}: ${actual[i]!.slice(0, 80)} ≠ ${expected[i]!.slice(0, 80)}`;
  }
  if (expected.length !== actual.length) return `${actual.length} records, the driver decoded ${expected.length}`;
  return "identical";
}

// ── the run ─────────────────────────────────────────────────────────────

/** One column per N and pier, in the order they are printed. */
const COLUMNS = COUNTS.flatMap((count) => VARIANTS.map((variant) => ({ count, variant, key: `${variant.label}:${count}` })));
const samples = new Map<string, Sample[]>(COLUMNS.map((column) => [column.key, []]));
const runStarted = performance.now();
/** The machine's 1-minute load average: above ~2 on 2 cores, something else competes for the CPU and the latencies show it. */
const loadAverage = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
const loadBefore = loadAverage();
try {
  for (let round = 0; round < ROUNDS; round++) {
    // Later rounds go the other way, so a machine getting busier or quieter favours no N.
    for (const column of round % 2 === 0 ? COLUMNS : [...COLUMNS].reverse()) {
      samples.get(column.key)!.push(await classroom(column.count, column.variant));
    }
  }
} finally {
  await model.close();
}

const pick = (key: string, value: (sample: Sample) => number) => median(samples.get(key)!.map(value));
const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const row = (label: string, value: (sample: Sample) => number, digits = 0) => console.log(`${label.padEnd(50)}${COLUMNS.map((column) => fmt(pick(column.key, value), digits).padStart(10)).join("")}`);
/** The N = 0 figure of the same pier, which the per-viewer costs are measured against. */
const base = (sample: Sample, value: (sample: Sample) => number) => {
  const key = `${sample.variant}:0`;
  return samples.has(key) ? pick(key, value) : NaN;
};

console.log(`pier runs ${bundle ? "its compiled bundle (relay/dist/pier.cjs)" : "its TypeScript sources"}; pi 0.87.1; a model streaming ${DELTAS} deltas over ${STREAM_MS / 1000} s`);
console.log(`${ROUNDS === 1 ? "one run" : `median of ${ROUNDS} runs`} per N, each on a fresh pier; viewers in ${CLIENT_PROCESSES} processes of their own\n`);
console.log(`${"viewers".padEnd(50)}${COLUMNS.map((column) => String(column.count).padStart(10)).join("")}`);
if (VARIANTS.length > 1) console.log(`${"pier".padEnd(50)}${COLUMNS.map((column) => column.variant.label.padStart(10)).join("")}`);
console.log("Latency, model wrote a delta → client decoded it (ms)");
row("  driver (first client), p50", (s) => median(s.driver), 1);
row("  driver, p95", (s) => quantile(s.driver, 0.95), 1);
row("  last viewer (slowest of N, per delta), p50", (s) => median(s.lastViewer), 1);
row("  last viewer, p95", (s) => quantile(s.lastViewer, 0.95), 1);
row("  last viewer, max", (s) => Math.max(...s.lastViewer), 1);
row("  last viewer behind the driver, p95", (s) => quantile(s.behindDriver, 0.95), 1);
console.log("Relay process memory (RSS, MB)");
row("  idle (driver connected)", (s) => s.idleMB, 1);
row("  with N viewers connected", (s) => s.connectedMB, 1);
row("  peak while streaming to them", (s) => s.peakMB, 1);
row("  per viewer, connected (KB): (RSS_N − idle)/N", (s) => (s.viewers ? ((s.connectedMB - s.idleMB) * 1024) / s.viewers : NaN));
row("  per viewer, streaming (KB): (peak_N − peak_0)/N", (s) => (s.viewers ? ((s.peakMB - base(s, (b) => b.peakMB)) * 1024) / s.viewers : NaN));
console.log("Relay process CPU while streaming");
row("  CPU time (ms)", (s) => s.relayCpuMs);
row("  % of one core", (s) => (100 * s.relayCpuMs) / s.streamWallMs);
row("  MB delivered to all clients", (s) => s.deliveredMB, 1);
row("  ms per MB delivered", (s) => s.relayCpuMs / s.deliveredMB, 1);
row("  frames (socket writes) to the driver", (s) => s.driverFrames);
row("  frames (socket writes) per viewer", (s) => s.framesPerViewer);
const perViewer = (s: Sample) => (s.viewers ? (s.relayCpuMs - base(s, (b) => b.relayCpuMs)) / s.viewers : NaN);
row("  ms per viewer per MB: (CPU_N − CPU_0)/(N·MB)", (s) => perViewer(s) / s.perClientMB, 2);
row("  µs per viewer per delta: (CPU_N − CPU_0)/(N·deltas)", (s) => (perViewer(s) * 1000) / DELTAS, 2);
console.log("Everything else while streaming (% of one core; the machine has 2)");
row("  pi", (s) => (100 * s.piCpuMs) / s.streamWallMs);
row("  viewers' processes (busiest one)", (s) => (s.clientCpuPct.length ? Math.max(...s.clientCpuPct) : NaN));
row("  this process (model, driver, sampling)", (s) => (100 * s.benchCpuMs) / s.streamWallMs);
console.log("Checks");
row("  viewers connected in (ms)", (s) => s.connectMs);
row("  deltas a viewer never got", (s) => s.missing);
row("  viewers closed by the relay", (s) => s.closed.length);
row("  viewers whose records = the driver's", (s) => s.viewersIdentical);
row("  deltas already out when the late viewer joined", (s) => s.joinerHeadStart);
for (const column of COLUMNS) {
  const verdicts = [...new Set(samples.get(column.key)!.map((s) => s.joiner))];
  const which = VARIANTS.length > 1 ? ` (${column.variant.label})` : "";
  console.log(`  N = ${column.count}${which}: the viewer who joined mid-stream vs the driver: ${verdicts.join("; ")}`);
}
console.log(`(${((performance.now() - runStarted) / 1000).toFixed(0)} s; load average ${loadBefore.toFixed(1)} before, ${loadAverage().toFixed(1)} after, on ${availableParallelism()} cores)`);
