// A real pi with a tap on its stdin: `pier --pi <this file>` runs it with
// Node; it runs the pi CLI named by PIER_TEE_PI_CLI with the same arguments
// and appends every byte pier writes to pi's stdin to PIER_TEE_LOG. pi's
// stdout and stderr are pier's own pipes (inherited), untouched. Tests and
// benches use it to count what reached pi (e.g. how many get_entries a class
// joining cost pi) without mocking pi or reading pier's internals.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const cli = process.env.PIER_TEE_PI_CLI;
const log = process.env.PIER_TEE_LOG;
if (!cli || !log) {
  process.stderr.write("stdin-tee-pi: set PIER_TEE_PI_CLI (the pi CLI to run) and PIER_TEE_LOG (where its stdin is copied)\n");
  process.exit(2);
}

const child = spawn(process.execPath, [cli, ...process.argv.slice(2)], { stdio: ["pipe", "inherit", "inherit"] });
process.stdin.on("data", (chunk) => {
  appendFileSync(log, chunk);
  if (!child.stdin.write(chunk)) {
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
