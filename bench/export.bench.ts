// An exported page (`pier export`, issue #36 item 1) beside `pier replay` on
// the same 100,000-record capture, side by side in one run: how long from
// navigation until the player is ready ("record 0 of N") and until the first
// record is shown (Next record pressed as soon as it can be, until the page
// says "record 1 of N" and is no longer catching up), until the whole file
// is read (a large capture opens on its first slice and is read on after,
// replay/capture-progress.ts: the page stops saying "reading the file"), and
// then how long a jump to the end takes (applying every record). The exported page is opened from disk
// (file://), `pier replay` over loopback. Also the page's size ÷ the
// capture's. Real Chromium; medians of alternating runs. Prints figures;
// asserts nothing (target: first record within 1.5× of pier replay).
import { existsSync } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "@playwright/test";
import { exportCapture } from "../relay/src/export/export-main.ts";
import { parseExportOptions } from "../relay/src/export/export-options.ts";
import { startPierReplay } from "../relay/test/support/pier-process.ts";
import { BENCH_CHROMIUM_ARGS } from "./support/pier-page.ts";
import { streamedCapture } from "./support/streamed-capture.ts";

const RUNS = Number(process.env.PIER_BENCH_EXPORT_RUNS ?? 3);
const PROMPTS = 20;
const DELTAS_PER_ANSWER = 5000;
const DIST = new URL("../web/dist/", import.meta.url).pathname;
if (!existsSync(join(DIST, "export", "player.js"))) {
  console.log("web/dist/export is not built: run `pnpm build` first. Skipping.");
  process.exit(0);
}

interface Timing {
  /** ms from navigation start. */
  ready: number;
  first: number;
  /** The whole file read. */
  read: number;
  /** ms from the jump to the end shown. */
  toEnd: number;
}

/** In the page: wait for the player, step once, wait until record 1 is shown; then jump to the end. Times from navigation start. */
async function measure(page: Page, count: number): Promise<Timing> {
  return page.evaluate(
    (n) =>
      new Promise<Timing>((resolve) => {
        const status = () => document.querySelector('[aria-label="Replay position"]')?.textContent ?? "";
        const shown = (i: number) => status().includes(`record ${i.toLocaleString("en")} of`) && !status().includes("catching up");
        let ready = 0;
        let read = 0;
        let first = 0;
        let jumped = 0;
        const frame = () => {
          if (ready > 0 && read === 0 && !status().includes("reading the file")) read = performance.now();
          if (ready === 0 && shown(0)) {
            ready = performance.now();
            document.querySelector<HTMLButtonElement>('button[aria-label="Next record"]')!.click();
          } else if (ready > 0 && first === 0 && shown(1)) {
            first = performance.now();
          } else if (first > 0 && read > 0 && jumped === 0) {
            const slider = document.querySelector<HTMLInputElement>('input[aria-label="Position"]')!;
            jumped = performance.now();
            slider.value = String(n);
            slider.dispatchEvent(new Event("input", { bubbles: true }));
          } else if (jumped > 0 && shown(n)) {
            return resolve({ ready, first, read, toEnd: performance.now() - jumped });
          }
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    count,
  );
}

async function openExported(browser: Browser, file: string, count: number): Promise<Timing> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(pathToFileURL(file).href, { waitUntil: "commit" });
  const timing = await measure(page, count);
  await context.close();
  return timing;
}

async function openServed(browser: Browser, pier: Awaited<ReturnType<typeof startPierReplay>>, count: number): Promise<Timing> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const at = pier.cookie.indexOf("=");
  await context.addCookies([{ name: pier.cookie.slice(0, at), value: pier.cookie.slice(at + 1), url: pier.origin, httpOnly: true, sameSite: "Strict" }]);
  const page = await context.newPage();
  await page.goto(`${pier.origin}/?replay`, { waitUntil: "commit" });
  const timing = await measure(page, count);
  await context.close();
  return timing;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dir = await mkdtemp(join(tmpdir(), "pier-export-bench-"));
const capture = join(dir, "big.jsonl");
const html = join(dir, "big.html");
const { text, events } = streamedCapture({ prompts: PROMPTS, deltasPerAnswer: DELTAS_PER_ANSWER, by: "bench" });
await writeFile(capture, text);
const exportStarted = performance.now();
const exported = await exportCapture(parseExportOptions([capture, "-o", html, "--force"], dir), DIST, () => {});
if (!exported.ok) throw new Error(exported.message);
const exportMs = performance.now() - exportStarted;
const captureSize = (await stat(capture)).size;
const pageSize = (await stat(html)).size;
console.log(`capture: ${events.toLocaleString("en")} events, ${(captureSize / 1e6).toFixed(1)} MB; pier export took ${Math.round(exportMs)} ms`);
console.log(`page size ÷ capture size: ${(pageSize / captureSize).toFixed(2)}× (${(pageSize / 1e6).toFixed(1)} MB; the player alone: ${((pageSize - captureSize) / 1e6).toFixed(1)} MB)`);

const browser = await chromium.launch({
  ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", ...BENCH_CHROMIUM_ARGS],
});
const pier = await startPierReplay(capture);
const served: Timing[] = [];
const fromDisk: Timing[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    served.push(await openServed(browser, pier, events));
    fromDisk.push(await openExported(browser, html, events));
  }
} finally {
  await pier.stop();
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
const row = (name: string, pick: (t: Timing) => number) => {
  const a = median(served.map(pick));
  const b = median(fromDisk.map(pick));
  console.log(`${name.padEnd(38)}${String(Math.round(a)).padEnd(16)}${String(Math.round(b)).padEnd(18)}${(b / a).toFixed(2)}×`);
};
console.log(`\nmedians of ${RUNS} runs (ms)                 pier replay     exported page     page ÷ replay`);
row("player ready (record 0 shown)", (t) => t.ready);
row("first record shown (target ≤ 1.5×)", (t) => t.first);
row("whole file read", (t) => t.read);
row("jump to the end shown (once read)", (t) => t.toEnd);
