// Throughput of what the page does with each record pi sends: pi's stdout
// bytes → JsonlDecoder → settling (web/src/lib/relay/settle-records.ts) →
// session reducer → record log, against the least any client must do: bare
// JSON.parse of the same lines, already split, one string per line.
//
// The workload (bench/support/reducer-workload.ts) is real pi 0.87.1 output
// (web/test/fixtures) repeated into one growing session of at least 100,000
// records, fed in 64 KiB chunks. It runs twice with the same code: in Node,
// and in Chromium, the engine that runs it for real (bundled with Vite into
// a blank page). The two engines differ most in UTF-8 decoding, which the
// baseline skips. Prints medians and throughput ratios (higher is better,
// 1.00 = as fast as JSON.parse alone); asserts nothing.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { chromium } from "@playwright/test";
import { build, type Rollup } from "vite";
import { buildWorkload, timeReducer, type ReducerTimings } from "./support/reducer-workload.ts";

const MIN_RECORDS = 100_000;
const ROUNDS = 11;

const fixtures = new URL("../web/test/fixtures/", import.meta.url);
const transcripts = readdirSync(fixtures)
  .filter((name) => name.endsWith(".jsonl"))
  .map((name) => readFileSync(new URL(name, fixtures), "utf8"));

function report(engine: string, t: ReducerTimings): void {
  const mib = t.bytes / 1024 / 1024;
  const rate = (ms: number) =>
    `${Math.round(t.records / (ms / 1000))
      .toLocaleString("en")
      .padStart(9)} records/s, ${(mib / (ms / 1000)).toFixed(0).padStart(4)} MiB/s`;
  console.log(
    `reducer benchmark in ${engine}: ${t.records.toLocaleString("en")} records, ${mib.toFixed(1)} MiB, one growing session ` +
      `(${t.messages.toLocaleString("en")} messages, ${t.tools.toLocaleString("en")} tool runs at the end), ${t.rounds} rounds (median)`,
  );
  console.log(`  JSON.parse of the split lines:      ${t.parseMs.toFixed(1).padStart(7)} ms  ${rate(t.parseMs)}`);
  console.log(`  decode + reduce + log:              ${t.fullMs.toFixed(1).padStart(7)} ms  ${rate(t.fullMs)}`);
  console.log(`  decode + reduce (no log):           ${t.noLogMs.toFixed(1).padStart(7)} ms  ${rate(t.noLogMs)}`);
  console.log(`  decode only (JsonlDecoder):         ${t.decodeMs.toFixed(1).padStart(7)} ms  ${rate(t.decodeMs)}`);
  console.log(`  UTF-8 decoding alone (TextDecoder): ${t.utf8Ms.toFixed(1).padStart(7)} ms  ${rate(t.utf8Ms)}`);
  console.log(`  throughput ratio, decode + reduce + log ÷ JSON.parse: ${(t.parseMs / t.fullMs).toFixed(2)} (higher is better)`);
  console.log(`  throughput ratio, decode + reduce ÷ JSON.parse:       ${(t.parseMs / t.noLogMs).toFixed(2)}`);
  console.log(`  throughput ratio, decode only ÷ JSON.parse:           ${(t.parseMs / t.decodeMs).toFixed(2)} (UTF-8 decoding and framing, which pre-split strings skip)`);
  console.log(`  ceiling for any decoder of the bytes: JSON.parse ÷ (JSON.parse + UTF-8 decoding alone) = ${(t.parseMs / (t.parseMs + t.utf8Ms)).toFixed(2)}`);
}

// Node: each timed run starts from a collected heap.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
report(
  "Node " + process.version,
  timeReducer(buildWorkload(transcripts, MIN_RECORDS), ROUNDS, collectGarbage, () => performance.now()),
);

// Chromium: the same workload module, bundled into a blank page.
const bundled = await build({
  configFile: false,
  logLevel: "silent",
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
  const version = browser.version();
  const timings = await page.evaluate(([texts, min, rounds]) => globalThis.pierReducerBench(texts, min, rounds), [transcripts, MIN_RECORDS, ROUNDS] as const);
  console.log("");
  report(`Chromium ${version}`, timings);
} finally {
  await browser.close();
}
