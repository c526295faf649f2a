// Opening a long session in the browser: a 5,000-message session against a
// 500-message one, side by side in one run, in real Chromium against the
// real pier + pi (a fresh pier per page; pi loads a generated session file with `--session`, the
// same generator as e2e/specs/long-session.spec.ts). For each: time from
// navigation until the last message is on screen, and until the page is idle
// after that; of that time, how long pi took to answer the page's session
// load (`get_entries`, or `get_messages` when the entries cannot say: from
// the request leaving the page to the last byte of the answer arriving), and
// the rest, which is the page's own work; DOM nodes and transcript articles
// in the document; JS heap after a garbage collection; and the time per
// frame while scrolling up through the transcript. With a virtualized
// transcript the DOM and scrolling should barely grow with the session.
//
// `PIER_BENCH_BASELINE_DIST=<dir>` (a `vite build --outDir <dir>` of another
// version of web/) measures that build of the page as well, side by side
// (bench/support/pier-page.ts). Prints medians and ratios; asserts nothing.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { chromium } from "@playwright/test";
import { startPier } from "../relay/test/support/pier-process.ts";
import { writeLongSession, type LongSession } from "../e2e/support/long-session.ts";
import { BENCH_CHROMIUM_ARGS, baselineDistFromEnv, openPier } from "./support/pier-page.ts";

const SIZES = [500, 5000] as const;
const ROUNDS = 5;
const SCROLL_FRAMES = 90;

if (!existsSync(new URL("../web/dist/index.html", import.meta.url))) {
  console.log("web/dist is not built: run `pnpm --filter @pier/web build` first. Skipping.");
  process.exit(0);
}

type Sample = {
  visibleMs: number;
  loadAnswerMs: number;
  pageMs: number;
  idleMs: number;
  domNodes: number;
  articles: number;
  heapMB: number;
  scrollFrameMs: number;
};
type Variant = { name: string; dist: string | null };
const baselineDist = baselineDistFromEnv();
const variants: Variant[] = baselineDist
  ? [
      { name: "baseline", dist: baselineDist },
      { name: "web/dist", dist: null },
    ]
  : [{ name: "web/dist", dist: null }];

/**
 * Runs in the page before its own scripts: notes when a session-load request
 * (get_entries without `since`, get_messages) leaves and when the last byte
 * of its answer (the end of the record with its id) arrives.
 */
function watchSessionLoad(): void {
  const sent = new Map<string, number>();
  const answered: number[] = [];
  (window as unknown as { __load: { answered: number[]; waiting: () => number } }).__load = { answered, waiting: () => sent.size };
  const Native = WebSocket;
  class Watched extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      const decoder = new TextDecoder();
      let carry = "";
      /** Ids whose answer has begun but not yet ended. */
      const open = new Set<string>();
      this.addEventListener("message", (event: MessageEvent) => {
        if (!(event.data instanceof ArrayBuffer)) return;
        const text = decoder.decode(event.data, { stream: true });
        if (sent.size === 0) return;
        const seen = carry + text;
        for (const [id, at] of sent) {
          const begins = open.has(id) ? carry.length : seen.indexOf(`"id":"${id}"`);
          if (begins === -1) continue;
          open.add(id);
          if (seen.indexOf("\n", begins) === -1) continue;
          answered.push(performance.now() - at);
          sent.delete(id);
          open.delete(id);
        }
        carry = seen.slice(-200);
      });
    }
    override send(data: Parameters<WebSocket["send"]>[0]): void {
      if (typeof data === "string") {
        const command = JSON.parse(data) as { id?: string; type?: string; since?: unknown };
        const load = (command.type === "get_entries" && command.since === undefined) || command.type === "get_messages";
        if (load && typeof command.id === "string") sent.set(command.id, performance.now());
      }
      super.send(data);
    }
  }
  window.WebSocket = Watched;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const sessions = new Map<number, LongSession>();
const browser = await chromium.launch({
  ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", ...BENCH_CHROMIUM_ARGS],
});

async function measure(size: number, variant: Variant): Promise<Sample> {
  const session = sessions.get(size)!;
  // A pier of its own for each page: a pier that served earlier pages would
  // replay their (megabyte-long) answers to this one.
  const pier = await startPier(["--demo", "--", "--session", session.file]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(watchSessionLoad);
  const page = await openPier(context, pier, variant.dist);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  try {
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
    const loadAnswerMs = await page.evaluate(() => (window as any).__load.answered.reduce((a: number, b: number) => a + b, 0) as number);
    const idleMs = await page.evaluate(() => new Promise<number>((resolve) => requestIdleCallback(() => resolve(performance.now()), { timeout: 5000 })));
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
    return { visibleMs, loadAnswerMs, pageMs: visibleMs - loadAnswerMs, idleMs, ...counts, heapMB: heap / (1024 * 1024), scrollFrameMs };
  } finally {
    await context.close();
    await pier.stop();
  }
}

try {
  for (const size of SIZES) sessions.set(size, await writeLongSession(size));
  // Warm-up (caches, JIT, pi's first answers), then rounds that alternate sizes and builds.
  for (const size of SIZES) for (const variant of variants) await measure(size, variant);
  const samples = new Map<string, Sample[]>();
  const key = (size: number, variant: Variant) => `${variant.name}:${size}`;
  for (let round = 0; round < ROUNDS; round++) {
    for (const size of SIZES) {
      for (const variant of variants) {
        const list = samples.get(key(size, variant)) ?? samples.set(key(size, variant), []).get(key(size, variant))!;
        list.push(await measure(size, variant));
      }
    }
  }

  const rows: [string, keyof Sample, number][] = [
    ["last message visible (ms)", "visibleMs", 0],
    ["  of which pi answering the load (ms)", "loadAnswerMs", 0],
    ["  of which the page (ms)", "pageMs", 0],
    ["page idle after it (ms)", "idleMs", 0],
    ["DOM elements", "domNodes", 0],
    ["articles in the DOM", "articles", 0],
    ["JS heap after GC (MB)", "heapMB", 1],
    ["scroll frame, 400 px/frame (ms)", "scrollFrameMs", 1],
  ];
  const [small, large] = SIZES;
  console.log(`Opening a session in Chromium, median of ${ROUNDS} rounds (1280×800, pier + pi --session):`);
  for (const variant of variants) {
    if (variants.length > 1) console.log(`${variant.name}${variant.dist ? ` (${variant.dist})` : ""}:`);
    console.log(`${"".padEnd(38)}${`${small} msgs`.padStart(12)}${`${large} msgs`.padStart(12)}${"ratio".padStart(9)}`);
    for (const [label, field, digits] of rows) {
      const a = median(samples.get(key(small, variant))!.map((s) => s[field]));
      const b = median(samples.get(key(large, variant))!.map((s) => s[field]));
      console.log(`${label.padEnd(38)}${a.toFixed(digits).padStart(12)}${b.toFixed(digits).padStart(12)}${(b / a).toFixed(2).padStart(8)}×`);
    }
  }
  console.log(`(${large / small}× the messages; "the page" is the load time without pi's answer to the session load.)`);
} finally {
  await browser.close();
  for (const session of sessions.values()) await rm(session.dir, { recursive: true, force: true });
}
