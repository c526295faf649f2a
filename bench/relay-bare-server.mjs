// The yardstick for the relay's throughput: the least a WebSocket relay for
// pi can be. One `ws` WebSocketServer, one child (argv[2], run with this
// Node), its stdout chunks sent to the connected client as binary frames,
// the client's text frames written to its stdin as lines. Its only
// bookkeeping is the backpressure any relay needs (pause the child's stdout
// while more than 1 MiB is queued for the socket, resume below 256 KiB),
// so it never holds more than that. No replay, no access control, no
// checks. Prints its port on stdout.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { createRequire } from "node:module";

const { WebSocketServer } = createRequire(new URL("../relay/package.json", import.meta.url))("ws");
const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;

const child = spawn(process.execPath, [process.argv[2]], { stdio: ["pipe", "pipe", "inherit"] });
child.stdin.on("error", () => {});
const server = createServer();
const wss = new WebSocketServer({ server });
wss.on("connection", (ws) => {
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
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
const stop = () => {
  child.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGTERM", stop);
process.stdin.on("end", stop);
process.stdin.resume();
