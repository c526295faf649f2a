// What the relay's memory does when people (or a script) open a viewer link
// over and over, and when many browsers connect at once: the real `pier`
// process, a real pi on Pier's demo model, and hand-made HTTP and WebSocket
// clients in this process, all on loopback.
//
// 1. Redemptions: GETs of one viewer link's `?token=` URL, on keep-alive
//    connections, REDEMPTIONS of them (or as many as fit in REDEEM_BUDGET_MS).
//    Each one the relay honours makes a session (a grant); the relay must stop
//    honouring them at its per-link cap and keep its memory flat. Printed: the
//    answers by status, and the relay's RSS before and after.
// 2. Revoke: the driver revokes that link; the relay must free its grants.
//    Printed: RSS after, and whether a cookie it handed out still gets in.
// 3. Connections: SOCKETS WebSocket upgrades at once (each with a viewer
//    cookie of its own, as browsers of a class have), first by clients that
//    read nothing after the upgrade's answer (a stalled or hostile browser:
//    the relay holds whatever it queued for them), then by clients that read
//    and discard everything. Printed: the answers by status (101: in;
//    "silent": no answer within CONNECT_BUDGET_MS; "reset": the connection
//    failed before any answer, e.g. the listen queue overflowed on a busy
//    machine), and the relay's RSS with them connected (at its peak, and
//    after SETTLE_MS) and once they are gone.
//
// Before 3, the driver runs one long answer (the demo model streams more pi
// records than the replay keeps), so a browser that connects has a full
// replay to catch up with, which is what a connection costs most. (1 and 2
// run before it: the garbage a long answer leaves would hide their growth
// as it is collected.)
//
// RSS is the pier process's (pi is a separate process, not counted), from
// /proc/<pid>/status. PIER_BENCH_BASELINE_PIER=<checkout>/relay/bin/pier.js
// (another checkout, its relay bundle built) measures that pier too, one
// column beside this one. PIER_BENCH_REDEMPTIONS and PIER_BENCH_SOCKETS make a
// quicker run. Prints, asserts nothing (the tests are
// relay/test/unit/access-links.test.ts and
// relay/test/relay/memory-bounds.contract.test.ts). Every child is stopped at
// the end.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Agent, request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectBrowser, startPier, type Browser, type RunningPier } from "../relay/test/support/pier-process.ts";

const relayRequire = createRequire(new URL("../relay/package.json", import.meta.url));

const REDEMPTIONS = Number(process.env.PIER_BENCH_REDEMPTIONS ?? 150_000);
const REDEEM_BUDGET_MS = 180_000;
/** Keep-alive connections the redemptions are spread over. */
const REDEEM_CONNECTIONS = 16;
const SOCKETS = Number(process.env.PIER_BENCH_SOCKETS ?? 500);
const CONNECT_BUDGET_MS = 30_000;
const SETTLE_MS = 2000;
const MB = 1024 ** 2;

if (!existsSync("/proc/self/status")) {
  console.log("This benchmark reads memory from Linux's /proc. Skipping.");
  process.exit(0);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

/** Memory the kernel holds in TCP buffers, all sockets (/proc/net/sockstat counts pages). */
function kernelTcpMB(): number {
  return (Number(/TCP:.* mem (\d+)/.exec(readFileSync("/proc/net/sockstat", "utf8"))?.[1] ?? NaN) * 4096) / MB;
}

function sampleRss(pid: number): () => number {
  let max = rssMB(pid);
  const timer = setInterval(() => (max = Math.max(max, rssMB(pid))), 25);
  return () => {
    clearInterval(timer);
    return Math.max(max, rssMB(pid));
  };
}

/** A long answer, streamed fast: more pi records than the replay holds (8 MB by default), so it is full. */
const ANSWER = Array.from({ length: 100_000 }, (_, i) => `Sentence ${String(i).padStart(6, "0")} of a long answer that fills the replay. `).join("");
const SCENARIO = {
  name: "memory-bounds",
  description: "bench/memory-bounds.bench.ts: one long answer, streamed fast.",
  pace: { chunkChars: 4000, delayMs: 0 },
  rules: [],
  fallback: { steps: [{ kind: "text", text: ANSWER }] },
};

// ── clients ─────────────────────────────────────────────────────────────

type Answer = { status: number; cookie: string | null };

/** One GET on a keep-alive agent, sent to 127.0.0.1 with pier's Host (a per-launch name need not resolve here). */
function get(pier: RunningPier, agent: Agent, path: string, cookie?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port: pier.port, path, agent, headers: { Host: pier.host, ...(cookie ? { Cookie: cookie } : {}) } }, (response) => {
      const setCookie = response.headers["set-cookie"]?.[0];
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, cookie: setCookie ? setCookie.split(";")[0]! : null }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

/** A viewer link made by the driver: its `?token=` path. */
async function viewerLink(driver: Browser): Promise<{ path: string; linkId: string }> {
  const before = driver.frames.length;
  driver.send({ type: "pier.create_link", role: "viewer" });
  const created = await driver.waitUntil(() => driver.frames.slice(before).find((frame) => frame.type === "link_created"), "link_created");
  if (created.type !== "link_created") throw new Error("unreachable");
  return { path: `/?token=${created.token}`, linkId: created.link.id };
}

/**
 * A raw WebSocket upgrade: resolves with the HTTP status of the answer (101
 * when it got in) and the socket. A client that does not read pauses it as
 * soon as the answer's first bytes are in: the kernel's buffers fill, then
 * the relay holds the rest.
 */
function upgrade(pier: RunningPier, cookie: string, read: boolean): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve) => {
    const socket = connect(pier.port, "127.0.0.1");
    const timer = setTimeout(() => done(-1), CONNECT_BUDGET_MS);
    const done = (status: number) => {
      clearTimeout(timer);
      resolve({ status, socket });
    };
    // Refused before any answer (the listen queue overflowed, or the relay cut it).
    socket.on("error", () => done(0));
    socket.once("data", (first: Buffer) => {
      done(Number(/^HTTP\/1\.1 (\d{3})/.exec(first.toString("latin1"))?.[1] ?? 0));
      if (read) socket.on("data", () => {});
      else socket.pause();
    });
    socket.write(
      `GET /ws HTTP/1.1\r\nHost: ${pier.host}\r\nOrigin: ${pier.origin}\r\nCookie: ${cookie}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\n\r\n`,
    );
  });
}

const countBy = (values: number[]) => {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${count}×${status === -1 ? "silent" : status === 0 ? "reset" : status}`)
    .join(" ");
};

// ── one pier ────────────────────────────────────────────────────────────

type Sample = {
  label: string;
  idle: number;
  replayMB: number;
  beforeCrowd: number;
  redeemed: string;
  redeemSeconds: number;
  afterRedeem: number;
  afterRevoke: number;
  revokedCookie: number;
  stalledIn: string;
  stalledPeak: number;
  stalledSettled: number;
  stalledKernel: number;
  stalledAdmitted: number;
  readingIn: string;
  readingPeak: number;
  readingSettled: number;
  afterAll: number;
};

async function measure(label: string, bin: string | undefined, scenario: string): Promise<Sample> {
  const workspace = await mkdtemp(join(tmpdir(), "pier-bench-memory-"));
  let pier: RunningPier | null = null;
  let driver: Browser | null = null;
  const agent = new Agent({ keepAlive: true, maxSockets: REDEEM_CONNECTIONS });
  const sockets: Socket[] = [];
  try {
    pier = await startPier(["--cwd", workspace, "--demo", "--demo-scenario", scenario], bin ? { bin } : {});
    const pid = pier.process.pid!;
    driver = await connectBrowser(pier, { parseRecords: true });
    // Warm-up: a few hundred GETs of a link revoked at once (JIT, sockets).
    const warmUp = await viewerLink(driver);
    for (let i = 0; i < 500; i++) await get(pier, agent, warmUp.path);
    driver.send({ type: "pier.revoke_link", linkId: warmUp.linkId });
    await delay(SETTLE_MS);
    const idle = rssMB(pid);

    // 1. One viewer link, opened over and over.
    const link = await viewerLink(driver);
    const statuses: number[] = [];
    let firstCookie: string | null = null;
    const started = performance.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: REDEEM_CONNECTIONS }, async () => {
        while (sent < REDEMPTIONS && performance.now() - started < REDEEM_BUDGET_MS) {
          sent++;
          const answer = await get(pier!, agent, link.path).catch(() => ({ status: 0, cookie: null }));
          statuses.push(answer.status);
          firstCookie ??= answer.cookie;
        }
      }),
    );
    const redeemSeconds = (performance.now() - started) / 1000;
    await delay(SETTLE_MS);
    const afterRedeem = rssMB(pid);

    // 2. Revoked: its grants must go.
    driver.send({ type: "pier.revoke_link", linkId: link.linkId });
    await driver.waitUntil(() => driver!.frames.some((frame) => frame.type === "links" && frame.links.some((l) => l.id === link.linkId && l.revoked)), "the link listed as revoked");
    await delay(SETTLE_MS);
    const afterRevoke = rssMB(pid);
    const revokedCookie = firstCookie ? (await get(pier, agent, "/", firstCookie)).status : 0;
    agent.destroy();

    // 3. Many browsers at once, each with a cookie of its own from a fresh viewer link, and a full replay to catch up with.
    driver.send({ type: "prompt", id: "fill-the-replay", message: "Say a lot." });
    await driver.waitForRecord((record) => record.type === "agent_settled", 60_000);
    const probe = await connectBrowser(pier, { parseRecords: false });
    const replayMB = probe.hello.replay.bytes / MB;
    await probe.close();
    await delay(SETTLE_MS);
    const beforeCrowd = rssMB(pid);
    const classLink = await viewerLink(driver);
    const cookieAgent = new Agent({ keepAlive: true, maxSockets: REDEEM_CONNECTIONS });
    const cookies: string[] = [];
    for (let i = 0; i < SOCKETS; i++) {
      const answer = await get(pier, cookieAgent, classLink.path);
      if (answer.cookie) cookies.push(answer.cookie);
    }
    cookieAgent.destroy();
    const crowd = async (read: boolean) => {
      const stop = sampleRss(pid);
      const opened = await Promise.all(cookies.map((cookie) => upgrade(pier!, cookie, read)));
      sockets.push(...opened.map((opening) => opening.socket));
      await delay(SETTLE_MS);
      const peak = stop();
      const settled = rssMB(pid);
      const kernel = kernelTcpMB();
      for (const socket of sockets.splice(0)) socket.destroy();
      await delay(SETTLE_MS);
      return { in: countBy(opened.map((opening) => opening.status)), admitted: opened.filter((opening) => opening.status === 101).length, peak, settled, kernel };
    };
    const stalled = await crowd(false);
    const reading = await crowd(true);
    return {
      label,
      idle,
      replayMB,
      beforeCrowd,
      redeemed: countBy(statuses),
      redeemSeconds,
      afterRedeem,
      afterRevoke,
      revokedCookie,
      stalledIn: stalled.in,
      stalledPeak: stalled.peak,
      stalledSettled: stalled.settled,
      stalledKernel: stalled.kernel,
      stalledAdmitted: stalled.admitted,
      readingIn: reading.in,
      readingPeak: reading.peak,
      readingSettled: reading.settled,
      afterAll: rssMB(pid),
    };
  } finally {
    agent.destroy();
    for (const socket of sockets) socket.destroy();
    await driver?.close();
    await pier?.stop();
    await rm(workspace, { recursive: true, force: true });
  }
}

// ── the run ─────────────────────────────────────────────────────────────

const dir = await mkdtemp(join(tmpdir(), "pier-bench-memory-scenario-"));
const scenario = join(dir, "scenario.json");
await writeFile(scenario, JSON.stringify(SCENARIO));
const samples: Sample[] = [];
try {
  if (process.env.PIER_BENCH_BASELINE_PIER) samples.push(await measure("baseline", process.env.PIER_BENCH_BASELINE_PIER, scenario));
  samples.push(await measure("this", undefined, scenario));
} finally {
  await rm(dir, { recursive: true, force: true });
}

const bundle = process.env.PIER_FROM_SOURCES ? null : (relayRequire("./bin/current-bundle.js") as { currentBundle(): string | null }).currentBundle();
console.log(`pier runs ${bundle ? "its compiled bundle (relay/dist/pier.cjs)" : "its TypeScript sources"}; pi on the demo model; a long answer in the replay first`);
const row = (name: string, value: (sample: Sample) => string | number) =>
  console.log(
    `${name.padEnd(58)}${samples
      .map((sample) => {
        const v = value(sample);
        return (typeof v === "number" ? v.toFixed(1) : v).padStart(24);
      })
      .join("")}`,
  );
row("pier", (s) => s.label);
row("relay RSS idle, after a warm-up (MB)", (s) => s.idle);
row(`${REDEMPTIONS} GETs of one viewer link: answers`, (s) => s.redeemed);
row("  in (s)", (s) => s.redeemSeconds);
row("  relay RSS after (MB)", (s) => s.afterRedeem);
row("  growth (KB per GET)", (s) => ((s.afterRedeem - s.idle) * 1024) / REDEMPTIONS);
row("link revoked: relay RSS after (MB)", (s) => s.afterRevoke);
row("  a cookie it handed out answers", (s) => String(s.revokedCookie));
row("relay RSS after a long answer (MB)", (s) => s.beforeCrowd);
row("  the replay a browser that connects catches up with (MB)", (s) => s.replayMB);
row(`${SOCKETS} WebSockets at once that read nothing: answers`, (s) => s.stalledIn);
row("  relay RSS peak (MB)", (s) => s.stalledPeak);
row(`  relay RSS ${SETTLE_MS / 1000} s later (MB)`, (s) => s.stalledSettled);
row("  per socket let in, settled (KB)", (s) => ((s.stalledSettled - s.beforeCrowd) * 1024) / s.stalledAdmitted);
row("  kernel's TCP buffers meanwhile, both ends (MB)", (s) => s.stalledKernel);
row(`${SOCKETS} WebSockets at once that read: answers`, (s) => s.readingIn);
row("  relay RSS peak (MB)", (s) => s.readingPeak);
row(`  relay RSS ${SETTLE_MS / 1000} s later (MB)`, (s) => s.readingSettled);
row("relay RSS after they all left (MB)", (s) => s.afterAll);
console.log("(RSS rarely shrinks back: malloc keeps the heap it grew to; the growth is what to read)");
