// Builds the web app (web/dist) only when what it is built from changed:
// `pnpm start` should open Pier in a second, not rebuild it every time.
// The fingerprint is a hash of every source file's path and content (plus the
// lockfile and the build's own config), stored next to the build.
//
//   node scripts/web-build.mjs           build if needed, quietly
//   node scripts/web-build.mjs --force   build (pnpm build)
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const web = join(repo, "web");
const stampFile = join(web, "dist", ".build-fingerprint");
const INPUTS = ["web/src", "web/scripts", "web/index.html", "web/vite.config.ts", "web/vite.export.config.ts", "web/package.json", "web/tsconfig.json", "shared-protocol/src", "pnpm-lock.yaml"];

async function* walk(path) {
  let entries;
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch (error) {
    if (error.code === "ENOTDIR") return yield path;
    if (error.code === "ENOENT") return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    yield* walk(join(path, entry.name));
  }
}

export async function fingerprint() {
  const hash = createHash("sha256");
  for (const input of INPUTS) {
    for await (const file of walk(join(repo, input))) {
      hash
        .update(relative(repo, file))
        .update("\0")
        .update(await readFile(file))
        .update("\0");
    }
  }
  return hash.digest("hex");
}

/** Runs `pnpm --filter @pier/web build` with its output held back; shown only if it fails. */
function runBuild() {
  return new Promise((resolve) => {
    const child = spawn("pnpm", ["--filter", "@pier/web", "build"], { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => resolve({ ok: false, output: `could not run pnpm: ${error.message}\n` }));
    child.on("close", (code) => resolve({ ok: code === 0, output: Buffer.concat(output).toString("utf8") }));
  });
}

/** Builds web/dist unless it is current; returns false (after printing why) when the build failed. */
export async function ensureWebBuild({ force = false, log = (line) => process.stderr.write(`pier: ${line}\n`) } = {}) {
  const wanted = await fingerprint();
  const built = existsSync(join(web, "dist", "index.html")) && existsSync(stampFile) ? (await readFile(stampFile, "utf8")).trim() : null;
  if (!force && built === wanted) return true;
  log(built === null || force ? "building the web app…" : "the web app's sources changed: rebuilding it…");
  const started = Date.now();
  const result = await runBuild();
  if (!result.ok) {
    process.stderr.write(result.output);
    log("the web app did not build (its output is above)");
    return false;
  }
  await writeFile(stampFile, `${wanted}\n`);
  log(`web app built in ${Math.round((Date.now() - started) / 1000)} s`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ok = await ensureWebBuild({ force: process.argv.includes("--force") });
  process.exit(ok ? 0 : 1);
}
