// The relay under load, side by side in one run: the real `pier` process with
// a stand-in pi (bench/relay-pi-stand-in.mjs: real pi records from
// web/test/fixtures, written as fast as the pipe takes them) and WebSocket
// clients in this process that read as fast as they can.
//
// 1. Slow viewers: a healthy viewer's throughput over a 1 GB stream alone,
//    and with a second viewer present that stopped reading (it connects,
//    gets its hello, then never reads again); the longest gap between two
//    chunks the healthy viewer receives is the delay the stalled one costs it.
// 2. Memory of the relay process (pi is a separate process, not counted):
//    RSS idle, peak during the 1 GB streams with the stalled viewer, and
//    idle again after; idle RSS of `pier --demo` (real pi, demo model), of
//    pier run from its TypeScript sources, and of a bare `node` for scale.
// 3. pier against a bare `ws` relay (bench/relay-bare-server.mjs) carrying
//    the same child's stdout to one client: bytes/s at the client, and the
//    relay process's CPU time per GB. Beside them the limit: the bare relay
//    sending from memory (no child: a preallocated buffer of the same
//    records, in 64 KiB frames, a full pipe read), which is what the
//    machine can do without reading a pipe at all.
// PIER_BENCH_RELAY_PARTS=3 (a comma list of 1, 2, 3) runs only those parts
// (1 and 2 share their streams: either runs both).
// Rounds alternate (A B, then B A) so a machine getting busier or quieter
// favours neither side; ratios are medians of each round's pair. Prints,
// asserts nothing. Every child is stopped at the end.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { startPier, type RunningPier } from "../relay/test/support/pier-process.ts";

const relayRequire = createRequire(new URL("../relay/package.json", import.meta.url));
const STAND_IN = fileURLToPath(new URL("./relay-pi-stand-in.mjs", import.meta.url));
const BARE_SERVER = fileURLToPath(new URL("./relay-bare-server.mjs", import.meta.url));
const END_MARKER = Buffer.from('{"type":"pier_bench_end"}\n');

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const STALL_STREAM = GB;
const STALL_ROUNDS = 6;
const BARE_STREAM = 256 * MB;
const BARE_ROUNDS = 8;
const PARTS = new Set((process.env.PIER_BENCH_RELAY_PARTS ?? "1,2,3").split(",").map((part) => Number(part.trim())));
const STALL_PARTS = PARTS.has(1) || PARTS.has(2);
const SETTLE_MS = 3000;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** RSS and its peak (VmHWM) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]) / 1024;
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

/** CPU time (user + system) a process has used so far, in ms. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** Samples a process's RSS every 25 ms until stopped; returns the largest seen. */
function sampleRss(pid: number): () => number {
  let max = memoryOf(pid).rss;
  const timer = setInterval(() => (max = Math.max(max, memoryOf(pid).rss)), 25);
  return () => {
    clearInterval(timer);
    return Math.max(max, memoryOf(pid).rss);
  };
}

// ── clients ─────────────────────────────────────────────────────────────

type Target = { url: string; headers: Record<string, string>; origin?: string; pier: boolean };

const pierTarget = (pier: RunningPier): Target => ({
  url: `ws://${pier.host}/ws`,
  headers: { Cookie: pier.cookie },
  origin: pier.origin,
  pier: true,
});

/** Connects; for pier, resolves once the replay is over (`replay_end`). */
function connect(target: Target): Promise<WebSocket> {
  const ws = new WebSocket(target.url, { headers: target.headers, ...(target.origin ? { origin: target.origin } : {}) });
  return new Promise((resolve, reject) => {
    ws.once("error", reject);
    ws.once("open", () => {
      ws.off("error", reject);
      ws.on("error", () => {});
      if (!target.pier) return resolve(ws);
      const onMessage = (data: Buffer, isBinary: boolean) => {
        if (isBinary || !data.toString().includes('"replay_end"')) return;
        ws.off("message", onMessage);
        resolve(ws);
      };
      ws.on("message", onMessage);
    });
  });
}

type StreamResult = { bytesPerSecond: number; maxGapMs: number };

/** Asks the stand-in for `bytes` of records through `ws` and reads them all, timing the gaps. */
function stream(ws: WebSocket, bytes: number): Promise<StreamResult> {
  return new Promise((resolve, reject) => {
    let received = 0;
    let tail: Buffer = Buffer.alloc(0);
    let last = 0;
    let maxGapMs = 0;
    const started = performance.now();
    const onMessage = (data: Buffer, isBinary: boolean) => {
      if (!isBinary) return;
      const now = performance.now();
      if (last !== 0) maxGapMs = Math.max(maxGapMs, now - last);
      last = now;
      received += data.length;
      tail = data.length >= END_MARKER.length ? data.subarray(-END_MARKER.length) : Buffer.concat([tail, data]).subarray(-END_MARKER.length);
      if (!tail.equals(END_MARKER)) return;
      ws.off("message", onMessage);
      ws.off("close", onClose);
      resolve({ bytesPerSecond: received / ((now - started) / 1000), maxGapMs });
    };
    const onClose = () => reject(new Error(`the socket closed after ${received} bytes`));
    ws.on("message", onMessage);
    ws.once("close", onClose);
    ws.send(JSON.stringify({ type: "prompt", id: `bench-${Date.now()}`, message: `stream ${bytes}` }));
  });
}

function closeSocket(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    ws.once("close", () => resolve());
    ws.terminate();
  });
}

// ── servers ─────────────────────────────────────────────────────────────

/** The bare relay with the stand-in as its child, or (fromMemory) sending from a preallocated buffer. */
async function startBare(fromMemory = false): Promise<{ target: Target; process: ChildProcess }> {
  const child = spawn(process.execPath, [BARE_SERVER, fromMemory ? "--from-memory" : STAND_IN], { stdio: ["pipe", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.setEncoding("utf8");
    child.stdout!.once("data", (text: string) => resolve(Number(text.trim())));
    child.once("exit", (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  return { target: { url: `ws://127.0.0.1:${port}/`, headers: {}, pier: false }, process: child };
}

/** The 1-minute load average: the machine is shared, so a figure comes with how busy it was. */
function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ")[0]!;
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

// ── the run ─────────────────────────────────────────────────────────────

if (!existsSync("/proc/self/status")) {
  console.log("This benchmark reads memory and CPU time from Linux's /proc. Skipping.");
  process.exit(0);
}

// What bin/pier.js will run (checked now: a source edited during the run changes only later starts).
const bundle = process.env.PIER_FROM_SOURCES ? null : (relayRequire("./bin/current-bundle.js") as { currentBundle(): string | null }).currentBundle();
const workspace = await mkdtemp(join(tmpdir(), "pier-bench-relay-"));
const piers: RunningPier[] = [];
const bares: Awaited<ReturnType<typeof startBare>>[] = [];
try {
  const nodeRss = await (async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    await delay(1000);
    const { rss } = memoryOf(child.pid!);
    await stopProcess(child);
    return rss;
  })();

  // --no-session: the stand-in writes no session files, so there are none to list.
  const pier = await startPier(["--cwd", workspace, "--no-demo-fallback", "--pi", STAND_IN, "--", "--no-session"]);
  piers.push(pier);
  const pid = pier.process.pid!;
  await delay(SETTLE_MS);
  const idle = memoryOf(pid).rss;

  // Warm-up: JIT, socket buffers.
  if (STALL_PARTS) {
    const ws = await connect(pierTarget(pier));
    await stream(ws, 64 * MB);
    await closeSocket(ws);
  }

  // 1 + 2: alone, then with a stalled viewer, alternating.
  const alone: StreamResult[] = [];
  const stalled: StreamResult[] = [];
  const stalledPeaks: number[] = [];
  const runAlone = async () => {
    const ws = await connect(pierTarget(pier));
    alone.push(await stream(ws, STALL_STREAM));
    await closeSocket(ws);
  };
  const runStalled = async () => {
    const stalledViewer = await connect(pierTarget(pier));
    stalledViewer.pause();
    const ws = await connect(pierTarget(pier));
    const stopSampling = sampleRss(pid);
    stalled.push(await stream(ws, STALL_STREAM));
    stalledPeaks.push(stopSampling());
    await Promise.all([closeSocket(ws), closeSocket(stalledViewer)]);
  };
  for (let round = 0; round < (STALL_PARTS ? STALL_ROUNDS : 0); round++) {
    if (round % 2 === 0) {
      await runAlone();
      await runStalled();
    } else {
      await runStalled();
      await runAlone();
    }
  }
  const peak = memoryOf(pid).peak;

  // 3: pier against the bare ws relay, and the bare relay from memory, in a rotating order.
  const viaPier: number[] = [];
  const viaBare: number[] = [];
  const fromMemory: number[] = [];
  const cpuPerGB = { pier: [] as number[], bare: [] as number[], memory: [] as number[] };
  if (PARTS.has(3)) {
    const bare = await startBare();
    bares.push(bare);
    const memory = await startBare(true);
    bares.push(memory);
    for (const target of [pierTarget(pier), bare.target, memory.target]) {
      const ws = await connect(target);
      await stream(ws, 32 * MB); // warm-up
      await closeSocket(ws);
    }
    const sides = [
      [pierTarget(pier), viaPier, pid, cpuPerGB.pier],
      [bare.target, viaBare, bare.process.pid!, cpuPerGB.bare],
      [memory.target, fromMemory, memory.process.pid!, cpuPerGB.memory],
    ] as const;
    for (let round = 0; round < BARE_ROUNDS; round++) {
      // A B C, B C A, C A B, then backwards: each side as often first as last.
      const rotated = [...sides.slice(round % 3), ...sides.slice(0, round % 3)];
      for (const [target, results, server, cpu] of round % 6 < 3 ? rotated : rotated.reverse()) {
        const ws = await connect(target);
        const cpuBefore = cpuMsOf(server);
        results.push((await stream(ws, BARE_STREAM)).bytesPerSecond);
        cpu.push(((cpuMsOf(server) - cpuBefore) * GB) / BARE_STREAM);
        await closeSocket(ws);
      }
    }
    for (const started of bares.splice(0)) await stopProcess(started.process);
  }

  await delay(SETTLE_MS);
  const idleAfter = memoryOf(pid).rss;
  await pier.stop();
  piers.length = 0;

  let demoIdle = NaN;
  let sourcesIdle = NaN;
  if (PARTS.has(2)) {
    const demo = await startPier(["--demo"]);
    piers.push(demo);
    await delay(SETTLE_MS);
    demoIdle = memoryOf(demo.process.pid!).rss;
    await demo.stop();
    piers.length = 0;

    // The same relay run from its TypeScript sources (what bin/pier.js falls back to).
    const fromSources = await startPier(["--cwd", workspace, "--no-demo-fallback", "--pi", STAND_IN, "--", "--no-session"], {
      env: { ...process.env, PIER_FROM_SOURCES: "1" },
    });
    piers.push(fromSources);
    await delay(SETTLE_MS);
    sourcesIdle = memoryOf(fromSources.process.pid!).rss;
    await fromSources.stop();
    piers.length = 0;
  }

  const mbps = (bytesPerSecond: number) => (bytesPerSecond / MB).toFixed(0);
  const row = (label: string, a: string, b: string, ratio: string, note = "") => console.log(`${label.padEnd(46)}${a.padStart(12)}${b.padStart(14)}${ratio.padStart(9)}${note ? `  ${note}` : ""}`);

  console.log(`pier runs ${bundle ? "its compiled bundle (relay/dist/pier.cjs)" : "its TypeScript sources"}\n`);
  if (STALL_PARTS) {
    console.log(`1. Slow viewers: one healthy viewer over a ${STALL_STREAM / GB} GB stream (median of ${STALL_ROUNDS})`);
    row("", "alone", "+ stalled", "ratio");
    const aloneRate = median(alone.map((r) => r.bytesPerSecond));
    const stalledRate = median(stalled.map((r) => r.bytesPerSecond));
    // Each round measures both back to back: the median of their ratios is steadier than the ratio of medians on a busy machine.
    const stallRatio = median(stalled.map((r, i) => r.bytesPerSecond / alone[i]!.bytesPerSecond));
    row("healthy viewer throughput (MB/s)", mbps(aloneRate), mbps(stalledRate), `${stallRatio.toFixed(2)}×`);
    row("longest gap between its chunks (ms)", median(alone.map((r) => r.maxGapMs)).toFixed(0), median(stalled.map((r) => r.maxGapMs)).toFixed(0), "");

    console.log(`\n2. Relay process memory (RSS, MB; pi not included)`);
    console.log(`${"bare node (for scale)".padEnd(46)}${nodeRss.toFixed(1).padStart(12)}`);
    console.log(`${"pier idle, stand-in pi".padEnd(46)}${idle.toFixed(1).padStart(12)}`);
    console.log(`${"pier --demo idle (real pi, demo model)".padEnd(46)}${demoIdle.toFixed(1).padStart(12)}`);
    console.log(`${"pier idle, run from its TypeScript sources".padEnd(46)}${sourcesIdle.toFixed(1).padStart(12)}`);
    console.log(
      `${"peak during 1 GB with a stalled viewer".padEnd(46)}${Math.max(...stalledPeaks)
        .toFixed(1)
        .padStart(12)}`,
    );
    console.log(`${"peak over the whole run (VmHWM)".padEnd(46)}${peak.toFixed(1).padStart(12)}`);
    console.log(`${"idle again after the run".padEnd(46)}${idleAfter.toFixed(1).padStart(12)}`);
  }

  if (PARTS.has(3)) {
    console.log(`\n3. One client, ${BARE_STREAM / MB} MB of pi records (median of ${BARE_ROUNDS}; uptime load ${loadAverage()})`);
    row("", "bare ws", "pier", "ratio");
    const pierRatio = median(viaPier.map((rate, i) => rate / viaBare[i]!));
    row("throughput at the client (MB/s)", mbps(median(viaBare)), mbps(median(viaPier)), `${pierRatio.toFixed(2)}×`, "target ≥ 0.95×");
    const pierCpu = median(cpuPerGB.pier);
    const bareCpu = median(cpuPerGB.bare);
    const cpuRatio = median(cpuPerGB.pier.map((cpu, i) => cpu / cpuPerGB.bare[i]!));
    row("relay process CPU per GB (ms)", bareCpu.toFixed(0), pierCpu.toFixed(0), `${cpuRatio.toFixed(2)}×`, "target ≤ 1.05×");
    row("the limit: bare ws sending from memory", "memory", "pier", "");
    row("  throughput at the client (MB/s)", mbps(median(fromMemory)), mbps(median(viaPier)), `${median(viaPier.map((rate, i) => rate / fromMemory[i]!)).toFixed(2)}×`);
    row("  relay process CPU per GB (ms)", median(cpuPerGB.memory).toFixed(0), pierCpu.toFixed(0), `${median(cpuPerGB.pier.map((cpu, i) => cpu / cpuPerGB.memory[i]!)).toFixed(2)}×`);
    console.log("(ratios: median of each round's pair, measured back to back; the limit's rows compare pier with it)");
  }
} finally {
  for (const started of bares) await stopProcess(started.process);
  for (const pier of piers) await pier.stop();
  await rm(workspace, { recursive: true, force: true });
}
