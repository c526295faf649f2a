// `pnpm bench [NAME…]`: the benchmarks (every one, or those named: `pnpm
// bench tap first-load`), one after the other, printing measured ratios side
// by side. Benchmarks are measurements, never pass/fail tests.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

const here = new URL(".", import.meta.url);
const all = readdirSync(here)
  .filter((name) => name.endsWith(".bench.ts"))
  .sort();
const asked = process.argv.slice(2).map((name) => name.replace(/\.bench\.ts$/, ""));
const unknown = asked.filter((name) => !all.includes(`${name}.bench.ts`));
if (unknown.length > 0) {
  console.error(`pnpm bench: no benchmark named ${unknown.join(", ")}. There are: ${all.map((name) => name.replace(/\.bench\.ts$/, "")).join(", ")}.`);
  process.exit(2);
}
const benches = asked.length === 0 ? all : all.filter((name) => asked.includes(name.replace(/\.bench\.ts$/, "")));
let failed = false;
for (const name of benches) {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(process.execPath, [new URL(name, here).pathname], { stdio: "inherit" });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
