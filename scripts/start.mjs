// `pnpm start` / `pnpm demo`: build what is out of date (the web app; the
// relay's compiled bundle, which needs half the memory of its TypeScript
// sources), then run `pier` in this same process with the arguments given
// (pnpm passes everything after the script name, `--` included).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { ensureWebBuild } from "./web-build.mjs";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  // pier says the same; say it before a build that would fail less clearly.
  process.stderr.write(`pier needs Node.js 22.19 or newer (pi requires it), but this is Node.js ${process.versions.node}.\n`);
  process.exit(1);
}
if (!(await ensureWebBuild())) process.exit(1);
const require = createRequire(import.meta.url);
if (require("../relay/bin/current-bundle.js").currentBundle() === null) {
  // Quiet, and never fatal: without the bundle pier runs its sources.
  spawnSync(process.execPath, [new URL("../relay/scripts/bundle.mjs", import.meta.url).pathname, "--if-possible"], { stdio: ["ignore", "ignore", "inherit"] });
}
// CommonJS, loaded as such (importing it would start the CommonJS export
// lexer); it reads process.argv.slice(2): the arguments given to this script.
require("../relay/bin/pier.js");
