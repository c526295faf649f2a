// The yardstick for the relay's throughput: the least a WebSocket relay for
// pi can be. One `ws` WebSocketServer, one child (argv[2], run with this
// Node), its stdout chunks sent to the connected client as binary frames,
// the client's text frames written to its stdin as lines. Its only
// bookkeeping is the backpressure any relay needs (pause the child's stdout
// while more than 1 MiB is queued for the socket, resume below 256 KiB),
// so it never holds more than that. No replay, no access control, no
// checks. Prints its port on stdout.
//
// With `--from-memory` instead of a child: the limit, a relay with no pipe to
// read. On a text frame `{"type":"prompt","message":"stream <bytes>"}` it
// sends <bytes> of the stand-in's records (bench/relay-pi-stand-in.mjs) out
// of one preallocated buffer, as views of it in CHUNK-sized frames (a full
// pipe read: what a relay reads while pi outpaces it), then the stand-in's
// end marker, with the same backpressure.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";

const { WebSocketServer } = createRequire(new URL("../relay/package.json", import.meta.url))("ws");
const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;

const CHUNK = 64 * 1024;
const END_MARKER = Buffer.from('{"type":"pier_bench_end"}\n');

const server = createServer();
const wss = new WebSocketServer({ server });
const fromMemory = process.argv[2] === "--from-memory";
const child = fromMemory ? null : spawn(process.execPath, [process.argv[2]], { stdio: ["pipe", "pipe", "inherit"] });
child?.stdin.on("error", () => {});
if (fromMemory) wss.on("connection", sendFromMemory);
else wss.on("connection", relayChild);

function sendFromMemory(ws) {
  const fixtures = new URL("../web/test/fixtures/", import.meta.url);
  const one = Buffer.concat(
    readdirSync(fixtures)
      .filter((name) => name.endsWith(".jsonl"))
      .sort()
      .map((name) => readFileSync(new URL(name, fixtures))),
  );
  // Whole copies up to a few MB, so a frame is a view of it that never wraps.
  const records = Buffer.concat(Array.from({ length: Math.max(1, Math.ceil((4 * 1024 * 1024) / one.length)) }, () => one));
  let inFlight = 0;
  let left = 0;
  let at = 0;
  const pump = () => {
    while (left > 0 && inFlight <= HIGH_WATER && ws.readyState === ws.OPEN) {
      if (at + CHUNK > records.length) at = 0;
      const frame = records.subarray(at, at + Math.min(CHUNK, left));
      at += frame.length;
      left -= frame.length;
      inFlight += frame.length;
      ws.send(frame, { binary: true }, () => {
        inFlight -= frame.length;
        if (inFlight < LOW_WATER) pump();
      });
      if (left === 0) ws.send(END_MARKER, { binary: true });
    }
  };
  ws.on("message", (data) => {
    const match = /^stream (\d+)$/.exec(JSON.parse(String(data)).message ?? "");
    if (!match) return;
    left = Number(match[1]);
    pump();
  });
}

function relayChild(ws) {
  let inFlight = 0;
  let paused = false;
  const onData = (chunk) => {
    inFlight += chunk.length;
    ws.send(chunk, { binary: true }, () => {
      inFlight -= chunk.length;
      if (paused && inFlight < LOW_WATER) {
        paused = false;
        child.stdout.resume();
      }
    });
    if (!paused && inFlight > HIGH_WATER) {
      paused = true;
      child.stdout.pause();
    }
  };
  child.stdout.on("data", onData);
  ws.on("message", (data) => child.stdin.write(`${data}\n`));
  ws.on("close", () => {
    child.stdout.off("data", onData);
    if (paused) child.stdout.resume();
  });
}
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
const stop = () => {
  child?.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGTERM", stop);
process.stdin.on("end", stop);
process.stdin.resume();
