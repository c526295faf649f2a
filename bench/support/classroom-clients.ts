// A process full of viewers for bench/classroom.bench.ts, forked with an IPC
// channel: the viewers' decoding runs here, not in the process that measures,
// so the bench can tell (from this process's CPU use) whether the client side
// is what limits the numbers. Each viewer opens the viewer link itself (its
// own cookie, as a browser would) and decodes like a page (stamped-viewer.ts).
//
// Requests (IPC), each answered with one message of the same type:
//   {type:"connect", linkUrl, host, count, deltas}  → {type:"connect", ms}
//   {type:"arm"}                                    → {type:"arm"}
//   {type:"collect"}  (once every viewer is done)   → {type:"collect", …results}
//   {type:"close"}                                  → {type:"close"}, then exit
import { monitorEventLoopDelay } from "node:perf_hooks";
import { redeemLink, StampedViewer, type Decode } from "./stamped-viewer.ts";
// This process connects to pier's `pier-….localhost` name as a browser would: resolve it to loopback.
import "../../relay/test/support/resolve-localhost.ts";

type Request = { type: "connect"; linkUrl: string; host: string; count: number; deltas: number } | { type: "arm"; deltas: number } | { type: "collect" } | { type: "close" };

/** How the viewers read pi's stream (stamped-viewer.ts): "scan" unless PIER_BENCH_VIEWER_DECODE=page. */
const DECODE: Decode = process.env.PIER_BENCH_VIEWER_DECODE === "page" ? "page" : "scan";

/** Connections opened at once: a class arriving, not a flood. */
const BATCH = 25;

const viewers: StampedViewer[] = [];
let armedAt = { cpu: process.cpuUsage(), wallMs: performance.now(), bytes: 0, frames: 0 };
/** How late this process's event loop ran while streaming: a delay here is a delay every viewer here sees. */
const loopDelay = monitorEventLoopDelay({ resolution: 5 });

const reply = (message: Record<string, unknown>): void => void process.send!(message);

process.on("message", (request: Request) => {
  handle(request).catch((error: unknown) => {
    reply({ type: "failed", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  });
});
process.on("disconnect", () => process.exit(0));

async function handle(request: Request): Promise<void> {
  switch (request.type) {
    case "connect": {
      const started = performance.now();
      for (let i = 0; i < request.count; i += BATCH) {
        const batch = Array.from({ length: Math.min(BATCH, request.count - i) }, async () => {
          const cookie = await redeemLink(request.linkUrl);
          return StampedViewer.connect({ host: request.host }, cookie, { deltas: request.deltas, decode: DECODE });
        });
        viewers.push(...(await Promise.all(batch)));
      }
      const roles = new Set(viewers.map((viewer) => viewer.hello?.you?.role));
      return reply({ type: "connect", ms: performance.now() - started, roles: [...roles] });
    }
    case "arm": {
      for (const viewer of viewers) viewer.rearm(request.deltas);
      armedAt = { cpu: process.cpuUsage(), wallMs: performance.now(), bytes: totalBytes(), frames: totalFrames() };
      loopDelay.reset();
      loopDelay.enable();
      return reply({ type: "arm" });
    }
    case "collect": {
      await Promise.all(viewers.map((viewer) => viewer.whenDone()));
      const cpu = process.cpuUsage(armedAt.cpu);
      loopDelay.disable();
      const wallMs = performance.now() - armedAt.wallMs;
      // Per delta, the slowest viewer here (the bench takes the slowest of all processes).
      const deltas = viewers[0]?.arrivals.length ?? 0;
      const slowest = new Array<number>(deltas).fill(0);
      let missing = 0;
      for (const viewer of viewers) {
        for (let n = 0; n < deltas; n++) {
          const at = viewer.arrivals[n]!;
          if (Number.isNaN(at)) missing++;
          else if (at > slowest[n]!) slowest[n] = at;
        }
      }
      return reply({
        type: "collect",
        slowest,
        missing,
        fingerprints: viewers.map((viewer) => viewer.fingerprint()),
        closed: viewers.filter((viewer) => viewer.closeCode !== null).map((viewer) => viewer.closeCode),
        bytes: totalBytes() - armedAt.bytes,
        frames: totalFrames() - armedAt.frames,
        cpuMs: (cpu.user + cpu.system) / 1000,
        loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
        loopDelayMaxMs: loopDelay.max / 1e6,
        wallMs,
      });
    }
    case "close": {
      await Promise.all(viewers.map((viewer) => viewer.close()));
      reply({ type: "close" });
      process.disconnect();
      return;
    }
  }
}

function totalFrames(): number {
  let frames = 0;
  for (const viewer of viewers) frames += viewer.frames;
  return frames;
}

function totalBytes(): number {
  let bytes = 0;
  for (const viewer of viewers) bytes += viewer.bytes;
  return bytes;
}
