// Opening a long session in the browser: a 5,000-message session against a
// 500-message one, side by side in one run, in real Chromium against the
// real pier + pi (pi loads a generated session file with `--session`, the
// same generator as e2e/specs/long-session.spec.ts). For each: time from
// navigation until the last message is on screen, and until the page is idle
// after that; DOM nodes and transcript articles in the document; JS heap
// after a garbage collection; and the time per frame while scrolling up
// through the transcript. With a virtualized transcript the DOM and scrolling
// should barely grow with the session. Prints medians and ratios; asserts nothing.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { startPier, type RunningPier } from "../relay/test/support/pier-process.ts";
import { writeLongSession, type LongSession } from "../e2e/support/long-session.ts";

const require = createRequire(new URL("../e2e/package.json", import.meta.url));
const { chromium } = require("@playwright/test") as typeof import("@playwright/test");

const SIZES = [500, 5000] as const;
const ROUNDS = 5;
const SCROLL_FRAMES = 90;

if (!existsSync(new URL("../web/dist/index.html", import.meta.url))) {
  console.log("web/dist is not built: run `pnpm --filter @pier/web build` first. Skipping.");
  process.exit(0);
}

type Sample = { visibleMs: number; idleMs: number; domNodes: number; articles: number; heapMB: number; scrollFrameMs: number };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const sessions = new Map<number, LongSession>();
const piers = new Map<number, RunningPier>();
const browser = await chromium.launch({
  ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});

async function measure(size: number): Promise<Sample> {
  const pier = piers.get(size)!;
  const session = sessions.get(size)!;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  try {
    await page.goto(await pier.freshUrl());
    const expected = session.lastAssistantText;
    // Polled every animation frame: the first frame in which the last answer is on screen.
    await page.waitForFunction(
      (text) => {
        const articles = document.querySelectorAll('[role="log"] article[aria-label="pi"]');
        const last = articles[articles.length - 1];
        if (!last || !last.textContent?.includes(text)) return false;
        const box = last.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight;
      },
      expected,
      { polling: "raf", timeout: 120_000 },
    );
    const visibleMs = await page.evaluate(() => performance.now());
    const idleMs = await page.evaluate(
      () => new Promise<number>((resolve) => requestIdleCallback(() => resolve(performance.now()), { timeout: 5000 })),
    );
    const counts = await page.evaluate(() => ({
      domNodes: document.getElementsByTagName("*").length,
      articles: document.querySelectorAll('[role="log"] article').length,
    }));
    await cdp.send("HeapProfiler.collectGarbage");
    const { metrics } = await cdp.send("Performance.getMetrics");
    const heap = metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0;
    // Scroll up one step per frame, as a fast wheel would, and time the frames.
    const scrollFrameMs = await page.evaluate(async (frames) => {
      const scroller = document.querySelector('[role="log"]')!.parentElement!;
      const start = performance.now();
      for (let i = 0; i < frames; i++) {
        scroller.dispatchEvent(new WheelEvent("wheel", { deltaY: -400, bubbles: true }));
        scroller.scrollTop -= 400;
        await new Promise((r) => requestAnimationFrame(r));
      }
      return (performance.now() - start) / frames;
    }, SCROLL_FRAMES);
    return { visibleMs, idleMs, ...counts, heapMB: heap / (1024 * 1024), scrollFrameMs };
  } finally {
    await context.close();
  }
}

try {
  for (const size of SIZES) {
    const session = await writeLongSession(size);
    sessions.set(size, session);
    piers.set(size, await startPier(["--demo", "--", "--session", session.file]));
  }
  // Warm-up (caches, JIT, pi's first get_messages), then rounds that alternate sizes.
  for (const size of SIZES) await measure(size);
  const samples = new Map<number, Sample[]>(SIZES.map((s) => [s, []]));
  for (let round = 0; round < ROUNDS; round++) for (const size of SIZES) samples.get(size)!.push(await measure(size));

  const rows: [string, keyof Sample, number][] = [
    ["last message visible (ms)", "visibleMs", 0],
    ["page idle after it (ms)", "idleMs", 0],
    ["DOM elements", "domNodes", 0],
    ["articles in the DOM", "articles", 0],
    ["JS heap after GC (MB)", "heapMB", 1],
    ["scroll frame, 400 px/frame (ms)", "scrollFrameMs", 1],
  ];
  const [small, large] = SIZES;
  console.log(`Opening a session in Chromium, median of ${ROUNDS} rounds (1280×800, pier + pi --session):`);
  console.log(`${"".padEnd(34)}${`${small} msgs`.padStart(12)}${`${large} msgs`.padStart(12)}${"ratio".padStart(9)}`);
  for (const [label, key, digits] of rows) {
    const a = median(samples.get(small)!.map((s) => s[key]));
    const b = median(samples.get(large)!.map((s) => s[key]));
    console.log(`${label.padEnd(34)}${a.toFixed(digits).padStart(12)}${b.toFixed(digits).padStart(12)}${(b / a).toFixed(2).padStart(8)}×`);
  }
  console.log(`(${large / small}× the messages; the load time includes pi answering get_messages and the relay carrying it.)`);
} finally {
  await browser.close();
  for (const pier of piers.values()) await pier.stop();
  for (const session of sessions.values()) await rm(session.dir, { recursive: true, force: true });
}
