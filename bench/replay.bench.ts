// Scrubbing a 100,000-record capture: how long until the page shows the
// chosen moment, and whether it stays responsive meanwhile. Real
// `pier replay`, real Chromium; the capture is written here with Pier's own
// CaptureWriter: 20 prompts, each answered in 5,000 streamed text deltas,
// one record per chunk as pi writes them while streaming.
//
// For each move of the Position slider (to the end: 100k records forward;
// back to the middle: a reset and 50k records again; to the end again:
// 50k forward), it measures in the page the time from the input event to
// the first frame where the player no longer says "catching up…", and from
// a Chromium trace the longest main-thread task (and the most CPU time one
// task used: on a busy machine a task's wall time also counts waiting for a
// core) and from a requestAnimationFrame loop the longest gap between
// frames in that time.
// Optionally with the inspector open (PIER_BENCH_REPLAY_INSPECTOR=1, the
// default runs both). Prints figures; asserts nothing.
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "@playwright/test";
import { startPierReplay } from "../relay/test/support/pier-process.ts";
import { mainThreadTasks } from "./support/main-thread-tasks.ts";
import { BENCH_CHROMIUM_ARGS } from "./support/pier-page.ts";
import { streamedCapture } from "./support/streamed-capture.ts";

const PROMPTS = 20;
const DELTAS_PER_ANSWER = 5000;
const DIST = new URL("../web/dist/", import.meta.url).pathname;
if (!existsSync(join(DIST, "index.html"))) {
  console.log("web/dist is not built: run `pnpm --filter @pier/web build` first. Skipping.");
  process.exit(0);
}

interface Move {
  name: string;
  shownMs: number;
  longestTaskMs: number;
  longestTaskCpuMs: number;
  maxFrameGapMs: number;
}

/** Move the slider to `position`; resolves when the page shows it, with the in-page figures. */
async function seekAndWait(page: Page, position: number): Promise<{ shownMs: number; maxFrameGapMs: number }> {
  return page.evaluate(
    (to) =>
      new Promise<{ shownMs: number; maxFrameGapMs: number }>((resolve) => {
        const slider = document.querySelector<HTMLInputElement>('input[aria-label="Position"]')!;
        const status = document.querySelector('[aria-label="Replay position"]')!;
        const started = performance.now();
        let last = started;
        let maxGap = 0;
        slider.value = String(to);
        slider.dispatchEvent(new Event("input", { bubbles: true }));
        const frame = (now: number) => {
          maxGap = Math.max(maxGap, now - last);
          last = now;
          const text = status.textContent ?? "";
          if (!text.includes("catching up") && text.includes(`record ${to.toLocaleString("en")} of`)) resolve({ shownMs: now - started, maxFrameGapMs: maxGap });
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    position,
  );
}

const dir = await mkdtemp(join(tmpdir(), "pier-replay-bench-"));
const file = join(dir, "big.jsonl");
const built = performance.now();
const { text, events } = streamedCapture({ prompts: PROMPTS, deltasPerAnswer: DELTAS_PER_ANSWER, by: "bench" });
await writeFile(file, text);
console.log(`capture: ${events.toLocaleString("en")} events, ${(text.length / 1024 / 1024).toFixed(1)} MB (written in ${Math.round(performance.now() - built)} ms)`);

const browser = await chromium.launch({
  ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", ...BENCH_CHROMIUM_ARGS],
});
const pier = await startPierReplay(file);
const variants = process.env.PIER_BENCH_REPLAY_INSPECTOR === "1" ? [true] : process.env.PIER_BENCH_REPLAY_INSPECTOR === "0" ? [false] : [false, true];
try {
  for (const withInspector of variants) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Signed in with pier's cookie (no link to spend), at the address its link leads to.
    const at = pier.cookie.indexOf("=");
    await context.addCookies([{ name: pier.cookie.slice(0, at), value: pier.cookie.slice(at + 1), url: pier.origin, httpOnly: true, sameSite: "Strict" }]);
    const page = await context.newPage();
    await page.goto(`${pier.origin}/?replay`);
    const opened = performance.now();
    await page.getByRole("slider", { name: "Position" }).waitFor({ timeout: 60_000 });
    console.log(`\n${withInspector ? "inspector open" : "inspector closed"}: player ready ${Math.round(performance.now() - opened)} ms after navigation`);
    if (withInspector) {
      await page.getByRole("button", { name: "Protocol inspector" }).click();
      await page.getByRole("complementary", { name: "Protocol inspector" }).waitFor();
    }
    const moves: Move[] = [];
    for (const [name, to] of [
      ["to the end", events],
      ["back to the middle", Math.floor(events / 2)],
      ["to the end again", events],
      ["back to the start", 0],
    ] as const) {
      await browser.startTracing(page, { categories: ["toplevel", "__metadata"] });
      const { shownMs, maxFrameGapMs } = await seekAndWait(page, to);
      const tasks = mainThreadTasks(await browser.stopTracing());
      moves.push({ name, shownMs, longestTaskMs: Math.max(0, ...tasks.map((t) => t.wall)), longestTaskCpuMs: Math.max(0, ...tasks.map((t) => t.cpu)), maxFrameGapMs });
    }
    const pad = (s: string, n: number) => s.padEnd(n);
    console.log(`${pad("move", 22)}${pad("shown after (ms)", 18)}${pad("longest task (ms)", 19)}${pad("most CPU in a task (ms)", 25)}longest frame gap (ms)`);
    for (const m of moves) {
      console.log(`${pad(m.name, 22)}${pad(String(Math.round(m.shownMs)), 18)}${pad(m.longestTaskMs.toFixed(1), 19)}${pad(m.longestTaskCpuMs.toFixed(1), 25)}${m.maxFrameGapMs.toFixed(1)}`);
    }
    await context.close();
  }
} finally {
  await pier.stop();
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
