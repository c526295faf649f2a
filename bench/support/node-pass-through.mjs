// The least a Node process between an RPC client and pi can do: start the
// command, pass the client's bytes to it and its bytes back, nothing else
// (no copy kept, no line cut, no server). bench/tap.bench.ts runs it beside
// `pier tap` as the limit of any pass-through written in Node on this
// machine: what the tap costs beyond it is the tap's own.
import { spawn } from "node:child_process";
import { Socket } from "node:net";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
// Non-blocking, as the tap's own stdout is (relay/src/tap/tap-output.ts).
const out = new Socket({ fd: 1, readable: false, writable: true });
child.stdout.pipe(out);
process.stdin.pipe(child.stdin);
child.stdin.on("error", () => {});
child.once("close", (code) => out.end(() => process.exit(code ?? 1)));
