// What a class joining costs the relay's memory: VIEWERS browsers connect at
// once after pi has written more than the replay holds, so each catches up
// with a full replay (--replay-bytes, 8 MiB by default). The real `pier`
// process, the stand-in pi of bench/relay.bench.ts (real pi records, as fast
// as the pipe takes them), and VIEWERS real WebSocket clients in this
// process that read everything, each with a cookie of its own from a viewer
// link (as a class's browsers have).
//
// Target (issue #35, 2): RSS growth while they join ≤ the replay's size +
// 100 KB per viewer: the replay's bytes are shared by everyone catching up
// (views of its storage, never a copy per viewer). Printed: the replay's
// size, the relay's RSS before, at its peak while they join (sampled every
// 25 ms), once they all have the replay, and after they left; the growth per
// viewer; the target beside it. RSS is the pier process's (pi is another
// process). PIER_BENCH_VIEWERS makes a smaller class. Prints, asserts
// nothing. Every child is stopped at the end.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { startPier, type RunningPier } from "../relay/test/support/pier-process.ts";

const relayRequire = createRequire(new URL("../relay/package.json", import.meta.url));
const STAND_IN = fileURLToPath(new URL("./relay-pi-stand-in.mjs", import.meta.url));
const END_MARKER = Buffer.from('{"type":"pier_bench_end"}\n');
const MB = 1024 ** 2;
const VIEWERS = Number(process.env.PIER_BENCH_VIEWERS ?? 200);
/** Streamed before they join: twice the default replay, so it is full and has dropped its oldest bytes. */
const STREAMED = 16 * MB;
const PER_VIEWER_KB = 100;
const SETTLE_MS = 2000;

if (!existsSync("/proc/self/status")) {
  console.log("This benchmark reads memory from Linux's /proc. Skipping.");
  process.exit(0);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

function sampleRss(pid: number): () => number {
  let max = rssMB(pid);
  const timer = setInterval(() => (max = Math.max(max, rssMB(pid))), 25);
  return () => {
    clearInterval(timer);
    return Math.max(max, rssMB(pid));
  };
}

type Joined = { ws: WebSocket; hello: { replay: { bytes: number } }; replayEnded: Promise<void> };

/** A WebSocket client that reads everything; resolves on its hello. */
function join_(pier: RunningPier, cookie: string): Promise<Joined> {
  const ws = new WebSocket(`ws://${pier.host}/ws`, { headers: { Cookie: cookie }, origin: pier.origin });
  return new Promise((resolve, reject) => {
    let ended: () => void = () => {};
    const replayEnded = new Promise<void>((resolve) => (ended = resolve));
    ws.once("error", reject);
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      if (isBinary) return;
      const frame = JSON.parse(data.toString()) as { type: string; replay?: { bytes: number } };
      if (frame.type === "hello") resolve({ ws, hello: frame as Joined["hello"], replayEnded });
      if (frame.type === "replay_end") ended();
    });
  });
}

/** The driver asks the stand-in for `bytes` of records and reads them to the end marker. */
function stream(ws: WebSocket, bytes: number): Promise<void> {
  return new Promise((resolve) => {
    let tail = Buffer.alloc(0);
    const onMessage = (data: Buffer, isBinary: boolean) => {
      if (!isBinary) return;
      tail = Buffer.concat([tail, data.subarray(-END_MARKER.length)]).subarray(-END_MARKER.length);
      if (!tail.equals(END_MARKER)) return;
      ws.off("message", onMessage);
      resolve();
    };
    ws.on("message", onMessage);
    ws.send(JSON.stringify({ type: "prompt", id: "fill", message: `stream ${bytes}` }));
  });
}

/** A GET of `path` with pier's Host: the cookie it sets. */
function cookieFrom(pier: RunningPier, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port: pier.port, path, headers: { Host: pier.host } }, (response) => {
      response.resume();
      const cookie = response.headers["set-cookie"]?.[0]?.split(";")[0];
      if (cookie) resolve(cookie);
      else reject(new Error(`no cookie from ${path} (${response.statusCode})`));
    });
    request.on("error", reject);
    request.end();
  });
}

const bundle = process.env.PIER_FROM_SOURCES ? null : (relayRequire("./bin/current-bundle.js") as { currentBundle(): string | null }).currentBundle();
const workspace = await mkdtemp(join(tmpdir(), "pier-bench-join-"));
let pier: RunningPier | null = null;
const sockets: WebSocket[] = [];
try {
  pier = await startPier(["--cwd", workspace, "--no-demo-fallback", "--pi", STAND_IN, "--", "--no-session"]);
  const pid = pier.process.pid!;
  const driver = await join_(pier, pier.cookie);
  sockets.push(driver.ws);
  await driver.replayEnded;
  await stream(driver.ws, STREAMED);

  // One viewer link, opened once per viewer: a cookie (a grant) each.
  const linked = new Promise<string>((resolve) => {
    const onMessage = (data: Buffer, isBinary: boolean) => {
      if (isBinary) return;
      const frame = JSON.parse(data.toString()) as { type: string; token?: string };
      if (frame.type !== "link_created") return;
      driver.ws.off("message", onMessage);
      resolve(frame.token!);
    };
    driver.ws.on("message", onMessage);
  });
  driver.ws.send(JSON.stringify({ type: "pier.create_link", role: "viewer" }));
  const token = await linked;
  const cookies: string[] = [];
  for (let i = 0; i < VIEWERS; i++) cookies.push(await cookieFrom(pier, `/?token=${token}`));

  await delay(SETTLE_MS);
  const before = rssMB(pid);
  const stop = sampleRss(pid);
  const started = performance.now();
  const viewers = await Promise.all(cookies.map((cookie) => join_(pier!, cookie)));
  sockets.push(...viewers.map((viewer) => viewer.ws));
  await Promise.all(viewers.map((viewer) => viewer.replayEnded));
  const joinSeconds = (performance.now() - started) / 1000;
  const peak = stop();
  await delay(SETTLE_MS);
  const joined = rssMB(pid);
  for (const ws of sockets.splice(1)) ws.terminate();
  await delay(SETTLE_MS);
  const left = rssMB(pid);

  const replayMB = viewers[0]!.hello.replay.bytes / MB;
  const growth = peak - before;
  const target = replayMB + (VIEWERS * PER_VIEWER_KB) / 1024;
  const line = (name: string, value: string, beside = "") => console.log(`${name.padEnd(52)}${value.padStart(10)}  ${beside}`);
  console.log(
    `pier runs ${bundle ? "its compiled bundle (relay/dist/pier.cjs)" : "its TypeScript sources"}; stand-in pi; ${STREAMED / MB} MB streamed first; uptime load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]}`,
  );
  line("the replay each viewer catches up with (MB)", replayMB.toFixed(1));
  line("relay RSS before they join (MB)", before.toFixed(1));
  line(`peak while ${VIEWERS} viewers join at once (MB)`, peak.toFixed(1), `(all had the replay in ${joinSeconds.toFixed(1)} s)`);
  line(`  ${SETTLE_MS / 1000} s after, all connected (MB)`, joined.toFixed(1));
  line("  after they left (MB)", left.toFixed(1));
  line("growth at the peak (MB)", growth.toFixed(1), `target ≤ ${target.toFixed(1)} (the replay + ${PER_VIEWER_KB} KB per viewer): ${(growth / target).toFixed(2)}×`);
  line("  per viewer, beyond one replay (KB)", (((growth - replayMB) * 1024) / VIEWERS).toFixed(0), `target ≤ ${PER_VIEWER_KB}`);
} finally {
  for (const ws of sockets) ws.terminate();
  await pier?.stop();
  await rm(workspace, { recursive: true, force: true });
}
