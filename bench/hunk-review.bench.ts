// The hunk review at size (issue #34, "Measured"): a 5,000-line file changed
// in 200 places, its Hunks view open in real Chromium against a real pier
// (relay, pi, git). Stages one hunk at a time from the page and prints, for
// each, the time from the click until the page shows one hunk less, and the
// longest main-thread task meanwhile (PerformanceObserver "longtask": only
// tasks over 50 ms are reported, so 0 means none was); then checks the index
// against `git diff --cached`: exactly the hunks staged, nothing else. A
// Chromium trace gives each task's CPU time beside its wall time.
// Opening the view (200 hunks drawn) is printed too. Asserts nothing.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { chromium, type Page } from "@playwright/test";
import { startPier } from "../relay/test/support/pier-process.ts";
import { projectDir } from "../e2e/support/project-dir.ts";
import { mainThreadTasks } from "./support/main-thread-tasks.ts";
import { BENCH_CHROMIUM_ARGS, baselineDistFromEnv, openPier } from "./support/pier-page.ts";

const LINES = 5000;
const HUNKS = 200;
/** Which hunks are staged, one per round (indexes into the hunks shown at the start). */
const PICKS = [100, 20, 180, 60, 140];

const original = Array.from({ length: LINES }, (_, i) => `const value${i + 1} = compute(${i + 1}); // line ${i + 1}\n`);
const changedAt = Array.from({ length: HUNKS }, (_, k) => k * (LINES / HUNKS) + 12);
const changed = original.map((line, i) => (changedAt.includes(i) ? line.replace("compute(", "computeAgain(") : line));

const pier = await startPier(["--demo"]);
const browser = await chromium.launch({
  ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", ...BENCH_CHROMIUM_ARGS],
});
try {
  const dir = await projectDir(pier);
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: dir,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "b@example.invalid", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "b@example.invalid", GIT_CONFIG_NOSYSTEM: "1" },
    });
  await writeFile(join(dir, "big.ts"), original.join(""));
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "initial");
  await writeFile(join(dir, "big.ts"), changed.join(""));

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // PIER_BENCH_BASELINE_DIST: the page from another build of web/ (pier-page.ts).
  const page = await openPier(context, pier, baselineDistFromEnv());
  await page.getByRole("status", { name: "Connection: Connected" }).waitFor();
  const explorer = page.getByRole("navigation", { name: "Explorer" });
  if (!(await explorer.isVisible())) await page.getByRole("button", { name: "Explorer" }).first().click();
  await page.getByRole("tab", { name: /Changes/ }).click();
  await page
    .getByRole("list", { name: "Changed files" })
    .getByRole("button", { name: /big\.ts/ })
    .click();
  // The tab opens side by side: Monaco is loaded first (else its code is evaluated in the first stage's tasks, as a person switching at once would see).
  await page.locator(".monaco-diff-editor").waitFor({ timeout: 60_000 });

  await watchLongTasks(page);
  const openStart = await now(page);
  await page.getByRole("button", { name: "Hunks", exact: true }).click();
  await page.waitForFunction((n) => document.querySelectorAll("section.hunk").length === n, HUNKS, { polling: "raf", timeout: 60_000 });
  const openMs = (await now(page)) - openStart;
  const openLongest = await longestTask(page);

  console.log(`Hunk review: ${LINES.toLocaleString("en-US")}-line file, ${HUNKS} hunks, real Chromium + pier + git`);
  console.log(`open the Hunks view (${HUNKS} hunks drawn):`.padEnd(52) + `${openMs.toFixed(0).padStart(6)} ms, longest task ${openLongest.toFixed(0)} ms`);

  const staged: number[] = [];
  let worstTask = 0;
  let worstCpu = 0;
  for (const [round, pick] of PICKS.entries()) {
    // The pick-th of the hunks shown at the start, by its button's name (its lines: 3 of context each side of the changed one).
    // A CSS selector, not a text or role query: Playwright runs those in the page, and over 200 hunks they were the longest task.
    const line = changedAt[pick]! + 1;
    const button = page.locator(`button[aria-label="Stage hunk (Lines ${line - 3}–${line + 3})"]`);
    await watchLongTasks(page);
    await browser.startTracing(page, { categories: ["toplevel", "__metadata"] });
    const start = await now(page);
    await button.click();
    await page.waitForFunction((n) => document.querySelectorAll("section.hunk").length === n, HUNKS - round - 1, { polling: "raf", timeout: 60_000 });
    const ms = (await now(page)) - start;
    const longest = await longestTask(page);
    const tasks = mainThreadTasks(await browser.stopTracing());
    const cpu = Math.max(0, ...tasks.map((task) => task.cpu));
    worstTask = Math.max(worstTask, longest);
    worstCpu = Math.max(worstCpu, cpu);
    staged.push(line);
    console.log(
      `stage hunk at line ${line} (click → list shows it gone):`.padEnd(52) + `${ms.toFixed(0).padStart(6)} ms, longest task ${longest.toFixed(0)} ms (its own CPU: longest ${cpu.toFixed(0)} ms)`,
    );
  }

  const cached = git("diff", "--cached", "--no-color", "-U0", "--", "big.ts");
  const removed = [...cached.matchAll(/^-const value(\d+) = compute\(\1\);/gm)].map((m) => Number(m[1]));
  const added = [...cached.matchAll(/^\+const value(\d+) = computeAgain\(\1\);/gm)].map((m) => Number(m[1]));
  const expected = [...staged].sort((a, b) => a - b);
  const right = JSON.stringify(removed) === JSON.stringify(expected) && JSON.stringify(added) === JSON.stringify(expected) && (cached.match(/^@@/gm) ?? []).length === staged.length;
  console.log(`index against git diff --cached: ${right ? "exactly the staged hunks" : `WRONG: staged ${JSON.stringify(expected)}, index has -${JSON.stringify(removed)} +${JSON.stringify(added)}`}`);
  console.log(`longest main-thread task while staging: ${worstTask.toFixed(0)} ms wall (issue #34 asks for ≤ 50 ms; 0 = no task over 50 ms), ${worstCpu.toFixed(0)} ms of the page's own CPU`);
  console.log(`(wall time counts waiting for a core: on a machine shared with pier, pi, git and other work, the CPU time is the page's own cost)`);
  await context.close();
} finally {
  await browser.close();
  await pier.stop();
}

async function now(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}

/** Starts (again) recording the longest task from now on. */
async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __longest: number; __observer?: PerformanceObserver };
    w.__observer?.disconnect();
    w.__longest = 0;
    w.__observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longest = Math.max(w.__longest, entry.duration);
    });
    w.__observer.observe({ type: "longtask" });
  });
}

async function longestTask(page: Page): Promise<number> {
  // One more frame, so a task that just ended is reported.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
  return page.evaluate(() => (window as unknown as { __longest: number }).__longest);
}
