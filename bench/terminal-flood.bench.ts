// A shell that floods output (issue #34 item 4, "Measured": 50 MB through one
// shell with two browsers attached, longest task ≤ 50 ms). Real pier, a real
// PTY, real Chromium: a Pier page with a shell tab open runs
// `head -c 50000000 /dev/urandom | base64` and `yes | head -c 50000000`, each
// followed by an end marker, and prints for each flood:
// - the page's longest main-thread task, wall and its own CPU time, and the
//   p95 of its task lengths (a Chromium trace of that browser: every task);
// - the time from Enter until the end marker is on screen;
// - typing-echo latency during the flood: a key typed every few hundred ms,
//   until xterm has parsed the shell's echo of it and drawn a frame
//   (support/terminal-echo.ts says why not "until seen");
// with Pier alone, then with a second browser (its own Chromium, the same
// driver) attached to the same shell and typing too (its figures beside).
// The second browser's attach is measured too: its terminal replays the
// shell's 1 MB scrollback, from the click until it has drawn all of it.
// Beside them the floor: a bare page that only writes the same kind of
// socket's bytes into xterm's `write` (support/terminal-floor/), so the
// ratio Pier ÷ floor is Pier's share and the floor the machine's.
// Measurements only: asserts nothing.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { startPier, type RunningPier } from "../relay/test/support/pier-process.ts";
import { mainThreadTasks, type MainThreadTask } from "./support/main-thread-tasks.ts";
import { BENCH_CHROMIUM_ARGS, baselineDistFromEnv, openPier } from "./support/pier-page.ts";
import { installEchoProbe } from "./support/terminal-echo.ts";

const BYTES = Math.round(Number(process.env.PIER_BENCH_FLOOD_MB ?? 50) * 1_000_000);
const ECHO_EVERY_MS = 300;
const FLOODS = [
  { name: "base64 of urandom", command: `head -c ${BYTES} /dev/urandom | base64` },
  { name: "yes", command: `yes | head -c ${BYTES}` },
];
/** A folder to keep each browser's trace of each stretch in, with what ran inside the tasks (devtools.timeline): to find what a long task was. */
const TRACES = process.env.PIER_BENCH_FLOOD_TRACES ?? null;
const CATEGORIES = ["toplevel", "__metadata", ...(TRACES === null ? [] : ["devtools.timeline", "v8"])];
const XTERM = new URL("../web/node_modules/@xterm/xterm/", import.meta.url).pathname;
const FLOOR_HTML = new URL("./support/terminal-floor/index.html", import.meta.url).pathname;
if (!existsSync(new URL("../web/dist/index.html", import.meta.url))) {
  console.log("web/dist is not built: run `pnpm --filter @pier/web build` first. Skipping.");
  process.exit(0);
}

/** One attached page: where its shell's rows are, and the key it types for the echo. */
type Side = { page: Page; browser: Browser; rows: string; key: string };
type Figures = { longest: { wall: number; cpu: number }; p95: number; endMs: number; echoes: number[] };

const launch = () =>
  chromium.launch({
    ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", ...BENCH_CHROMIUM_ARGS],
  });

console.log(`machine: ${execFileSync("uptime", { encoding: "utf8" }).trim()}`);
const pier = await startPier(["--demo"]);
const first = await launch();
const second = await launch();
try {
  // Pier's shell tab, to learn its size (the floor takes the same).
  const mainContext = await newContext(first, pier);
  const main = await openPier(mainContext, pier, baselineDistFromEnv());
  await main.getByRole("status", { name: "Connection: Connected" }).waitFor();
  await main.getByRole("button", { name: "Show terminal" }).click();
  const dock = main.getByRole("region", { name: "Terminal" });
  await dock.getByRole("button", { name: "+ Shell" }).click();
  const tab = dock.getByRole("button", { name: /^(bash|sh|zsh|fish|dash) 1$/ });
  const title = (await tab.textContent())!.trim();
  const panelRows = `[aria-label="Shell ${title}"] .xterm-rows`;
  await main.locator(`${panelRows}`).waitFor();
  await typeLine(main, `[aria-label="Shell ${title}"] .xterm-screen`, "echo size-$(stty size | tr ' ' x)-");
  await main.waitForFunction((sel) => /size-\d+x\d+-/.test(document.querySelector(sel)?.textContent ?? ""), panelRows);
  const [rows, cols] = /size-(\d+)x(\d+)-/
    .exec((await main.locator(panelRows).textContent())!)!
    .slice(1)
    .map(Number) as [number, number];
  console.log(`Terminal flood: ${(BYTES / 1e6).toFixed(0)} MB per flood, a ${cols}×${rows} shell, real pier + PTY + Chromium`);

  // The floor: its own shell, bare xterm, in the first browser, with Pier's page idle beside it.
  const floorContext = await newContext(first, pier);
  await floorContext.route(`${pier.origin}/__bench/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const file = path === "/__bench/terminal-floor" ? FLOOR_HTML : path === "/__bench/xterm.mjs" ? join(XTERM, "lib/xterm.mjs") : path === "/__bench/xterm.css" ? join(XTERM, "css/xterm.css") : null;
    if (file === null) return route.fulfill({ status: 404 });
    const type = file.endsWith(".html") ? "text/html" : file.endsWith(".css") ? "text/css" : "text/javascript";
    return route.fulfill({ status: 200, headers: { "content-type": type }, body: readFileSync(file) });
  });
  const floorPage = await floorContext.newPage();
  await floorPage.goto(`${pier.origin}/__bench/terminal-floor?cols=${cols}&rows=${rows}`);
  await floorPage.locator("body[data-ready=true]").waitFor();
  const floor = { page: floorPage, browser: first, rows: ".xterm-rows", key: "#" };
  await typeLine(floorPage, ".xterm-screen", "echo floor-ready-$((2*3))");
  await floorPage.waitForFunction(() => document.querySelector(".xterm-rows")?.textContent?.includes("floor-ready-6"));

  const results: { flood: string; floor: Figures; alone: Figures; together: Figures; other: Figures }[] = [];
  for (const [k, flood] of FLOODS.entries()) {
    const floorFigures = (await runFlood(flood.command, 100 + k, [floor]))[0]!;
    row(`${flood.name}, floor (bare xterm)`, floorFigures);
    const alone = (await runFlood(flood.command, 200 + k, [{ page: main, browser: first, rows: panelRows, key: "#" }]))[0]!;
    row(`${flood.name}, Pier, one browser`, alone);
    results.push({ flood: flood.name, floor: floorFigures, alone, together: alone, other: alone });
  }
  await floorContext.close();

  // The second browser: the same driver in its own Chromium, attached to the same shell. Attaching replays
  // the scrollback (the last 1 MB of the floods above) into a fresh terminal: traced until it is all drawn.
  const otherContext = await newContext(second, pier);
  const other = await openPier(otherContext, pier, baselineDistFromEnv());
  await other.getByRole("status", { name: "Connection: Connected" }).waitFor();
  await second.startTracing(undefined, { categories: CATEGORIES });
  const attachStarted = performance.now();
  await other.getByRole("button", { name: "Show terminal" }).click();
  await other.getByRole("region", { name: "Terminal" }).getByRole("button", { name: title, exact: true }).click();
  await other.locator(panelRows).waitFor();
  await other.waitForFunction(() => (window as unknown as { __terminalCaughtUp: () => boolean }).__terminalCaughtUp(), undefined, { polling: 50, timeout: 120_000 });
  const attachMs = performance.now() - attachStarted;
  const attach = taskFigures(mainThreadTasks(keep(await second.stopTracing(), "attach-2nd")));
  console.log(
    `${"2nd browser attaching (scrollback)".padEnd(38)} longest task ${ms(attach.longest.wall).padStart(7)} wall, ${ms(attach.longest.cpu).padStart(6)} CPU; p95 ${attach.p95.toFixed(1).padStart(5)} ms; all drawn after ${ms(attachMs).padStart(8)}`,
  );
  await other.locator(`[aria-label="Shell ${title}"] .xterm-screen`).click();
  await main.locator(`[aria-label="Shell ${title}"] .xterm-screen`).click();
  for (const [k, flood] of FLOODS.entries()) {
    const [together, otherFigures] = await runFlood(flood.command, 300 + k, [
      { page: main, browser: first, rows: panelRows, key: "#" },
      { page: other, browser: second, rows: panelRows, key: "%" },
    ]);
    results[k]!.together = together!;
    results[k]!.other = otherFigures!;
    row(`${flood.name}, Pier, 2 browsers: 1st`, together!);
    row(`${flood.name}, Pier, 2 browsers: 2nd`, otherFigures!);
  }

  console.log("");
  for (const r of results) {
    console.log(
      `${r.flood}, Pier ÷ floor (one browser): longest task ${ratio(r.alone.longest.wall, r.floor.longest.wall)} wall, ${ratio(r.alone.longest.cpu, r.floor.longest.cpu)} CPU; end ${ratio(r.alone.endMs, r.floor.endMs)}; echo ${ratio(median(r.alone.echoes), median(r.floor.echoes))}`,
    );
  }
  console.log(`\n(issue #34 asks for a longest task ≤ 50 ms; wall time counts waiting for a core on this shared machine, CPU time is the page's own work)`);
  console.log(`machine: ${execFileSync("uptime", { encoding: "utf8" }).trim()}`);
} finally {
  await first.close();
  await second.close();
  await pier.stop();
}

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}
function ratio(a: number, b: number): string {
  return b > 0 ? `${(a / b).toFixed(1)}×` : "—";
}
function median(values: number[]): number {
  return values.length === 0 ? NaN : [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/** One measured line, printed as soon as it is measured. */
function row(label: string, f: Figures): void {
  const echo = `${ms(median(f.echoes))} median, ${ms(f.echoes.length > 0 ? Math.max(...f.echoes) : NaN)} worst (${f.echoes.length} keys)`;
  console.log(
    `${label.padEnd(38)} longest task ${ms(f.longest.wall).padStart(7)} wall, ${ms(f.longest.cpu).padStart(6)} CPU; p95 ${f.p95.toFixed(1).padStart(5)} ms; end shown after ${ms(f.endMs).padStart(8)}; echo ${echo}`,
  );
}

async function newContext(browser: Browser, pier: RunningPier): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(installEchoProbe);
  const at = pier.cookie.indexOf("=");
  await context.addCookies([{ name: pier.cookie.slice(0, at), value: pier.cookie.slice(at + 1), url: pier.origin, httpOnly: true, sameSite: "Strict" }]);
  return context;
}

async function typeLine(page: Page, screen: string, text: string): Promise<void> {
  await page.locator(screen).click();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

/**
 * Runs `command` then an end marker in the shell of `sides[0]`, every side
 * typing its key every ECHO_EVERY_MS meanwhile, each browser traced; the
 * figures of each side once every side shows the marker.
 */
async function runFlood(command: string, tag: number, sides: Side[]): Promise<Figures[]> {
  const marker = `flood-end-${tag * 7}`;
  const cutOffBefore = cutOffs();
  const browsers = [...new Set(sides.map((side) => side.browser))];
  for (const browser of browsers) await browser.startTracing(undefined, { categories: CATEGORIES });
  await sides[0]!.page.keyboard.type(`${command}; echo flood-end-$((${tag}*7))`);
  const started = performance.now();
  await sides[0]!.page.keyboard.press("Enter");
  const endMs = sides.map(() => NaN);
  const shown = sides.map((side, i) =>
    side.page
      .waitForFunction(({ rows, marker }) => document.querySelector(rows)?.textContent?.includes(marker), { rows: side.rows, marker }, { polling: 100, timeout: 600_000 })
      .then(() => (endMs[i] = performance.now() - started)),
  );
  let flooding = true;
  const allShown = Promise.all(shown).finally(() => (flooding = false));
  const echoes: number[][] = sides.map(() => []);
  while (flooding) {
    for (const [i, side] of sides.entries()) {
      if (!flooding) break;
      await new Promise((resolve) => setTimeout(resolve, ECHO_EVERY_MS));
      if (!flooding) break;
      await side.page.evaluate((key) => (window as unknown as { __echoArm: (key: string) => void }).__echoArm(key), side.key);
      await side.page.keyboard.type(side.key);
      const latency = await side.page.evaluate(() => (window as unknown as { __echoResult: (ms: number) => Promise<number | null> }).__echoResult(10_000));
      // An echo that came after the flood's end is not a measurement during it.
      if (latency !== null && flooding) echoes[i]!.push(latency);
    }
  }
  await allShown;
  // A page cut off for falling too far behind reattaches (its terminal reset, the scrollback replayed): say so beside its figures.
  const cut = cutOffs() - cutOffBefore;
  if (cut > 0) console.log(`  (the flood below: the relay cut off ${cut} socket${cut === 1 ? "" : "s"} for falling too far behind, and the page reattached)`);
  const traces = new Map<Browser, MainThreadTask[]>();
  for (const [i, browser] of browsers.entries()) traces.set(browser, mainThreadTasks(keep(await browser.stopTracing(), `flood-${tag}-${i === 0 ? "1st" : "2nd"}`)));
  // The keys typed meanwhile wait on the shell's line: erase it.
  await sides[0]!.page.keyboard.press("Control+U");
  return sides.map((side, i) => ({ ...taskFigures(traces.get(side.browser)!), endMs: endMs[i]!, echoes: echoes[i]! }));
}

/** How many sockets pier has cut off for falling too far behind a shell so far (it logs each). */
function cutOffs(): number {
  return pier.stderr.filter((line) => /fell more than .* behind/.test(line)).length;
}

/** Writes a trace into TRACES when asked to keep them. */
function keep(trace: Buffer, name: string): Buffer {
  if (TRACES !== null) {
    mkdirSync(TRACES, { recursive: true });
    writeFileSync(join(TRACES, `${name}.json`), trace);
  }
  return trace;
}

/** The longest task (its wall time, and the most CPU any task took) and the p95 of the tasks' wall times. */
function taskFigures(tasks: MainThreadTask[]): Pick<Figures, "longest" | "p95"> {
  const byWall = tasks.map((task) => task.wall).sort((a, b) => a - b);
  const longest = tasks.reduce((a, b) => (b.wall > a.wall ? b : a), { wall: 0, cpu: 0 });
  const longestCpu = Math.max(0, ...tasks.map((task) => task.cpu));
  return { longest: { wall: longest.wall, cpu: longestCpu }, p95: byWall[Math.floor(byWall.length * 0.95)] ?? 0 };
}
