// A real pi with a tap on its stdin: `pier --pi <this file>` runs it with
// Node; it runs the pi CLI named by PIER_TEE_PI_CLI with the same arguments
// and appends every byte pier writes to pi's stdin to PIER_TEE_LOG. pi's
// stdout and stderr are pier's own pipes (inherited), untouched. Tests and
// benches use it to count what reached pi (e.g. how many get_entries a class
// joining cost pi) without mocking pi or reading pier's internals.
//
// PIER_TEE_HOLD (optional): a line that contains this text is logged but not
// passed to pi, so a test can keep a command "in pi", unanswered, for as long
// as it likes (e.g. to restart pi while the relay waits for an answer).
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const cli = process.env.PIER_TEE_PI_CLI;
const log = process.env.PIER_TEE_LOG;
const hold = process.env.PIER_TEE_HOLD || null;
if (!cli || !log) {
  process.stderr.write("stdin-tee-pi: set PIER_TEE_PI_CLI (the pi CLI to run) and PIER_TEE_LOG (where its stdin is copied)\n");
  process.exit(2);
}

const child = spawn(process.execPath, [cli, ...process.argv.slice(2)], { stdio: ["pipe", "inherit", "inherit"] });
/** The start of a line not passed on yet (only with PIER_TEE_HOLD: lines are then looked at whole). */
let partial = Buffer.alloc(0);
/** What of `chunk` goes to pi: all of it, or (with PIER_TEE_HOLD) its whole lines but the held ones. */
function passed(chunk) {
  if (hold === null) return chunk;
  const bytes = Buffer.concat([partial, chunk]);
  const lastLf = bytes.lastIndexOf(0x0a);
  partial = bytes.subarray(lastLf + 1);
  if (lastLf === -1) return Buffer.alloc(0);
  const lines = bytes
    .subarray(0, lastLf + 1)
    .toString("utf8")
    .split("\n")
    .slice(0, -1);
  return Buffer.from(
    lines
      .filter((line) => !line.includes(hold))
      .map((line) => `${line}\n`)
      .join(""),
  );
}
process.stdin.on("data", (chunk) => {
  appendFileSync(log, chunk);
  const out = passed(chunk);
  if (out.length > 0 && !child.stdin.write(out)) {
    process.stdin.pause();
    child.stdin.once("drain", () => process.stdin.resume());
  }
});
process.stdin.on("end", () => child.stdin.end());
child.stdin.on("error", () => {});
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
