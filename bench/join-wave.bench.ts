// A join wave (issue #35, target 1: each browser pays only for itself): one
// page open on a 5,000-message session in real Chromium (the driver, as a
// teacher's), then 20 browsers loading that session at once, against the
// real pier and pi (pi opens a generated session file with --session, the
// generator of e2e/specs/long-session.spec.ts and bench/render.bench.ts).
//
// The 20 are WebSocket clients in this process doing what a page does on
// load: open the viewer link (their own cookie), take hello and the replay,
// send get_state and get_entries, and decode the answers into records as
// the page's framing does (JsonlDecoder + JSON.parse). Not Chromium pages:
// 20 of them on these 2 cores would measure the machine, not the open page.
//
// Measured on the open page, over the same length of time, during the wave
// (from the first joiner connecting until all 20 have their answers, plus a
// short settle) and with none loading: what it received (WebSocket bytes and
// frames, counted in the page) and what it spent on its main thread (sum of
// its tasks' wall and CPU time, from a Chromium trace); the ratio is the
// figure (target ≤ 1.1×). Also: how many get_entries reached pi (its stdin
// is tapped: relay/test/support/stdin-tee-pi.mjs) and what the relay wrote
// (its /proc/<pid>/io wchar: sockets and pi's stdin).
//
// What an open page still gets during a wave is the room's news of each
// joiner (a presence frame, the peer count, for a driver the link's uses):
// ~3 small frames per joiner, none of the joiners' answers. So a third
// window has the same 20 join without loading anything (hello and replay
// only): wave ÷ that is what the loading itself costs the open page. And a
// fourth has them join so while two busy loops hold the machine's cores, as
// the joiners' decoding and the relay's sending do during a wave: on these 2
// cores a task's thread time grows when the other core is busy (~1.2× here
// for the same frames), and that is the machine's, not the page's.
//
// PIER_BENCH_ROUNDS (default 3) waves, each with its quiet window; medians.
// PIER_BENCH_BASELINE_PIER=<checkout>/relay/bin/pier.js measures that pier as
// well, side by side. Prints; asserts nothing.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser as Chromium, type Page } from "@playwright/test";
import { piUnderTest } from "../relay/test/support/pi-under-test.ts";
import { commandId, connectBrowser, exchangeToken, startPier, type Browser, type RunningPier } from "../relay/test/support/pier-process.ts";
import { writeLongSession, type LongSession } from "../e2e/support/long-session.ts";
import { mainThreadTasks } from "./support/main-thread-tasks.ts";
import { BENCH_CHROMIUM_ARGS, openPier } from "./support/pier-page.ts";

const MESSAGES = 5000;
const JOINERS = Number(process.env.PIER_BENCH_JOINERS ?? 20);
const ROUNDS = Number(process.env.PIER_BENCH_ROUNDS ?? 3);
/** After the last joiner has its answers: presence and peers frames still reaching the page. */
const SETTLE_MS = 500;
const TEE = fileURLToPath(new URL("../relay/test/support/stdin-tee-pi.mjs", import.meta.url));

if (!existsSync(new URL("../web/dist/index.html", import.meta.url))) {
  console.log("web/dist is not built: run `pnpm --filter @pier/web build` first. Skipping.");
  process.exit(0);
}

type Wire = { binaryBytes: number; binaryFrames: number; textBytes: number; textFrames: number; types: Record<string, number> };
type Window = Omit<Wire, "types"> & {
  frameTypes: string;
  ms: number;
  wallMs: number;
  cpuMs: number;
  piEntries: number;
  relayOut: number;
  relayCpuMs: number;
  piCpuMs: number;
  /** Each joiner's time from connecting to its get_entries answer decoded (empty when none joined). */
  loadMs: number[];
};
type Variant = { label: string; bin?: string };
const VARIANTS: Variant[] = [...(process.env.PIER_BENCH_BASELINE_PIER ? [{ label: "baseline", bin: process.env.PIER_BENCH_BASELINE_PIER }] : []), { label: "this" }];

/** Runs in the page before its scripts: counts what its WebSockets receive. */
function countWire(): void {
  const wire = { binaryBytes: 0, binaryFrames: 0, textBytes: 0, textFrames: 0, types: {} as Record<string, number> };
  (window as unknown as { __wire: typeof wire }).__wire = wire;
  const Native = WebSocket;
  class Counted extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener("message", (event: MessageEvent) => {
        if (typeof event.data === "string") {
          wire.textFrames++;
          wire.textBytes += event.data.length;
          const type = /^\{"type":"([^"]+)"/.exec(event.data)?.[1] ?? "?";
          wire.types[type] = (wire.types[type] ?? 0) + 1;
        } else {
          wire.binaryFrames++;
          wire.binaryBytes += event.data instanceof ArrayBuffer ? event.data.byteLength : (event.data as Blob).size;
        }
      });
    }
  }
  window.WebSocket = Counted;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** utime + stime of a process, in ms (/proc/<pid>/stat; clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** pi's CPU: the stdin tap and the pi it runs (its child). */
function piCpuMs(tapPid: number): number {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${tapPid}/task/${tapPid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {}
  return cpuMs(tapPid) + children.reduce((sum, pid) => sum + cpuMs(pid), 0);
}

function relayWritten(pid: number): number {
  return Number(/wchar:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? NaN);
}

/** One joiner: connect with its cookie, then get_state and get_entries, decoded, as a page loading does. */
async function joinSession(pier: RunningPier, cookie: string, loadMs: number[]): Promise<Browser> {
  const started = performance.now();
  const browser = await connectBrowser(pier, { cookie, timeoutMs: 120_000 });
  const state = commandId("state");
  const entries = commandId("entries");
  browser.send({ id: state, type: "get_state" });
  browser.send({ id: entries, type: "get_entries" });
  const answer = await browser.waitForRecord((r) => r.type === "response" && r.id === entries, 120_000);
  await browser.waitForRecord((r) => r.type === "response" && r.id === state, 120_000);
  if (!answer.success || answer.data.entries.length < MESSAGES) throw new Error(`a joiner's get_entries held ${answer.data?.entries?.length} entries`);
  loadMs.push(performance.now() - started);
  return browser;
}

async function measureWindow(chromiumBrowser: Chromium, page: Page, pier: RunningPier, piPid: number, log: string, work: (loadMs: number[]) => Promise<void>): Promise<Window> {
  const entriesInPi = () =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter((line) => line.includes('"type":"get_entries"')).length
      : 0;
  const wire = () =>
    page.evaluate(() => {
      const now = (window as unknown as { __wire: Wire }).__wire;
      return { ...now, types: { ...now.types } };
    });
  const pid = pier.process.pid!;
  await chromiumBrowser.startTracing(page, { categories: ["toplevel", "__metadata"] });
  const loadMs: number[] = [];
  const before = { wire: await wire(), pi: entriesInPi(), out: relayWritten(pid), relayCpu: cpuMs(pid), piCpu: piCpuMs(piPid), at: performance.now() };
  await work(loadMs);
  const ms = performance.now() - before.at;
  const after = { wire: await wire(), pi: entriesInPi(), out: relayWritten(pid), relayCpu: cpuMs(pid), piCpu: piCpuMs(piPid) };
  const tasks = mainThreadTasks(await chromiumBrowser.stopTracing());
  return {
    ms,
    binaryBytes: after.wire.binaryBytes - before.wire.binaryBytes,
    binaryFrames: after.wire.binaryFrames - before.wire.binaryFrames,
    textBytes: after.wire.textBytes - before.wire.textBytes,
    textFrames: after.wire.textFrames - before.wire.textFrames,
    frameTypes: Object.entries(after.wire.types)
      .map(([type, count]) => [type, count - (before.wire.types[type] ?? 0)] as const)
      .filter(([, count]) => count > 0)
      .map(([type, count]) => `${count} ${type}`)
      .join(", "),
    wallMs: tasks.reduce((sum, task) => sum + task.wall, 0),
    cpuMs: tasks.reduce((sum, task) => sum + task.cpu, 0),
    piEntries: after.pi - before.pi,
    relayOut: after.out - before.out,
    relayCpuMs: after.relayCpu - before.relayCpu,
    piCpuMs: after.piCpu - before.piCpu,
    loadMs,
  };
}

type Windows = { wave: Window[]; quiet: Window[]; joinsOnly: Window[]; joinsBusy: Window[] };

/** Two busy loops (one per core here), stopped by the function returned. */
function occupyCores(): () => void {
  const loops = [0, 1].map(() => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
  return () => loops.forEach((loop) => loop.kill());
}

async function run(chromiumBrowser: Chromium, session: LongSession, variant: Variant): Promise<Windows> {
  const log = join(mkdtempSync(join(tmpdir(), "pier-join-wave-")), "pi-stdin.log");
  const pier = await startPier(["--demo", "--pi", TEE, "--", "--session", session.file], {
    env: { ...process.env, PIER_TEE_PI_CLI: piUnderTest.cliPath, PIER_TEE_LOG: log },
    ...(variant.bin ? { bin: variant.bin } : {}),
  });
  const context = await chromiumBrowser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(countWire);
  const joined: Browser[] = [];
  try {
    const page = await openPier(context, pier, null);
    await page.waitForFunction((text) => [...document.querySelectorAll('[role="log"] article[aria-label="pi"]')].at(-1)?.textContent?.includes(text) ?? false, session.lastAssistantText, {
      timeout: 120_000,
    });
    // A viewer link for the class, made as a driver's page makes one (by a socket of the driver's own).
    const teacher = await connectBrowser(pier);
    const piPid = teacher.hello.child.state === "running" ? teacher.hello.child.pid : NaN;
    teacher.send({ type: "pier.create_link", role: "viewer" });
    const link = (await teacher.waitForFrame("link_created")) as { token: string };
    const linkUrl = `http://${pier.host}/?token=${link.token}`;
    await teacher.close();
    await delay(1500);

    const wave: Window[] = [];
    const quiet: Window[] = [];
    const joinsOnly: Window[] = [];
    const joinsBusy: Window[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const cookies = await Promise.all(Array.from({ length: JOINERS }, () => exchangeToken(linkUrl, pier.port)));
      const w = await measureWindow(chromiumBrowser, page, pier, piPid, log, async (loadMs) => {
        joined.push(...(await Promise.all(cookies.map((cookie) => joinSession(pier, cookie, loadMs)))));
        await delay(SETTLE_MS);
      });
      wave.push(w);
      // The class leaves (its peers frames fall outside the windows).
      await Promise.all(joined.splice(0).map((browser) => browser.close()));
      await delay(1500);
      quiet.push(await measureWindow(chromiumBrowser, page, pier, piPid, log, async () => void (await delay(w.ms))));
      // The same class joining again, loading nothing: the room's news of them alone.
      const again = await Promise.all(Array.from({ length: JOINERS }, () => exchangeToken(linkUrl, pier.port)));
      const joinAgain = async () => {
        const started = performance.now();
        joined.push(...(await Promise.all(again.map((cookie) => connectBrowser(pier, { cookie, timeoutMs: 120_000 })))));
        await delay(Math.max(SETTLE_MS, w.ms - (performance.now() - started)));
      };
      joinsOnly.push(await measureWindow(chromiumBrowser, page, pier, piPid, log, joinAgain));
      await Promise.all(joined.splice(0).map((browser) => browser.close()));
      await delay(1500);
      const stop = occupyCores();
      try {
        await delay(200);
        joinsBusy.push(await measureWindow(chromiumBrowser, page, pier, piPid, log, joinAgain));
      } finally {
        stop();
      }
      await Promise.all(joined.splice(0).map((browser) => browser.close()));
      await delay(1500);
    }
    return { wave, quiet, joinsOnly, joinsBusy };
  } finally {
    await Promise.all(joined.map((browser) => browser.close()));
    await context.close();
    await pier.stop();
    await rm(join(log, ".."), { recursive: true, force: true });
  }
}

const session = await writeLongSession(MESSAGES);
const chromiumBrowser = await chromium.launch({
  ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", ...BENCH_CHROMIUM_ARGS],
});
try {
  const results = new Map<string, Windows>();
  for (const variant of VARIANTS) results.set(variant.label, await run(chromiumBrowser, session, variant));
  const answerBytes = readFileSync(session.file).length;
  console.log(
    `Join wave: an open page (Chromium, the driver) on a ${MESSAGES.toLocaleString("en")}-message session (${(answerBytes / 1e6).toFixed(1)} MB file) while ` +
      `${JOINERS} browsers load it (WebSocket clients doing what a page does: hello + replay, get_state, get_entries, decoded), median of ${ROUNDS} rounds; ` +
      `"quiet" is the same page over the same length of time with none joining, "joins only" the same ${JOINERS} joining without loading anything, "joins, busy" the same again while two busy loops hold the cores:`,
  );
  for (const [label, { wave, quiet, joinsOnly, joinsBusy }] of results) {
    if (results.size > 1) console.log(`${label}:`);
    const rows: [string, (w: Window) => number, number, boolean][] = [
      ["window (ms)", (w) => w.ms, 0, false],
      ["open page: bytes received (KB)", (w) => (w.binaryBytes + w.textBytes) / 1024, 1, true],
      ["open page: frames received", (w) => w.binaryFrames + w.textFrames, 0, true],
      ["open page: main thread, task wall (ms)", (w) => w.wallMs, 1, true],
      ["open page: main thread, task CPU (ms)", (w) => w.cpuMs, 1, true],
      ["get_entries that reached pi", (w) => w.piEntries, 0, false],
      ["pi CPU (ms)", (w) => w.piCpuMs, 0, false],
      ["relay CPU (ms)", (w) => w.relayCpuMs, 0, false],
      ["relay bytes out (MB)", (w) => w.relayOut / 1e6, 1, false],
    ];
    const ratio = (a: number, b: number, figure: boolean) => (!figure ? "" : b > 0 ? `${(a / b).toFixed(2)}×` : a > 0 ? "— (0)" : "1.00×");
    console.log(`${"".padEnd(42)}${"wave".padStart(10)}${"quiet".padStart(10)}${"joins only".padStart(12)}${"joins, busy".padStart(13)}  wave÷quiet  wave÷joins only  wave÷joins, busy`);
    for (const [name, value, digits, figure] of rows) {
      const [a, b, c, d] = [wave, quiet, joinsOnly, joinsBusy].map((windows) => median(windows.map(value))) as [number, number, number, number];
      console.log(
        `${name.padEnd(42)}${a.toFixed(digits).padStart(10)}${b.toFixed(digits).padStart(10)}${c.toFixed(digits).padStart(12)}${d.toFixed(digits).padStart(13)}  ${ratio(a, b, figure).padEnd(10)}  ${ratio(a, c, figure).padEnd(15)}  ${ratio(a, d, figure)}`,
      );
    }
    const loads = wave.flatMap((w) => w.loadMs);
    console.log(`  a joiner, connect → its get_entries answer decoded: median ${median(loads).toFixed(0)} ms, slowest ${Math.max(...loads).toFixed(0)} ms`);
    console.log(`  per round, wave: pi get_entries ${wave.map((w) => w.piEntries).join(", ")}; relay out ${wave.map((w) => (w.relayOut / 1e6).toFixed(1)).join(", ")} MB`);
    console.log(`  the open page's text frames in the first wave: ${wave[0]!.frameTypes || "none"}; quiet: ${quiet[0]!.frameTypes || "none"}`);
  }
  console.log(
    "(target: the open page's bytes, frames and main-thread time during the wave ≤ 1.1× quiet; pi answers get_entries once per change, not once per joiner. wave ÷ joins only is what the joiners' loading costs the open page, apart from the news that they joined; wave ÷ joins, busy the same with the machine as occupied)",
  );
} finally {
  await chromiumBrowser.close();
  await rm(session.dir, { recursive: true, force: true });
}
