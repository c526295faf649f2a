// A classroom of pages (issue #35, target 8): one driver page and N viewer
// PAGES, each a real Chromium page in a browser context of its own (so a
// renderer process of its own, as 200 people's browsers would be), on one
// real `pier --demo` while the driver's pi streams a long answer.
// bench/classroom.bench.ts measures the relay's fan-out with WebSocket
// viewers; this one measures what a class sees: every page parses, reduces
// and renders the session as it does for a person.
//
// How it is measured:
// - The model is the demo's scripted model playing a scenario of DELTAS text
//   deltas at an even pace over STREAM_MS (bench/support/stream-scenario.ts:
//   each delta carries a marker, "m00042", inside real Markdown).
// - "On the wire": a WebSocket client of the same pier in a process of its
//   own (bench/support/classroom-pages-wire.ts, at a raised priority where
//   allowed) notes when each marker's record reaches it: the relay's send
//   time, give or take that process's wake-up (its event-loop delay is
//   printed, and how many deltas a page showed before it saw them).
// - "Visible": a MutationObserver put in every page with addInitScript
//   (bench/support/classroom-pages-probe.ts) notes when each marker first
//   is in the page's conversation (performance.timeOrigin + now: the same
//   epoch clock as the wire client's).
// - Per page: p50 and p95 of wire → visible over the deltas. "Last viewer" is
//   the largest p95 of the N viewers (target 8: ≤ 50 ms). N = 0 is the
//   driver's page alone.
// - Socket viewers (the comparison column "sockets"): the same N on a fresh
//   pier as WebSocket clients in one forked process
//   (bench/support/classroom-pages-sockets.ts), each decoding like the page's
//   first step; measured wire → decoded, per viewer, as above.
// - The machine: Chromium's renderer processes counted from /proc (this
//   bench's own, by ancestry), their CPU seconds while streaming and RSS;
//   the relay's RSS and CPU, pi's CPU, the load average and MemAvailable.
//   On 2 cores, 200 renderers are CPU-bound: the latencies then say how long
//   a page waits for a core as much as what it does.
//
// Pages: images are off (no figure needs them; the page loads no web font
// unless Monaco opens); the rest of the page is as a person gets it (its
// service worker included). Pages are
// spread over several Chromium browsers (PAGES_PER_BROWSER each) so that no
// one browser process carries them all.
//
// Environment: PIER_BENCH_PAGES=0,10,50,200 is the list of N (the default
// with 8 cores or more; with fewer, 0,10: on 2 cores one page took ~17 ms of
// renderer CPU per delta it drew, so ~10 pages keep up, and N = 50 alone took
// 14 minutes, most of it 50 pages opening and then catching up);
// PIER_BENCH_SOCKETS=0 leaves the socket columns out (default: one per N > 0);
// PIER_BENCH_DELTAS (default 100) and PIER_BENCH_STREAM_MS (default 10000)
// set the answer (10 deltas a second, a model writing at a reading pace: on
// this 2-core machine one Pier page alone took ~0.3 of a core at 20 deltas a
// second, so 200 of them at that pace would need ~60 cores, and the run would
// be mostly the pages catching up); PIER_BENCH_PAGES_PER_BROWSER (default 50). Measurements
// only: it asserts nothing. Run it under `flock /tmp/pier-bench.lock`.
import { fork } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { connectBrowser, startPier, type RunningPier } from "../relay/test/support/pier-process.ts";
import { classroomProbe, type ProbeResult } from "./support/classroom-pages-probe.ts";
import { chromiumOf, cpuByPid, cpuMsOf, cpuSince, loadAverage, memAvailableMB, rssMBOf, threadCpuByName, type ProcessInfo } from "./support/classroom-pages-procs.ts";
import { BENCH_CHROMIUM_ARGS, openPier } from "./support/pier-page.ts";
import { streamScenario } from "./support/stream-scenario.ts";

const DIST = new URL("../web/dist/", import.meta.url).pathname;
if (!existsSync(join(DIST, "index.html"))) {
  console.log("web/dist is not built: run `pnpm --filter @pier/web build` first. Skipping.");
  process.exit(0);
}
if (!existsSync("/proc/self/status")) {
  console.log("This benchmark reads CPU time and memory from Linux's /proc. Skipping.");
  process.exit(0);
}

const positive = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, not ${JSON.stringify(raw)}`);
  return value;
};
const DEFAULT_COUNTS = availableParallelism() >= 8 ? "0,10,50,200" : "0,10";
const COUNTS = (process.env.PIER_BENCH_PAGES ?? DEFAULT_COUNTS).split(",").map((part) => {
  const n = Number(part.trim());
  if (!Number.isInteger(n) || n < 0 || n > 400) throw new Error(`PIER_BENCH_PAGES: ${JSON.stringify(part)} is not a number of viewer pages from 0 to 400`);
  return n;
});
const SOCKETS = process.env.PIER_BENCH_SOCKETS !== "0";
const DELTAS = positive("PIER_BENCH_DELTAS", 100);
if (DELTAS > 99_999) throw new Error("PIER_BENCH_DELTAS: the markers have five digits, at most 99999 deltas");
const STREAM_MS = positive("PIER_BENCH_STREAM_MS", 10_000);
const PAGES_PER_BROWSER = positive("PIER_BENCH_PAGES_PER_BROWSER", 50);
/** Pages opening at once: a class arriving over a minute, not all in one instant (and 2 cores). */
const OPENING_AT_ONCE = 6;
/** No viewer page opens while the machine has less memory available than this (MB): other work shares it. */
const MEMORY_RESERVE_MB = 4000;
/** The quiet moment before the prompt in which the pages' idle CPU is measured. */
const IDLE_MS = 3000;
/** Links a socket may ask for before its request budget (relay/src/rate-limit.ts: 30 at once) runs out. */
const LINKS_PER_SOCKET = 25;
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  // Each viewer is the tab someone is looking at: never throttled as a background one.
  "--disable-renderer-backgrounding",
  "--disable-background-timer-throttling",
  "--disable-backgrounding-occluded-windows",
  // Chromium caps renderer processes by the machine's memory (and then shares them); one per context is the point here.
  "--renderer-process-limit=1000",
  // No figure needs images (a route refusing them would send every request of every page through this process).
  // (One --blink-settings counts: Playwright's own pointer settings are repeated here.)
  "--blink-settings=imagesEnabled=false,primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4",
  ...BENCH_CHROMIUM_ARGS,
];

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (values: readonly number[], q: number): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const median = (values: readonly number[]) => quantile(values, 0.5);
const now = () => performance.timeOrigin + performance.now();

// ── links ──────────────────────────────────────────────────────────────

/** `count` viewer links, asked for over driver sockets of their own (each socket has its own request budget). */
async function viewerLinks(pier: RunningPier, count: number): Promise<string[]> {
  const links: string[] = [];
  for (let i = 0; i < count; i += LINKS_PER_SOCKET) {
    const socket = await connectBrowser(pier, { parseRecords: false });
    try {
      const asked = Math.min(LINKS_PER_SOCKET, count - i);
      for (let k = 0; k < asked; k++) socket.send({ type: "pier.create_link", role: "viewer" });
      const made = await socket.waitUntil(() => {
        const frames = socket.frames.filter((frame) => frame.type === "link_created");
        return frames.length >= asked && frames;
      }, `${asked} link_created frames`);
      for (const frame of made) links.push(`http://${pier.host}/?token=${(frame as { token: string }).token}`);
    } finally {
      await socket.close();
    }
  }
  return links;
}

// ── the pages ──────────────────────────────────────────────────────────

/** A context for one person, the probe in. */
async function personContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(classroomProbe, DELTAS);
  return context;
}

/**
 * What a page asks of pier while the answer streams (HTTP requests, WebSocket
 * messages it sends): a viewer that re-fetches something per record would show
 * here. Counted from `streaming` being set.
 */
const asked = new WeakMap<Page, { requests: string[]; sent: number }>();
let streaming = false;
function countAsks(page: Page): void {
  const counts = { requests: [] as string[], sent: 0 };
  asked.set(page, counts);
  page.on("request", (request) => void (streaming && counts.requests.push(`${request.method()} ${new URL(request.url()).pathname}`)));
  page.on("websocket", (socket) => socket.on("framesent", () => void (streaming && counts.sent++)));
}

async function openViewerPage(browser: Browser, link: string): Promise<{ context: BrowserContext; page: Page; ms: number }> {
  const started = performance.now();
  const context = await personContext(browser);
  const page = await context.newPage();
  countAsks(page);
  // A class opening on 2 cores: a page can wait long for a core before its load event.
  await page.goto(link, { timeout: 180_000 });
  await page.getByRole("status", { name: "Connection: Connected" }).waitFor({ timeout: 120_000 });
  // The probe needs the conversation column: it is there once the session is shown.
  await page.locator('[role="log"][aria-label="Conversation"]').waitFor({ timeout: 120_000 });
  return { context, page, ms: performance.now() - started };
}

/** Runs `work` on every item, at most `limit` at once. */
async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}

// ── helper processes: the wire client and the socket viewers ──────────

const WIRE_SCRIPT = fileURLToPath(new URL("./support/classroom-pages-wire.ts", import.meta.url));
const SOCKETS_SCRIPT = fileURLToPath(new URL("./support/classroom-pages-sockets.ts", import.meta.url));

/** A forked helper that answers each IPC request with one message of the same type. */
function helper(script: string) {
  const child = fork(script, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const waiting = new Map<string, { resolve(message: any): void; reject(error: Error): void }>();
  let failed: Error | null = null;
  child.on("message", (message: { type: string; message?: string }) => {
    if (message.type === "failed") {
      failed = new Error(`${script}: ${message.message}`);
      for (const waiter of waiting.values()) waiter.reject(failed);
      waiting.clear();
      return;
    }
    waiting.get(message.type)?.resolve(message);
    waiting.delete(message.type);
  });
  const ask = <T = Record<string, unknown>>(request: { type: string; [key: string]: unknown }): Promise<T> =>
    failed
      ? Promise.reject(failed)
      : new Promise<T>((resolve, reject) => {
          waiting.set(request.type, { resolve, reject });
          child.send(request);
        });
  return {
    pid: child.pid!,
    ask,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await Promise.race([ask({ type: "close" }).catch(() => undefined), delay(3000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
type Helper = ReturnType<typeof helper>;

// ── one classroom ──────────────────────────────────────────────────────

interface Sample {
  kind: "pages" | "sockets";
  viewers: number;
  browsers: number;
  /** Renderer processes this bench's Chromiums ran while streaming. */
  renderers: number;
  openMs: number;
  driverP50: number;
  driverP95: number;
  /** Per viewer p50 and p95 (ms, wire → visible or decoded). */
  viewerP50: number[];
  viewerP95: number[];
  /** Deltas some viewer never showed. */
  missing: number;
  negative: number;
  streamMs: number;
  rendererCpuS: number;
  otherChromiumCpuS: number;
  socketsCpuS: number;
  relayCpuS: number;
  piCpuS: number;
  benchCpuS: number;
  relayIdleMB: number;
  relayConnectedMB: number;
  relayPeakMB: number;
  renderersRssMB: number;
  chromiumRssMB: number;
  memAvailableMinMB: number;
  loadBefore: number;
  loadAfter: number;
  wireLoopP99: number;
  wireLoopMax: number;
  wirePriority: number;
  /** Per viewer page: link opened → its conversation shown, ms. */
  pageOpenMs: number[];
  /** Viewers that opened (fewer than asked when memory ran short). */
  opened: number;
  /** Renderers' CPU (% of one core) per second while streaming: does a page's work grow with the answer? */
  cpuSeries: number[];
  /** The renderers' busiest threads while streaming, by name: CPU seconds, all renderers together. */
  rendererThreads: [string, number][];
  /** Chromium's CPU (% of one core) while every page sat idle, before the prompt. */
  idleChromiumCpuPct: number;
  hidden: number;
  /** Per viewer page, while streaming: HTTP requests and WebSocket messages sent; a few of the requests. */
  viewerRequests: number[];
  viewerSent: number[];
  requestKinds: string[];
}

const scenarioDir = await mkdtemp(join(tmpdir(), "pier-classroom-pages-"));
const scenarioFile = join(scenarioDir, "stream.json");
// burst 1: a delta every STREAM_MS/DELTAS ms, like a model writing steadily.
await writeFile(scenarioFile, JSON.stringify(streamScenario({ deltas: DELTAS, durationMs: STREAM_MS, burst: 1 })));

const launch = () => chromium.launch({ ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}), args: CHROMIUM_ARGS });
/** A process's children (pier's: its pi). */
const childPidsOf = (pid: number): number[] => readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
const sumRssMB = (processes: readonly ProcessInfo[]) => processes.reduce((sum, p) => sum + p.rssKB, 0) / 1024;

async function classroom(viewers: number, kind: "pages" | "sockets"): Promise<Sample> {
  const pier = await startPier(["--demo", "--new-session", "--demo-scenario", scenarioFile]);
  const pages = kind === "pages" ? viewers : 0;
  const browsers: Browser[] = [];
  const contexts: BrowserContext[] = [];
  let wire: Helper | null = null;
  let sockets: Helper | null = null;
  try {
    for (let i = 0; i < Math.max(1, Math.ceil((pages + 1) / PAGES_PER_BROWSER)); i++) browsers.push(await launch());
    const relayPid = pier.process.pid!;

    // The driver's page, then the wire client (so the page's first records are not in the measured stream).
    const driverContext = await personContext(browsers[0]!);
    contexts.push(driverContext);
    const driver = await openPier(driverContext, pier, null);
    countAsks(driver);
    await driver.getByRole("heading", { name: "What should pi work on?" }).waitFor({ timeout: 60_000 });
    wire = helper(WIRE_SCRIPT);
    const { priority } = await wire.ask<{ priority: number }>({ type: "connect", host: pier.host, cookie: pier.cookie, deltas: DELTAS });
    const piPid = childPidsOf(relayPid)[0];
    await delay(1000);
    const relayIdleMB = rssMBOf(relayPid);

    // The class arrives: each viewer with a link of its own.
    const links = await viewerLinks(pier, viewers);
    const opened = performance.now();
    const viewerPages: Page[] = [];
    const pageOpenMs: number[] = [];
    if (kind === "pages") {
      // The machine is shared: no page opens once MemAvailable is under MEMORY_RESERVE_MB (the output says how many did).
      const openedPages = await inBatches(links, OPENING_AT_ONCE, (link, i) =>
        memAvailableMB() < MEMORY_RESERVE_MB ? Promise.resolve(null) : openViewerPage(browsers[(i + 1) % browsers.length]!, link),
      );
      for (const opened of openedPages) {
        if (opened === null) continue;
        const { context, page, ms } = opened;
        contexts.push(context);
        viewerPages.push(page);
        pageOpenMs.push(ms);
      }
    } else if (viewers > 0) {
      sockets = helper(SOCKETS_SCRIPT);
      await sockets.ask({ type: "connect", links, host: pier.host, deltas: DELTAS });
    }
    const openMs = performance.now() - opened;
    // Let the pages' loading settle before the answer starts.
    await delay(3000);
    const relayConnectedMB = rssMBOf(relayPid);

    const root = process.pid;
    // What the pages cost doing nothing (a page that animates or polls while idle costs its class that times N).
    const idle0 = chromiumOf(root);
    const idleCpu0 = cpuByPid([...idle0.renderers, ...idle0.others]);
    const idleStart = performance.now();
    await delay(IDLE_MS);
    const idle1 = chromiumOf(root);
    const idleCpuS = cpuSince(idleCpu0, [...idle1.renderers, ...idle1.others]) / 1000;
    const idleWallS = (performance.now() - idleStart) / 1000;
    const before = chromiumOf(root);
    const rendererCpu0 = cpuByPid(before.renderers);
    const threads0 = threadCpuByName(before.renderers.map((p) => p.pid));
    const otherCpu0 = cpuByPid(before.others);
    const relayCpu0 = cpuMsOf(relayPid);
    const piCpu0 = piPid ? cpuMsOf(piPid) : NaN;
    const socketsCpu0 = sockets ? cpuMsOf(sockets.pid) : 0;
    const benchCpu0 = process.cpuUsage();
    const loadBefore = loadAverage();
    let relayPeakMB = rssMBOf(relayPid);
    let memAvailableMinMB = memAvailableMB();
    let renderersSeen = new Set(before.renderers.map((p) => p.pid));
    let renderersRssMB = sumRssMB(before.renderers);
    let chromiumRssMB = renderersRssMB + sumRssMB(before.others);
    const cpuSeries: number[] = [];
    let lastCpu = rendererCpu0;
    let ticks = 0;
    const sampler = setInterval(() => {
      relayPeakMB = Math.max(relayPeakMB, rssMBOf(relayPid));
      memAvailableMinMB = Math.min(memAvailableMinMB, memAvailableMB());
      if (++ticks % 4 !== 0) return;
      const renderers = chromiumOf(root).renderers;
      cpuSeries.push(cpuSince(lastCpu, renderers) / 10);
      lastCpu = cpuByPid(renderers);
    }, 250);
    await wire.ask({ type: "arm" });

    const started = now();
    streaming = true;
    const box = driver.getByRole("textbox", { name: "Prompt" });
    await box.fill("Stream a long answer");
    await box.press("Enter");
    const onWire = await wire.ask<{ sentAt: (number | null)[]; settled: number; loopP99Ms: number; loopMaxMs: number }>({ type: "collect", timeoutMs: STREAM_MS * 4 + 60_000 });
    if (onWire.settled === 0) throw new Error("pi's answer did not settle on the wire");
    // The pages finish showing what is already on the wire.
    const everyone = [driver, ...viewerPages];
    await inBatches(everyone, 8, (page) => page.waitForFunction((n) => (window as any).__classroom.highest() >= n - 1, DELTAS, { polling: 200, timeout: 60_000 }).catch(() => undefined));
    const socketResults = sockets ? await sockets.ask<{ arrivals: (number | null)[][]; cpuMs: number }>({ type: "collect", timeoutMs: 60_000 }) : null;
    clearInterval(sampler);
    streaming = false;
    const streamMs = now() - started;
    const after = chromiumOf(root);
    renderersSeen = new Set([...renderersSeen, ...after.renderers.map((p) => p.pid)]);
    renderersRssMB = Math.max(renderersRssMB, sumRssMB(after.renderers));
    chromiumRssMB = Math.max(chromiumRssMB, sumRssMB(after.renderers) + sumRssMB(after.others));
    const benchCpu = process.cpuUsage(benchCpu0);
    const threads1 = threadCpuByName(after.renderers.map((p) => p.pid));
    const rendererThreads = [...threads1]
      .map(([name, ms]): [string, number] => [name, (ms - (threads0.get(name) ?? 0)) / 1000])
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5);

    const results: ProbeResult[] = await inBatches(everyone, 8, (page) => page.evaluate(() => (window as any).__classroom.result() as ProbeResult));
    const sentAt = onWire.sentAt.map((at) => at ?? NaN);
    let missing = 0;
    let negative = 0;
    const latencies = (visible: readonly (number | null)[]) => {
      const out: number[] = [];
      for (let k = 0; k < DELTAS; k++) {
        const at = visible[k];
        if (at === null || at === undefined || Number.isNaN(sentAt[k]!)) {
          missing++;
          continue;
        }
        if (at < sentAt[k]!) negative++;
        out.push(at - sentAt[k]!);
      }
      return out;
    };
    const driverLatency = latencies(results[0]!.visible);
    const viewerLatencies = kind === "pages" ? results.slice(1).map((result) => latencies(result.visible)) : (socketResults?.arrivals ?? []).map(latencies);
    return {
      kind,
      viewers,
      browsers: browsers.length,
      renderers: renderersSeen.size,
      openMs,
      driverP50: median(driverLatency),
      driverP95: quantile(driverLatency, 0.95),
      viewerP50: viewerLatencies.map((values) => median(values)),
      viewerP95: viewerLatencies.map((values) => quantile(values, 0.95)),
      missing,
      negative,
      streamMs,
      rendererCpuS: cpuSince(rendererCpu0, after.renderers) / 1000,
      otherChromiumCpuS: cpuSince(otherCpu0, after.others) / 1000,
      socketsCpuS: socketResults ? (cpuMsOf(sockets!.pid) - socketsCpu0) / 1000 : 0,
      relayCpuS: (cpuMsOf(relayPid) - relayCpu0) / 1000,
      piCpuS: (cpuMsOf(piPid ?? -1) - piCpu0) / 1000,
      benchCpuS: (benchCpu.user + benchCpu.system) / 1e6,
      relayIdleMB,
      relayConnectedMB,
      relayPeakMB,
      renderersRssMB,
      chromiumRssMB,
      memAvailableMinMB,
      loadBefore,
      loadAfter: loadAverage(),
      wireLoopP99: onWire.loopP99Ms,
      wireLoopMax: onWire.loopMaxMs,
      wirePriority: priority,
      idleChromiumCpuPct: (100 * idleCpuS) / idleWallS,
      pageOpenMs,
      opened: kind === "pages" ? viewerPages.length : viewers,
      cpuSeries,
      rendererThreads,
      hidden: results.filter((result) => result.visibility !== "visible").length,
      viewerRequests: viewerPages.map((page) => asked.get(page)!.requests.length),
      viewerSent: viewerPages.map((page) => asked.get(page)!.sent),
      requestKinds: [...new Set(viewerPages.flatMap((page) => asked.get(page)!.requests))].slice(0, 8),
    };
  } finally {
    await sockets?.stop();
    await wire?.stop();
    await inBatches(contexts, 8, (context) => context.close().catch(() => undefined));
    for (const browser of browsers) await browser.close();
    await pier.stop();
  }
}

// ── the run ────────────────────────────────────────────────────────────

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const lastViewer = (s: Sample) => (s.viewerP95.length ? Math.max(...s.viewerP95) : NaN);

const columns = [...COUNTS.map((viewers) => ({ viewers, kind: "pages" as const })), ...(SOCKETS ? COUNTS.filter((n) => n > 0).map((viewers) => ({ viewers, kind: "sockets" as const })) : [])];
const samples: Sample[] = [];
const runStarted = performance.now();
const memStart = memAvailableMB();
try {
  for (const column of columns) {
    const sample = await classroom(column.viewers, column.kind);
    samples.push(sample);
    // Progress, for a reader watching a long run.
    console.error(
      `  ${column.kind} N=${column.viewers}: last viewer p95 ${fmt(lastViewer(sample))} ms, driver p95 ${sample.driverP95.toFixed(0)} ms (${((performance.now() - runStarted) / 1000).toFixed(0)} s)`,
    );
  }
} finally {
  await rm(scenarioDir, { recursive: true, force: true });
}

const row = (label: string, value: (s: Sample) => number, digits = 0) => console.log(`${label.padEnd(56)}${samples.map((s) => fmt(value(s), digits).padStart(11)).join("")}`);

console.log(
  `\nA classroom while the driver's pi streams ${DELTAS} text deltas over ~${STREAM_MS / 1000} s (pier --demo, scripted model, real Chromium 1280×800 pages, one browser context each; ${availableParallelism()} cores):`,
);
console.log(`${"".padEnd(56)}${samples.map((s) => s.kind.padStart(11)).join("")}`);
console.log(`${"viewers".padEnd(56)}${samples.map((s) => String(s.viewers).padStart(11)).join("")}`);
console.log("Latency, relay sent a delta → visible in the page (sockets: decoded), ms");
row("  driver page, p50", (s) => s.driverP50);
row("  driver page, p95", (s) => s.driverP95);
row("  viewers: median of their p50", (s) => median(s.viewerP50));
row("  viewers: median of their p95", (s) => median(s.viewerP95));
row("  LAST VIEWER: largest p95 (target 8: ≤ 50)", lastViewer);
row("  deltas a page never showed (all pages)", (s) => s.missing);
row("  shown before the wire client noted it (its wake-up)", (s) => s.negative);
console.log("What ran");
row("  viewers opened (fewer: MemAvailable reached the reserve)", (s) => s.opened);
row("  Chromium browsers", (s) => s.browsers);
row("  renderer processes (pages', workers', spares)", (s) => s.renderers);
row("  pages not visibilityState=visible", (s) => s.hidden);
row("  viewers opened in (s)", (s) => s.openMs / 1000, 1);
row("  one viewer page: link → conversation shown, median (s)", (s) => median(s.pageOpenMs) / 1000, 1);
row("  stream, prompt → every page showed it (s)", (s) => s.streamMs / 1000, 1);
row("  HTTP requests per viewer page while streaming, max", (s) => (s.viewerRequests.length ? Math.max(...s.viewerRequests) : NaN));
row("  WebSocket messages a viewer page sent, max", (s) => (s.viewerSent.length ? Math.max(...s.viewerSent) : NaN));
console.log("CPU while streaming (seconds; the machine had 2 per second of wall time)");
row("  (before the prompt: Chromium idle, % of one core)", (s) => s.idleChromiumCpuPct);
row("  renderers, all", (s) => s.rendererCpuS, 1);
row("  renderers, per page", (s) => s.rendererCpuS / (s.kind === "pages" ? s.viewers + 1 : 1), 2);
row("  other Chromium processes (browser, GPU, utility)", (s) => s.otherChromiumCpuS, 1);
row("  socket viewers' process", (s) => s.socketsCpuS, 1);
row("  relay (pier)", (s) => s.relayCpuS, 2);
row("  pi", (s) => s.piCpuS, 2);
row("  this process (Playwright, wire client)", (s) => s.benchCpuS, 2);
row("  all of it ÷ (2 × wall): how busy the cores were", (s) => (s.rendererCpuS + s.otherChromiumCpuS + s.socketsCpuS + s.relayCpuS + s.piCpuS + s.benchCpuS) / (2 * (s.streamMs / 1000)), 2);
row("  load average (1 min), before the prompt", (s) => s.loadBefore, 1);
row("  load average (1 min), after", (s) => s.loadAfter, 1);
row("  wire client's priority (nice)", (s) => s.wirePriority);
row("  wire client's event-loop delay p99 (ms)", (s) => s.wireLoopP99, 1);
row("  wire client's event-loop delay max (ms)", (s) => s.wireLoopMax, 1);
console.log("Memory (MB)");
row("  relay RSS, driver only", (s) => s.relayIdleMB, 1);
row("  relay RSS, viewers connected", (s) => s.relayConnectedMB, 1);
row("  relay RSS, peak while streaming", (s) => s.relayPeakMB, 1);
row("  renderers' RSS, sum (shared pages counted each time)", (s) => s.renderersRssMB);
row("  all Chromium processes' RSS, sum", (s) => s.chromiumRssMB);
row("  machine's MemAvailable, lowest while streaming", (s) => s.memAvailableMinMB);
for (const s of samples)
  if (s.kind === "pages") console.log(`${s.kind} N=${s.viewers}: renderers' CPU per second while streaming (% of one core): ${s.cpuSeries.map((pct) => pct.toFixed(0)).join(" ")}`);
for (const s of samples) console.log(`${s.kind} N=${s.viewers}: renderers' CPU seconds by thread while streaming: ${s.rendererThreads.map(([name, cpu]) => `${name} ${cpu.toFixed(1)}`).join(", ")}`);
for (const s of samples) if (s.requestKinds.length > 0) console.log(`${s.kind} N=${s.viewers}: viewers' requests while streaming included ${s.requestKinds.join(", ")}`);
if (process.env.PIER_BENCH_PAGES === undefined && DEFAULT_COUNTS === "0,10")
  console.log(`(${availableParallelism()} cores: N = 0 and 10 only; PIER_BENCH_PAGES=0,10,50,200 for the whole class, which takes far longer here)`);
console.log(`(${((performance.now() - runStarted) / 1000).toFixed(0)} s in all; MemAvailable ${memStart.toFixed(0)} MB at the start, ${memAvailableMB().toFixed(0)} MB at the end)`);
