// What many live sessions cost, and how fast the board follows them: the
// real `pier`, real pi children on Pier's demo model, hand-made HTTP and
// WebSocket clients in this process, all on loopback.
//
// 1. Memory. pier with its one session (relay RSS), then with AGENTS more
//    live sessions started from the board (relay RSS, and each pi child's
//    RSS), then, once each has streamed a run (part 2) and nobody watches
//    it, with those AGENTS idle and their pi stopped by `--idle-stop` (relay
//    RSS). Printed: MB and the ratios issue #32 names: relay with AGENTS
//    idle and stopped ÷ relay with one (target ≤ 1.1), the relay's cost per
//    live session, and a pi child's; beside them what each run streamed
//    (what a session's replay would hold while it sleeps, if it kept one).
// 2. Board latency. Every agent is prompted at once with a steady stream;
//    for each run's start and end seen on a session's socket, the time until
//    the board socket reports that card's new state. Printed: p50, p95, max
//    (target p95 ≤ 250 ms with AGENTS streaming).
//
// RSS from /proc/<pid>/status (pier's own process; pi children are found
// by their parent pid). Prints, asserts nothing (the tests are
// relay/test/live/*.test.ts). Every child is stopped at the end.
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { LIVE_API_PATHS, type BoardFrame, type LiveCard } from "../shared-protocol/src/live-api.ts";
import { commandId, connectBrowser, startPier, type Browser, type RunningPier } from "../relay/test/support/pier-process.ts";
import { httpJson } from "../relay/test/workspace/workspace-http.ts";

const AGENTS = Number(process.env.PIER_BENCH_AGENTS ?? 8);
const SETTLE_MS = 3000;
// --idle-stop, in minutes: long enough that no session sleeps while the bench
// sets it up (8 pi children start on 2 cores), short enough to wait for.
const IDLE_STOP_MINUTES = 0.25;
const steady = fileURLToPath(new URL("../e2e/scenarios/steady-stream.json", import.meta.url));

if (!existsSync("/proc/self/status")) {
  console.log("This benchmark reads memory from Linux's /proc. Skipping.");
  process.exit(0);
}

const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The pids whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

async function board(pier: RunningPier): Promise<LiveCard[]> {
  return (await httpJson(pier, "GET", LIVE_API_PATHS.sessions)).json.cards as LiveCard[];
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const pier = await startPier(["--demo", "--demo-scenario", steady, "--max-agents", String(AGENTS + 1), "--idle-stop", String(IDLE_STOP_MINUTES)]);
const pierPid = pier.process.pid!;
const browsers: Browser[] = [];
try {
  browsers.push(await connectBrowser(pier));
  await until(async () => (await board(pier))[0]?.child === "running", "the first pi");
  await sleep(SETTLE_MS);
  const relayCold = rssMB(pierPid);
  // A pier with one session that has worked: its one run streamed, as any in use has (the code that
  // streams compiled, the allocator's pools grown), so what follows is what more sessions cost.
  browsers[0]!.send({ type: "prompt", message: "stream", id: commandId("bench") });
  await browsers[0]!.waitForRecord((r) => r.type === "agent_settled", 120_000);
  await sleep(SETTLE_MS);
  const relayOne = rssMB(pierPid);

  const ids: string[] = [];
  for (let i = 0; i < AGENTS; i++) {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), "pier-bench-agent-")));
    const started = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: folder } });
    if (started.status !== 201) throw new Error(`agent ${i}: ${started.text}`);
    ids.push(started.json.card.id);
  }
  await until(async () => (await board(pier)).filter((c) => c.child === "running").length === AGENTS + 1, "every pi to run");
  for (const id of ids) browsers.push(await connectBrowser(pier, { path: `/live/${id}/ws`, parseRecords: true }));
  await sleep(SETTLE_MS);
  const relayLive = rssMB(pierPid);
  const piRss = childrenOf(pierPid).map(rssMB);

  // Board latency: every agent streams at once; a run's start and end on a session's socket, then its card on the board.
  const boardWs = new WebSocket(`ws://${pier.host}${LIVE_API_PATHS.boardSocket}`, { headers: { Cookie: pier.cookie }, origin: pier.origin });
  const boardSeen: { at: number; cards: LiveCard[] }[] = [];
  boardWs.on("message", (data) => boardSeen.push({ at: performance.now(), cards: (JSON.parse(String(data)) as BoardFrame).board.cards }));
  await new Promise((r) => boardWs.once("open", r));
  const wire: { id: string; state: "working" | "done"; at: number }[] = [];
  let streamedBytes = 0;
  for (const [index, id] of ids.entries()) {
    const browser = browsers[index + 1]!;
    browser.ws.on("message", (data, isBinary) => {
      if (!isBinary) return;
      streamedBytes += (data as Buffer).length;
      const text = String(data);
      const at = performance.now();
      if (text.includes('{"type":"agent_start"')) wire.push({ id, state: "working", at });
      if (text.includes('{"type":"agent_settled"')) wire.push({ id, state: "done", at });
    });
  }
  const streamStart = performance.now();
  for (const browser of browsers.slice(1)) browser.send({ type: "prompt", message: "stream", id: commandId("bench") });
  await until(async () => wire.filter((w) => w.state === "done").length === AGENTS, "every run to settle", 180_000);
  const streamMs = performance.now() - streamStart;
  await sleep(500);
  const latencies = wire.map((w) => {
    const seen = boardSeen.find((b) => b.at >= w.at - 1 && b.cards.find((c) => c.id === w.id)?.state === w.state);
    return seen === undefined ? Infinity : Math.max(0, seen.at - w.at);
  });
  boardWs.close();

  // Nobody watches the added sessions any more: --idle-stop puts each to sleep (its pi stopped, woken when used).
  for (const browser of browsers.slice(1)) await browser.close();
  await until(async () => (await board(pier)).filter((c) => c.asleep && c.child === "exited").length === AGENTS, "every added session to sleep", 120_000);
  await sleep(SETTLE_MS);
  const relayStopped = rssMB(pierPid);

  const mb = (n: number) => `${n.toFixed(1)} MB`;
  const piAverage = piRss.reduce((a, b) => a + b, 0) / Math.max(1, piRss.length);
  console.log(`Live sessions (${AGENTS} added to pier's one, demo model, ${streamMs.toFixed(0)} ms of streaming for the latency run)`);
  console.log(`  relay RSS, one session:            ${mb(relayCold)} before its first run, ${mb(relayOne)} after it`);
  console.log(`  relay RSS, ${AGENTS + 1} live sessions:        ${mb(relayLive)}   (+${mb((relayLive - relayOne) / AGENTS)} per live session)`);
  console.log(
    `  relay RSS, ${AGENTS} of them asleep:       ${mb(relayStopped)}   ratio to one session: ${(relayStopped / relayOne).toFixed(2)}× (target ≤ 1.1×; ${(relayStopped / relayCold).toFixed(2)}× of it before any run)`,
  );
  console.log(`    (after their runs, which streamed ${mb(streamedBytes / 1024 / 1024 / AGENTS)} each; idle for ${IDLE_STOP_MINUTES * 60} s, nobody watching)`);
  console.log(`  pi child RSS (${piRss.length} children):       ${mb(piAverage)} each on average, ${mb(Math.max(...piRss))} the largest`);
  console.log(`  board latency, record on a session's socket → its card on the board (${latencies.length} changes, ${AGENTS} agents streaming):`);
  console.log(`    p50 ${percentile(latencies, 50).toFixed(0)} ms · p95 ${percentile(latencies, 95).toFixed(0)} ms · max ${Math.max(...latencies).toFixed(0)} ms (target p95 ≤ 250 ms)`);
} finally {
  for (const browser of browsers) await browser.close().catch(() => {});
  await pier.stop();
}
