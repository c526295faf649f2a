// Socket viewers for bench/classroom-pages.bench.ts's comparison column: N
// WebSocket clients in this one forked process (not the one that measures),
// each on its own viewer link (its own cookie), each decoding pi's bytes as
// the page's first step does (the web app's JsonlDecoder: split + JSON.parse)
// and noting, per delta marker (bench/support/stream-scenario.ts), when it
// arrived (epoch ms, the clock the pages use). What a page does beyond
// that (reduce, render, paint, in its own process) is the difference
// between this column and the pages'.
//
// Requests (IPC), each answered with one message of the same type:
//   {type:"connect", links, host, deltas} → {type:"connect"}
//   {type:"collect", timeoutMs}           → {type:"collect", arrivals: (number|null)[][], cpuMs}
//   {type:"close"}                        → {type:"close"}, then exit
//
// Plain TypeScript with erasable types only: Node runs it with type stripping.
import WebSocket from "ws";
import { JsonlDecoder } from "../../shared-protocol/src/jsonl-decoder.ts";
import { redeemLink } from "./stamped-viewer.ts";
// This process connects to pier's `pier-….localhost` name as a browser would: resolve it to loopback.
import "../../relay/test/support/resolve-localhost.ts";

type Request = { type: "connect"; links: string[]; host: string; deltas: number } | { type: "collect"; timeoutMs: number } | { type: "close" };

const MARKER = /m(\d{5})/;
const sockets: WebSocket[] = [];
const arrivals: Float64Array[] = [];
let cpu0 = process.cpuUsage();

const reply = (message: Record<string, unknown>): void => void process.send!(message);
process.on("message", (request: Request) => {
  handle(request).catch((error: unknown) => reply({ type: "failed", message: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
});
process.on("disconnect", () => process.exit(0));

async function connect(link: string, host: string, deltas: number): Promise<void> {
  const cookie = await redeemLink(link);
  const ws = new WebSocket(`ws://${host}/ws`, { headers: { Cookie: cookie }, origin: `http://${host}` });
  const seen = new Float64Array(deltas).fill(NaN);
  const decoder = new JsonlDecoder();
  ws.on("message", (data: Buffer, isBinary: boolean) => {
    if (!isBinary) return;
    const at = performance.timeOrigin + performance.now();
    for (const line of decoder.push(data)) {
      if (line.kind !== "record") continue;
      const record = line.value as { type?: string; assistantMessageEvent?: { type?: string; delta?: string } };
      if (record.type !== "message_update" || record.assistantMessageEvent?.type !== "text_delta") continue;
      const match = MARKER.exec(record.assistantMessageEvent.delta ?? "");
      const n = match ? Number(match[1]) : -1;
      if (n >= 0 && n < deltas && Number.isNaN(seen[n]!)) seen[n] = at;
    }
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
    ws.once("unexpected-response", (_request: unknown, response: { statusCode?: number }) => reject(new Error(`upgrade refused: HTTP ${response.statusCode}`)));
  });
  ws.on("error", () => {});
  sockets.push(ws);
  arrivals.push(seen);
}

async function handle(request: Request): Promise<void> {
  switch (request.type) {
    case "connect": {
      // A class arriving, 25 at a time, not a flood.
      for (let i = 0; i < request.links.length; i += 25) {
        await Promise.all(request.links.slice(i, i + 25).map((link) => connect(link, request.host, request.deltas)));
      }
      cpu0 = process.cpuUsage();
      return reply({ type: "connect" });
    }
    case "collect": {
      // Until every socket has the last delta (or the time is up: the bench reports what is missing).
      const until = performance.now() + request.timeoutMs;
      while (performance.now() < until && arrivals.some((seen) => Number.isNaN(seen[seen.length - 1]!))) await new Promise((r) => setTimeout(r, 50));
      const cpu = process.cpuUsage(cpu0);
      return reply({ type: "collect", arrivals: arrivals.map((seen) => Array.from(seen, (at) => (Number.isNaN(at) ? null : at))), cpuMs: (cpu.user + cpu.system) / 1000 });
    }
    case "close": {
      for (const ws of sockets) ws.terminate();
      reply({ type: "close" });
      process.disconnect();
    }
  }
}
