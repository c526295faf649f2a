// `pnpm start` / `pnpm demo`: build the web app if its sources changed, then
// run `pier` in this same process with the arguments given (pnpm passes
// everything after the script name, `--` included).
import { ensureWebBuild } from "./web-build.mjs";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  // pier says the same; say it before a build that would fail less clearly.
  process.stderr.write(`pier needs Node.js 22.19 or newer (pi 0.87.1 requires it), but this is Node.js ${process.versions.node}.\n`);
  process.exit(1);
}
if (!(await ensureWebBuild())) process.exit(1);
// relay/bin/pier.js reads process.argv.slice(2): the arguments given to this script.
await import("../relay/bin/pier.js");
