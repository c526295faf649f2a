// The first load (issue #35, target 7: initial JS ≤ 120 KB gzip): the JS a
// page loads before any lazy import, which is index.html's module script and
// its modulepreload links (Vite lists there every chunk the entry imports
// statically; the bench also follows the chunks' own static imports and says
// so if the two disagree). Printed per chunk, raw, gzip and Brotli as pier
// serves them (web/scripts/compress-dist.mjs: gzip level 9, Brotli quality 9),
// and in total beside the target, and beside the build named by
// PIER_BENCH_BASELINE_DIST when it is set (a `vite build --outDir <dir>` of
// another version of web/).
//
// Then the same page in real Chromium against a real pier (--demo): which JS
// files the browser really requested before the first screen was drawn (the
// prompt box's first frame), from Playwright's network log, against the static
// list above; and once more on a reload of a session with a conversation,
// until its answer is drawn as Markdown (the renderer is lazy: it must come
// in time, not be missed). Files requested later (lazy, or fetched while the
// page is idle) are listed apart. Asserts nothing.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { chromium, type Browser, type Page } from "@playwright/test";
import { startPier, type RunningPier } from "../relay/test/support/pier-process.ts";
import { BENCH_CHROMIUM_ARGS, baselineDistFromEnv, openPier } from "./support/pier-page.ts";

const TARGET_GZIP_KB = 120;
const webDist = new URL("../web/dist/", import.meta.url).pathname;

if (!existsSync(join(webDist, "index.html"))) {
  console.log("web/dist is not built: run `pnpm --filter @pier/web build` first. Skipping.");
  process.exit(0);
}

type Chunk = { file: string; raw: number; gzip: number; brotli: number };
type Build = { name: string; dist: string; chunks: Chunk[]; note: string | null };

const kb = (bytes: number) => (bytes / 1000).toFixed(1);

/** The files index.html loads as JS before the app runs: its module script, then its modulepreload links. */
function htmlScripts(dist: string): string[] {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const files: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isModule = /^<script\b/.test(tag) && /\btype="module"/.test(tag);
    const isPreload = /^<link\b/.test(tag) && /\brel="modulepreload"/.test(tag);
    const src = /\b(?:src|href)="\/?([^"]+)"/.exec(tag)?.[1];
    if ((isModule || isPreload) && src) files.push(src);
  }
  return files;
}

/** Every chunk `entry` imports statically, itself included (`import … from "./x.js"`, `import "./x.js"`; not `import("./x.js")`). */
function staticClosure(dist: string, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(dist, file), "utf8");
    const dir = file.slice(0, file.lastIndexOf("/") + 1);
    for (const match of code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.\.?\/[^"']+\.js)["']/g)) {
      visit(new URL(match[1]!, `file:///${dir}`).pathname.slice(1));
    }
  };
  visit(entry);
  return [...seen];
}

function measureBuild(name: string, dist: string): Build {
  const listed = htmlScripts(dist);
  if (listed.length === 0) throw new Error(`${dist}/index.html has no <script type="module">`);
  const followed = staticClosure(dist, listed[0]!);
  const missing = followed.filter((file) => !listed.includes(file));
  const extra = listed.filter((file) => !followed.includes(file));
  const note =
    missing.length + extra.length === 0
      ? null
      : `index.html and the chunks' own imports disagree: imported but not preloaded ${missing.join(", ") || "none"}; preloaded but not imported ${extra.join(", ") || "none"}`;
  const chunks = [...new Set([...listed, ...missing])].map((file): Chunk => {
    const raw = readFileSync(join(dist, file));
    return {
      file,
      raw: raw.length,
      gzip: gzipSync(raw, { level: 9 }).length,
      brotli: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }).length,
    };
  });
  return { name, dist, chunks, note };
}

const total = (build: Build, key: "raw" | "gzip" | "brotli") => build.chunks.reduce((sum, chunk) => sum + chunk[key], 0);

function printBuild(build: Build): void {
  console.log(`\n${build.name} (${build.dist}): JS loaded before any lazy import`);
  console.log(`  ${"chunk".padEnd(48)} ${"raw KB".padStart(8)} ${"gzip KB".padStart(8)} ${"br KB".padStart(8)}`);
  for (const chunk of [...build.chunks].sort((a, b) => b.gzip - a.gzip)) {
    console.log(`  ${chunk.file.padEnd(48)} ${kb(chunk.raw).padStart(8)} ${kb(chunk.gzip).padStart(8)} ${kb(chunk.brotli).padStart(8)}`);
  }
  console.log(`  ${"total".padEnd(48)} ${kb(total(build, "raw")).padStart(8)} ${kb(total(build, "gzip")).padStart(8)} ${kb(total(build, "brotli")).padStart(8)}`);
  if (build.note) console.log(`  note: ${build.note}`);
}

const baselineDist = baselineDistFromEnv();
const builds = [...(baselineDist ? [measureBuild("baseline", baselineDist)] : []), measureBuild("web/dist", webDist)];
for (const build of builds) printBuild(build);

console.log("\nInitial JS, gzip (target ≤ 120 KB):");
for (const build of builds) {
  const gzip = total(build, "gzip") / 1000;
  console.log(`  ${build.name.padEnd(9)} ${gzip.toFixed(1).padStart(6)} KB gzip, ${kb(total(build, "brotli")).padStart(6)} KB Brotli  (${(gzip / TARGET_GZIP_KB).toFixed(2)}× the target)`);
}
if (builds.length === 2) console.log(`  web/dist ÷ baseline: ${(total(builds[1]!, "gzip") / total(builds[0]!, "gzip")).toFixed(2)} (gzip)`);

// ── In Chromium: what the browser really fetched before drawing ─────────────

/**
 * Runs in the page before its own scripts: resolves `__drawn` with the epoch
 * time of the first frame painted once `selector` matches (the frame after
 * the one that laid it out, so the paint has happened).
 */
function watchFirstDraw(selector: string): void {
  const state = window as unknown as { __drawn: Promise<number> };
  state.__drawn = new Promise((resolve) => {
    const check = () => {
      if (!document.querySelector(selector)) return false;
      requestAnimationFrame(() => setTimeout(() => resolve(performance.timeOrigin + performance.now())));
      return true;
    };
    if (check()) return;
    const observer = new MutationObserver(() => {
      if (check()) observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}

type Fetched = { file: string; at: number; bytes: number };

/** Opens pier in a fresh context and notes every JS request until `selector` is drawn. */
async function jsUntilDrawn(browser: Browser, pier: RunningPier, dist: string | null, selector: string, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport, serviceWorkers: "block" });
  await context.addInitScript(watchFirstDraw, selector);
  const requests: Promise<Fetched>[] = [];
  context.on("requestfinished", (request) => {
    const path = new URL(request.url()).pathname;
    if (!path.endsWith(".js")) return;
    requests.push(request.sizes().then((sizes) => ({ file: path.slice(1), at: request.timing().startTime, bytes: sizes.responseBodySize })));
  });
  try {
    const page: Page = await openPier(context, pier, dist);
    const drawnAt = await page.evaluate(() => (window as unknown as { __drawn: Promise<number> }).__drawn);
    // Whatever the page fetches while idle after drawing, for the list of what came later.
    await page.waitForTimeout(1500);
    const fetched = await Promise.all(requests);
    return { before: fetched.filter((f) => f.at <= drawnAt), after: fetched.filter((f) => f.at > drawnAt) };
  } finally {
    await context.close();
  }
}

function printFetched(label: string, build: Build, seen: { before: Fetched[]; after: Fetched[] }): void {
  const expected = build.chunks.map((chunk) => chunk.file);
  const before = seen.before.map((f) => f.file);
  const notFetched = expected.filter((file) => !before.includes(file));
  /** Lazy imports the page started before it drew (not waited for by the first frame, but fetched meanwhile). */
  const lazy = before.filter((file) => !expected.includes(file));
  const gzipOf = (file: string) => (existsSync(join(build.dist, file)) ? gzipSync(readFileSync(join(build.dist, file)), { level: 9 }).length : 0);
  const staticGzip = build.chunks.filter((chunk) => before.includes(chunk.file)).reduce((sum, chunk) => sum + chunk.gzip, 0);
  const lazyGzip = lazy.reduce((sum, file) => sum + gzipOf(file), 0);
  console.log(`  ${label}:`);
  console.log(
    `    the static list: ${notFetched.length === 0 ? `all ${expected.length} files fetched` : `NOT fetched: ${notFetched.join(", ")}`} (${kb(staticGzip)} KB gzip)` +
      `; lazy imports also started before the frame: ${lazy.length === 0 ? "none" : `${lazy.map((file) => file.replace(/^assets\//, "")).join(", ")} (${kb(lazyGzip)} KB gzip)`}`,
  );
  if (seen.after.length > 0) console.log(`    after it, within 1.5 s: ${seen.after.map((f) => f.file.replace(/^assets\//, "")).join(", ")}`);
}

const pier = await startPier(["--demo"]);
const browser = await chromium.launch({
  ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", ...BENCH_CHROMIUM_ARGS],
});
try {
  console.log("\nIn Chromium (real pier --demo), JS requested before the first screen was drawn:");
  const variants = builds.map((build) => ({ build, dist: build.name === "baseline" ? build.dist : null }));
  for (const { build, dist } of variants) {
    printFetched(`${build.name}, start screen (prompt box drawn)`, build, await jsUntilDrawn(browser, pier, dist, 'textarea[aria-label="Prompt"]'));
  }

  // A conversation to reload: the demo model answers "hello".
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await openPier(context, pier, null);
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await page.getByRole("heading", { name: "What should pi work on?" }).waitFor();
  await prompt.fill("hello");
  await prompt.press("Enter");
  await page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "pi" }).locator(".md-tail, .md-run").first().waitFor();
  await context.close();

  for (const { build, dist } of variants) {
    // The answer drawn by the Markdown renderer (its blocks), not only as text.
    printFetched(`${build.name}, reload with a conversation (answer drawn as Markdown)`, build, await jsUntilDrawn(browser, pier, dist, 'article[aria-label="pi"] :is(.md-tail, .md-run)'));
  }
} finally {
  await browser.close();
  await pier.stop();
}
