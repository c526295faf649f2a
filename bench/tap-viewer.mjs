// The viewer of bench/tap.bench.ts: one WebSocket on `pier tap`, reading as
// fast as it can and keeping nothing (a page keeps what it shows; the bench
// measures the tap's fan-out, not a test client's memory). A process of its
// own, as a browser is: in the client's process it would take the client's
// event loop, not just a share of the machine. Argument: the tap's link.
// Prints "ready" once the replay is in, and on stdin EOF the bytes received
// and how its socket ended ("open", or the close code).
import { get } from "node:http";
import { WebSocket } from "ws";

// The link's host is pier-<random>.localhost, which browsers (not Node's resolver) take to be loopback.
const url = new URL(process.argv[2]);
const address = { host: "127.0.0.1", port: Number(url.port) };
const cookie = await new Promise((resolve, reject) =>
  get({ ...address, path: url.pathname + url.search, headers: { Host: url.host } }, (response) => {
    response.resume();
    const pair = response.headers["set-cookie"]?.[0]?.split(";")[0];
    if (response.statusCode === 303 && pair) resolve(pair);
    else reject(new Error(`the link answered ${response.statusCode}, expected 303 with a cookie`));
  }).on("error", reject),
);
const ws = new WebSocket(`ws://${address.host}:${address.port}/ws`, { headers: { Cookie: cookie, Host: url.host }, origin: url.origin });
let bytes = 0;
/** The close code if the tap closed it (4008: it fell further behind than the replay holds). */
let closedWith = "open";
ws.on("close", (code) => (closedWith = String(code)));
ws.on("message", (data, isBinary) => {
  if (isBinary) bytes += data.length;
  else if (data.includes('"replay_end"')) process.stdout.write("ready\n");
});
ws.on("error", (error) => {
  process.stderr.write(`viewer: ${error.message}\n`);
  process.exit(1);
});
process.stdin.resume();
process.stdin.on("end", () => {
  process.stdout.write(`${bytes} ${closedWith}\n`);
  ws.close();
  process.exit(0);
});
