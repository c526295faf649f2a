// Sessions at scale, side by side in one run:
// 1. The relay's session list (SessionCatalog) for 200 and 2,000 session
//    files: the first page and a search, cold (a new catalog) and warm.
// 2. The session tree in real Chromium (real pier + pi on a generated
//    session, opened with pi's --session) for 500 and 5,000 entries: time
//    from the click on the tree tab until the current entry is on screen,
//    the longest main-thread task meanwhile, and the time per ArrowDown.
// Prints medians and ratios; asserts nothing.
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { SessionCatalog } from "../relay/src/sessions/session-catalog.ts";
import { startPier, type RunningPier } from "../relay/test/support/pier-process.ts";
import { longSessionJsonl } from "../e2e/support/long-session.ts";

const ROUNDS = 5;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const row = (label: string, a: number, b: number, digits = 1) => console.log(`${label.padEnd(40)}${a.toFixed(digits).padStart(10)}${b.toFixed(digits).padStart(10)}${(b / a).toFixed(2).padStart(8)}×`);

// ── 1. the list ───────────────────────────────────────────────────────────

async function writeSessionFolder(count: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pier-bench-sessions-"));
  const cwd = "/bench/workspace";
  // 20 messages each (about 12 KiB), a few named, modification times spread out.
  const body = longSessionJsonl(20, cwd);
  for (let i = 0; i < count; i++) {
    const named = i % 10 === 0 ? `${JSON.stringify({ type: "session_info", id: `n${i}`, parentId: null, timestamp: new Date().toISOString(), name: `Named session ${i}` })}\n` : "";
    await writeFile(join(dir, `2026-01-01T00-00-00-${String(i).padStart(4, "0")}Z_${i}.jsonl`), body + named);
  }
  return dir;
}

async function timeList(dir: string): Promise<{ coldPage: number; warmPage: number; coldSearch: number; preparedSearch: number; warmSearch: number }> {
  const make = () => new SessionCatalog({ dir, cwd: "/bench/workspace", filterCwd: false, persisted: true, log: () => {} });
  const time = async (run: () => Promise<unknown>) => {
    const start = performance.now();
    await run();
    return performance.now() - start;
  };
  const pageCatalog = make();
  const coldPage = await time(() => pageCatalog.list({ offset: 0, limit: 50 }));
  const warmPage = await time(() => pageCatalog.list({ offset: 0, limit: 50 }));
  const searchCatalog = make();
  const coldSearch = await time(() => searchCatalog.list({ offset: 0, limit: 50, query: "named session 1" }));
  const warmSearch = await time(() => searchCatalog.list({ offset: 0, limit: 50, query: "question 7" }));
  // What the relay does: once the list was shown, summaries are read ahead in the background.
  await pageCatalog.prepareSearch();
  const preparedSearch = await time(() => pageCatalog.list({ offset: 0, limit: 50, query: "named session 1" }));
  return { coldPage, warmPage, coldSearch, preparedSearch, warmSearch };
}

const LIST_SIZES = [200, 2000] as const;
const folders = new Map<number, string>();
try {
  for (const size of LIST_SIZES) folders.set(size, await writeSessionFolder(size));
  const samples = new Map<number, Awaited<ReturnType<typeof timeList>>[]>(LIST_SIZES.map((s) => [s, []]));
  await timeList(folders.get(LIST_SIZES[0])!); // warm-up (JIT, page cache)
  for (let round = 0; round < ROUNDS; round++) for (const size of LIST_SIZES) samples.get(size)!.push(await timeList(folders.get(size)!));
  console.log(`Session list (SessionCatalog, files of ~12 KiB, median of ${ROUNDS}; "cold" = a new catalog, OS cache warm):`);
  console.log(`${"".padEnd(40)}${`${LIST_SIZES[0]} files`.padStart(10)}${`${LIST_SIZES[1]} files`.padStart(10)}${"ratio".padStart(9)}`);
  for (const key of ["coldPage", "warmPage", "coldSearch", "preparedSearch", "warmSearch"] as const) {
    const label = {
      coldPage: "first page of 50, cold (ms)",
      warmPage: "first page of 50, warm (ms)",
      coldSearch: "search, cold (ms)",
      preparedSearch: "search after the list was shown (ms)",
      warmSearch: "search, warm (ms)",
    }[key];
    row(label, median(samples.get(LIST_SIZES[0])!.map((s) => s[key])), median(samples.get(LIST_SIZES[1])!.map((s) => s[key])));
  }
} finally {
  for (const dir of folders.values()) await rm(dir, { recursive: true, force: true });
}

// ── 2. the tree in the browser ───────────────────────────────────────────

if (!existsSync(new URL("../web/dist/index.html", import.meta.url))) {
  console.log("\nweb/dist is not built: run `pnpm build` first. Skipping the tree in Chromium.");
  process.exit(0);
}

/** A session of `entries` message entries with a second branch from its middle and a label. */
async function writeBranchedSession(entries: number): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), "pier-bench-tree-"));
  const lines = longSessionJsonl(entries - 12, dir)
    .trimEnd()
    .split("\n");
  const middle = (JSON.parse(lines[Math.floor(lines.length / 2)]!) as { id: string }).id;
  let parentId = middle;
  const at = Date.parse("2026-02-01T00:00:00.000Z");
  for (let i = 0; i < 10; i++) {
    const id = `b${String(i).padStart(7, "0")}`;
    const message =
      i % 2 === 0
        ? { role: "user", content: `Another way, step ${i}`, timestamp: at + i }
        : {
            role: "assistant",
            content: [{ type: "text", text: `Branch answer ${i}` }],
            api: "openai-completions",
            provider: "pier-demo",
            model: "pier-demo-model",
            stopReason: "stop",
            timestamp: at + i,
            usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
          };
    lines.push(JSON.stringify({ type: "message", id, parentId, timestamp: new Date(at + i).toISOString(), message }));
    parentId = id;
  }
  lines.push(JSON.stringify({ type: "label", id: "l0000001", parentId, timestamp: new Date(at + 20).toISOString(), targetId: middle, label: "checkpoint" }));
  const file = join(dir, "branched.jsonl");
  await writeFile(file, `${lines.join("\n")}\n`);
  return { dir, file };
}

type TreeSample = { openMs: number; longestTaskMs: number; arrowMs: number };

const browser = await chromium.launch({
  ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});

async function measureTree(pier: RunningPier): Promise<TreeSample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  try {
    await page.goto(await pier.freshUrl());
    await page.getByRole("status", { name: "Agent: Idle" }).waitFor();
    await page.getByRole("log", { name: "Conversation" }).getByRole("article").first().waitFor();
    await page.getByRole("button", { name: "Sessions", exact: true }).click();
    await page.getByRole("dialog", { name: "Sessions" }).waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { __longest: number };
      w.__longest = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__longest = Math.max(w.__longest, entry.duration);
      }).observe({ type: "longtask" });
    });
    const start = await page.evaluate(() => performance.now());
    await page.getByRole("tab", { name: "This session's tree" }).click();
    await page.waitForFunction(
      () => {
        const current = document.querySelector('[role="tree"] [aria-current="true"]');
        if (!current) return false;
        const box = current.getBoundingClientRect();
        return box.height > 0 && box.bottom > 0 && box.top < innerHeight;
      },
      undefined,
      { polling: "raf", timeout: 120_000 },
    );
    const openMs = (await page.evaluate(() => performance.now())) - start;
    await page.locator('[role="tree"] [aria-current="true"]').click();
    const arrowStart = await page.evaluate(() => performance.now());
    for (let i = 0; i < 50; i++) await page.keyboard.press("ArrowUp");
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    const arrowMs = ((await page.evaluate(() => performance.now())) - arrowStart) / 50;
    const longestTaskMs = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
    return { openMs, longestTaskMs, arrowMs };
  } finally {
    await context.close();
  }
}

const TREE_SIZES = [500, 5000] as const;
const piers = new Map<number, RunningPier>();
const sessionDirs: string[] = [];
try {
  for (const size of TREE_SIZES) {
    const session = await writeBranchedSession(size);
    sessionDirs.push(session.dir);
    piers.set(size, await startPier(["--demo", "--", "--session", session.file]));
  }
  for (const size of TREE_SIZES) await measureTree(piers.get(size)!);
  const samples = new Map<number, TreeSample[]>(TREE_SIZES.map((s) => [s, []]));
  for (let round = 0; round < ROUNDS; round++) for (const size of TREE_SIZES) samples.get(size)!.push(await measureTree(piers.get(size)!));
  console.log(`\nSession tree in Chromium (1280×800, a second branch and a label, median of ${ROUNDS}):`);
  console.log(`${"".padEnd(40)}${`${TREE_SIZES[0]} ent.`.padStart(10)}${`${TREE_SIZES[1]} ent.`.padStart(10)}${"ratio".padStart(9)}`);
  row("tab click → current entry on screen (ms)", median(samples.get(500)!.map((s) => s.openMs)), median(samples.get(5000)!.map((s) => s.openMs)));
  // The Long Tasks API reports only tasks over 50 ms: 0 means none.
  const longest = (size: number) => median(samples.get(size)!.map((s) => s.longestTaskMs));
  console.log(
    `${"longest task over 50 ms meanwhile (ms)".padEnd(40)}${(longest(500) ? longest(500).toFixed(1) : "none").padStart(10)}${(longest(5000) ? longest(5000).toFixed(1) : "none").padStart(10)}`,
  );
  row("per ArrowUp, 50 in a row (ms)", median(samples.get(500)!.map((s) => s.arrowMs)), median(samples.get(5000)!.map((s) => s.arrowMs)));
  console.log("(the tree is built from the entries the page already holds; opening it asks pi only for newer ones)");
} finally {
  await browser.close();
  for (const pier of piers.values()) await pier.stop();
  for (const dir of sessionDirs) await rm(dir, { recursive: true, force: true });
}
