// Throughput of what the page does with each record pi sends: pi's stdout
// bytes → JsonlDecoder → settling (web/src/lib/relay/settle-records.ts) →
// session reducer → record log, against the least any client of the bytes
// must do (the anchor): TextDecoder, split at LF and JSON.parse, on the same
// 64 KiB chunks, done two ways (bytes split, then each line decoded; or each
// chunk decoded, then its text split), the faster of which is the anchor.
// Beside it, bare JSON.parse of the lines already split.
//
// The workload (bench/support/reducer-workload.ts) is real pi 0.87.1 output
// (web/test/fixtures) repeated into one growing session of at least 100,000
// records, fed in 64 KiB chunks. It runs in Chromium, the engine that runs
// it for real, bundled with Vite and the Svelte plugin into a blank page:
// there the records are reduced into the page's own state (the `$state`
// store of pi-state/session-store.svelte.ts, a deep Svelte proxy), and into
// plain objects beside it. Then in Node, into plain objects (Node has no
// Svelte compiler in the loop; PIER_BENCH_REDUCER_NODE=0 skips it).
//
// Each run starts from a collected heap and is timed by the wall clock and
// by CPU time (the renderer's processes in Chromium, garbage collection on
// its helper threads included; the process in Node): on a shared, loaded
// machine the wall clock measures the neighbours, and the ratios are taken
// on CPU time. Runs alternate, so drift hits all alike. Prints medians and
// throughput ÷ the anchor (higher is better, 1.00 = as fast as the bytes
// client; target ≥ 0.7 with the page's state, issue #35 target 4); asserts
// nothing.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { chromium } from "@playwright/test";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { build, defaultClientConditions, type Rollup } from "vite";
import { createSessionState } from "../web/src/lib/pi-state/session-state.ts";
import { buildWorkload, median, reducerRuns, sessionSize, type Sample } from "./support/reducer-workload.ts";
import type { PreparedReducerBench } from "./support/reducer-page.ts";

const MIN_RECORDS = 100_000;
const ROUNDS = Number(process.env.PIER_BENCH_REDUCER_ROUNDS ?? 11);

const fixtures = new URL("../web/test/fixtures/", import.meta.url);
const transcripts = readdirSync(fixtures)
  .filter((name) => name.endsWith(".jsonl"))
  .map((name) => readFileSync(new URL(name, fixtures), "utf8"));

/** Each run ROUNDS times, alternating; the median of each measure of each. */
async function timeRuns(count: number, measure: (index: number) => Promise<Sample>): Promise<Sample[]> {
  const samples: Sample[][] = Array.from({ length: count }, () => []);
  for (let round = 0; round < ROUNDS; round++) for (let i = 0; i < count; i++) samples[i]!.push(await measure(i));
  const mid = (values: (number | null)[]) => (values.every((v) => v !== null) ? median(values as number[]) : null);
  return samples.map((runs) => ({ wallMs: median(runs.map((s) => s.wallMs)), cpuMs: mid(runs.map((s) => s.cpuMs)), mainMs: mid(runs.map((s) => s.mainMs)) }));
}

/** utime + stime of a /proc stat file, in milliseconds (Linux's clock ticks are 10 ms). */
function ticksMs(path: string): number {
  const stat = readFileSync(path, "utf8");
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function report(engine: string, about: PreparedReducerBench, medians: Sample[]): void {
  const mib = about.bytes / 1024 / 1024;
  console.log(
    `reducer benchmark in ${engine}: ${about.records.toLocaleString("en")} records, ${mib.toFixed(1)} MiB, one growing session ` +
      `(${about.messages.toLocaleString("en")} messages, ${about.tools.toLocaleString("en")} tool runs at the end), ${ROUNDS} rounds (median)`,
  );
  // The ratios are taken on the main thread's CPU time where it is known (what holds the page up), else the process's, else the wall clock.
  const basis = medians[0]!.mainMs !== null ? "main-thread CPU time" : medians[0]!.cpuMs !== null ? "CPU time" : "wall time";
  const cost = (s: Sample) => s.mainMs ?? s.cpuMs ?? s.wallMs;
  const rate = (ms: number) =>
    `${Math.round(about.records / (ms / 1000))
      .toLocaleString("en")
      .padStart(9)} records/s, ${(mib / (ms / 1000)).toFixed(0).padStart(4)} MiB/s`;
  const ms = (label: string, value: number | null) => (value === null ? "" : `${label} ${value.toFixed(0).padStart(5)} ms  `);
  medians.forEach((s, i) => {
    console.log(`  ${about.names[i]!.padEnd(52)} ${ms("main thread", s.mainMs)}${ms("CPU", s.cpuMs)}${ms("wall", s.wallMs)}${rate(cost(s))}`);
  });
  // The anchor: the faster of its two ways.
  const anchor = cost(medians[0]!) <= cost(medians[1]!) ? medians[0]! : medians[1]!;
  about.names.forEach((name, i) => {
    if (i < 2 || name.startsWith("UTF-8") || name.startsWith("JSON.parse")) return;
    const all = anchor.cpuMs !== null && anchor.mainMs !== null ? ` (all threads: ${(anchor.cpuMs / medians[i]!.cpuMs!).toFixed(2)})` : "";
    console.log(`  throughput ÷ anchor, ${name}: ${(cost(anchor) / cost(medians[i]!)).toFixed(2)}${all}`);
  });
  console.log(`  (on ${basis}; higher is better; target ≥ 0.7 for decode + reduce + log into the page's $state store)`);
}

// Chromium: the workload module bundled into a blank page, with the page's
// `$state` store compiled as the page's build compiles it.
const bundled = await build({
  configFile: false,
  logLevel: "silent",
  plugins: [svelte({ configFile: false })],
  // Spread the defaults, as web/vite.config.ts does: without "browser" Svelte's server build gets bundled.
  resolve: { conditions: [...defaultClientConditions] },
  build: {
    write: false,
    minify: false,
    lib: { entry: new URL("./support/reducer-page.ts", import.meta.url).pathname, formats: ["iife"], name: "pierReducerPage" },
  },
});
const output = (Array.isArray(bundled) ? bundled[0]! : bundled) as Rollup.RollupOutput;
const script = output.output[0].code;

const browser = await chromium.launch({
  ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
  args: ["--no-sandbox", "--disable-gpu", "--js-flags=--expose-gc"],
});
try {
  const page = await browser.newPage();
  await page.addScriptTag({ content: script });
  const cdp = await browser.newBrowserCDPSession();
  // CPU time of the renderers (the blank page's, and any idle spare): all their threads, and their main threads alone.
  const rendererPids = ((await cdp.send("SystemInfo.getProcessInfo")) as { processInfo: { type: string; id: number }[] }).processInfo.filter((p) => p.type === "renderer").map((p) => p.id);
  const rendererCpuMs = () => {
    let all = 0;
    let main = 0;
    for (const pid of rendererPids) {
      all += ticksMs(`/proc/${pid}/stat`);
      // The renderer's main thread, where the page's script runs, is the process's first thread.
      main += ticksMs(`/proc/${pid}/task/${pid}/stat`);
    }
    return { all, main };
  };
  const about = await page.evaluate(([texts, min]) => globalThis.pierReducer.prepare(texts, min), [transcripts, MIN_RECORDS] as const);
  const medians = await timeRuns(about.names.length, async (index) => {
    await page.evaluate(() => globalThis.pierReducer.collect());
    const before = rendererCpuMs();
    const wallMs = await page.evaluate((i) => globalThis.pierReducer.run(i), index);
    const after = rendererCpuMs();
    return { wallMs, cpuMs: after.all - before.all, mainMs: after.main - before.main };
  });
  report(`Chromium ${browser.version()}`, about, medians);
} finally {
  await browser.close();
}

// Node, plain objects.
if (process.env.PIER_BENCH_REDUCER_NODE !== "0") {
  setFlagsFromString("--expose-gc");
  const collectGarbage = runInNewContext("gc") as () => void;
  const workload = buildWorkload(transcripts, MIN_RECORDS);
  const plain = { name: "plain objects", create: createSessionState };
  const runs = reducerRuns(workload, [plain]);
  const about = { names: runs.map((run) => run.name), records: workload.lines.length, bytes: workload.bytes, ...sessionSize(workload, plain) };
  const medians = await timeRuns(runs.length, async (index) => {
    collectGarbage();
    const cpu = process.cpuUsage();
    const start = performance.now();
    runs[index]!.run();
    const wallMs = performance.now() - start;
    const used = process.cpuUsage(cpu);
    return { wallMs, cpuMs: (used.user + used.system) / 1000, mainMs: null };
  });
  console.log("");
  report("Node " + process.version, about, medians);
}
