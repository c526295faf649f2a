// "On the wire" for bench/classroom-pages.bench.ts: one WebSocket client of
// pier, forked into a process of its own that does nothing else, noting when
// each delta marker's record (bench/support/stream-scenario.ts) reaches it
// (epoch ms, the pages' clock): the relay's send time, give or take this
// process's wake-up. It runs apart from the bench's own process because that
// one also carries Playwright, which hears of every WebSocket frame of every
// page (Chromium's DevTools protocol reports them): there, its event loop ran
// 40-100 ms late with 3 pages and the "send time" came after pages showed the
// text. Its priority is raised where the OS lets it (nice −10) for the same
// reason; it uses little CPU. Its event-loop delay is reported.
//
// The records are found by LF and search, without JSON.parse.
//
// Requests (IPC), each answered with one message of the same type:
//   {type:"connect", host, cookie, deltas} → {type:"connect", priority, childPid}
//   {type:"arm"}                           → {type:"arm"}
//   {type:"collect", timeoutMs}            → {type:"collect", sentAt: (number|null)[], settled, loopP99Ms, loopMaxMs}
//   {type:"close"}                         → {type:"close"}, then exit
//
// Plain TypeScript with erasable types only: Node runs it with type stripping.
import { getPriority, setPriority } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import WebSocket from "ws";
// This process connects to pier's `pier-….localhost` name as a browser would: resolve it to loopback.
import "../../relay/test/support/resolve-localhost.ts";

type Request = { type: "connect"; host: string; cookie: string; deltas: number } | { type: "arm" } | { type: "collect"; timeoutMs: number } | { type: "close" };

const MESSAGE_UPDATE = Buffer.from('"type":"message_update"');
const TEXT_DELTA = Buffer.from('"type":"text_delta"');
const DELTA_FIELD = Buffer.from('"delta":"');
const AGENT_SETTLED = Buffer.from('"type":"agent_settled"');
const MARKER = /m(\d{5})/;

let ws: WebSocket | null = null;
let sentAt = new Float64Array(0);
let settled = 0;
let partial = Buffer.alloc(0);
const loop = monitorEventLoopDelay({ resolution: 2 });

const reply = (message: Record<string, unknown>): void => void process.send!(message);
process.on("message", (request: Request) => {
  handle(request).catch((error: unknown) => reply({ type: "failed", message: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
});
process.on("disconnect", () => process.exit(0));

function onBytes(chunk: Buffer): void {
  const at = performance.timeOrigin + performance.now();
  const bytes = partial.length === 0 ? chunk : Buffer.concat([partial, chunk]);
  let start = 0;
  for (let end = bytes.indexOf(10); end !== -1; start = end + 1, end = bytes.indexOf(10, start)) {
    const line = bytes.subarray(start, end);
    if (line.indexOf(MESSAGE_UPDATE) === -1) {
      if (line.indexOf(AGENT_SETTLED) !== -1) settled++;
      continue;
    }
    if (line.indexOf(TEXT_DELTA) === -1) continue;
    const field = line.indexOf(DELTA_FIELD);
    const marker = field === -1 ? null : MARKER.exec(line.toString("latin1", field + DELTA_FIELD.length, field + DELTA_FIELD.length + 48));
    const n = marker ? Number(marker[1]) : -1;
    if (n >= 0 && n < sentAt.length && Number.isNaN(sentAt[n]!)) sentAt[n] = at;
  }
  partial = Buffer.from(bytes.subarray(start));
}

async function handle(request: Request): Promise<void> {
  switch (request.type) {
    case "connect": {
      try {
        setPriority(-10);
      } catch {
        // Not allowed here: measured at the default priority (reported).
      }
      sentAt = new Float64Array(request.deltas).fill(NaN);
      const socket = new WebSocket(`ws://${request.host}/ws`, { headers: { Cookie: request.cookie }, origin: `http://${request.host}` });
      ws = socket;
      await new Promise<void>((resolve, reject) => {
        socket.once("error", reject);
        socket.on("message", (data: Buffer, isBinary: boolean) => {
          if (isBinary) return onBytes(data);
          if ((JSON.parse(data.toString("utf8")) as { type?: string }).type === "replay_end") resolve();
        });
      });
      socket.on("error", () => {});
      return reply({ type: "connect", priority: getPriority() });
    }
    case "arm": {
      settled = 0;
      sentAt.fill(NaN);
      loop.reset();
      loop.enable();
      return reply({ type: "arm" });
    }
    case "collect": {
      const until = performance.now() + request.timeoutMs;
      while (performance.now() < until && (settled === 0 || Number.isNaN(sentAt[sentAt.length - 1]!))) await new Promise((r) => setTimeout(r, 20));
      loop.disable();
      return reply({
        type: "collect",
        sentAt: Array.from(sentAt, (at) => (Number.isNaN(at) ? null : at)),
        settled,
        loopP99Ms: loop.percentile(99) / 1e6,
        loopMaxMs: loop.max / 1e6,
      });
    }
    case "close": {
      ws?.terminate();
      reply({ type: "close" });
      process.disconnect();
    }
  }
}
