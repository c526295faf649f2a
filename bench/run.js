// `pnpm bench`: every benchmark, one after the other, printing measured
// ratios side by side. Benchmarks are measurements, never pass/fail tests.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

const here = new URL(".", import.meta.url);
const benches = readdirSync(here)
  .filter((name) => name.endsWith(".bench.ts"))
  .sort();
let failed = false;
for (const name of benches) {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(process.execPath, [new URL(name, here).pathname], { stdio: "inherit" });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
