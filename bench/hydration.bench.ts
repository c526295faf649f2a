// Opening a 50,000-message session (issue #35, target 5), side by side with
// its anchor in one run: real pier + pi on a generated session file (pi's
// `--session`, the generator of e2e/support/long-session.ts), real Chromium.
//
// - The anchor: a bare WebSocket client (Node `ws`, pier's cookie) that sends
//   the same `get_entries` the page sends to load a session and times until
//   the whole answer line arrived (its LF). That is pi's own work (or the
//   relay's cache of it) plus the transport.
// - Beside it, the same client in Chromium: a page that does nothing but
//   open pier's socket, send that `get_entries` and wait for the LF, then
//   parse the answer (Blob text, JSON.parse), the least a page in this
//   browser can wait, receiving and parsing.
// - The page: from the moment it sends that `get_entries` (its WebSocket is
//   wrapped, in the bench only) until the last message is on screen in the
//   transcript (a requestAnimationFrame poll: the last answer's article holds
//   its text and is inside the view). Beside it: when the answer's last byte
//   reached the page's JavaScript, and the start-up before the request
//   (navigation → get_entries sent), which does not grow with the session.
// - Main-thread tasks from a Chromium trace (every task, in wall and CPU
//   time) from the request until the page is idle after showing the end.
//
// Also 5,000 messages, for scale. `PIER_BENCH_BASELINE_DIST=<dir>` (a
// `vite build --outDir <dir>` of another version of web/) measures that build
// too, side by side (`PIER_BENCH_DIST=<dir>`: that build in place of web/dist;
// `PIER_BENCH_SIZES`, `PIER_BENCH_ROUNDS`). Prints medians; asserts nothing.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { chromium, type Browser as Chromium } from "@playwright/test";
import { commandId, connectBrowser, startPier, type RunningPier } from "../relay/test/support/pier-process.ts";
import { writeLongSession, type LongSession } from "../e2e/support/long-session.ts";
import { mainThreadTasks, traceMark } from "./support/main-thread-tasks.ts";
import { SECURITY_HEADERS } from "../relay/src/static-files.ts";
import { BENCH_CHROMIUM_ARGS, baselineDistFromEnv } from "./support/pier-page.ts";
import { RELAY_SOCKET_PATH } from "../shared-protocol/src/index.ts";

const SIZES = (process.env.PIER_BENCH_SIZES ?? "5000,50000").split(",").map(Number);
const ROUNDS = Number(process.env.PIER_BENCH_ROUNDS ?? 3);
const LONG_TASK_MS = 50;

if (!existsSync(new URL("../web/dist/index.html", import.meta.url))) {
  console.log("web/dist is not built: run `pnpm --filter @pier/web build` first. Skipping.");
  process.exit(0);
}

type Variant = { name: string; dist: string | null };
const baselineDist = baselineDistFromEnv();
// PIER_BENCH_DIST: this build of the page instead of web/dist (one built elsewhere while web/dist is someone else's).
const ownDist = process.env.PIER_BENCH_DIST || null;
const variants: Variant[] = [...(baselineDist ? [{ name: "baseline", dist: baselineDist }] : []), { name: ownDist === null ? "web/dist" : "this build", dist: ownDist }];

/** The anchor: ms from sending a whole-session get_entries until its answer's LF arrived, and the answer's size. */
async function bareClientLoad(pier: RunningPier): Promise<{ ms: number; bytes: number }> {
  const wire = await connectBrowser(pier, { parseRecords: false });
  try {
    const id = commandId("hydration");
    const head = Buffer.from(`{"id":"${id}"`);
    let started = -1;
    let carry = Buffer.alloc(0);
    let begun = false;
    let bytes = 0;
    const done = new Promise<{ ms: number; bytes: number }>((resolve) => {
      wire.ws.on("message", (data, isBinary) => {
        if (!isBinary || started < 0) return;
        const chunk = data as Buffer;
        if (!begun) {
          // The head may straddle two frames: the last few bytes are kept.
          const seen = Buffer.concat([carry, chunk]);
          const at = seen.indexOf(head);
          if (at === -1) {
            carry = seen.subarray(-200);
            return;
          }
          begun = true;
          const lf = seen.indexOf(0x0a, at);
          bytes = (lf === -1 ? seen.length : lf + 1) - at;
          if (lf !== -1) resolve({ ms: performance.now() - started, bytes });
          return;
        }
        // A line is never cut by another: the LF that follows ends the answer.
        const lf = chunk.indexOf(0x0a);
        bytes += lf === -1 ? chunk.length : lf + 1;
        if (lf !== -1) resolve({ ms: performance.now() - started, bytes });
      });
    });
    started = performance.now();
    wire.send({ type: "get_entries", id });
    return await done;
  } finally {
    await wire.close();
  }
}

/** The anchor in Chromium: a bare page's WebSocket, get_entries sent → the answer's LF received, and → parsed. */
async function barePageLoad(browser: Chromium, pier: RunningPier, round: number): Promise<{ receivedMs: number; parsedMs: number }> {
  const context = await browser.newContext();
  try {
    const at = pier.cookie.indexOf("=");
    await context.addCookies([{ name: pier.cookie.slice(0, at), value: pier.cookie.slice(at + 1), url: pier.origin, httpOnly: true, sameSite: "Strict" }]);
    // A page of pier's origin (its socket checks the Origin) that is not pier's app.
    await context.route(`${pier.origin}/bench-bare-client`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>bare</title>" }));
    const page = await context.newPage();
    await page.goto(`${pier.origin}/bench-bare-client`);
    return await page.evaluate(
      async ([url, id]) => {
        const ws = new WebSocket(url!);
        ws.binaryType = "arraybuffer";
        await new Promise((resolve, reject) => {
          ws.onopen = resolve;
          ws.onclose = (event) => reject(new Error(`socket closed ${event.code} ${event.reason}`));
        });
        const head = `{"id":"${id}"`;
        return await new Promise<{ receivedMs: number; parsedMs: number }>((resolve) => {
          let started = 0;
          let begun = false;
          const parts: ArrayBuffer[] = [];
          ws.onmessage = (event) => {
            if (!(event.data instanceof ArrayBuffer)) return;
            const bytes = new Uint8Array(event.data);
            // The answer is the only line this socket asked for; other lines (pi's events) before it are skipped.
            if (!begun && !new TextDecoder().decode(bytes).includes(head)) return;
            begun = true;
            parts.push(event.data);
            if (bytes.indexOf(0x0a) === -1) return;
            const receivedMs = performance.now() - started;
            void new Blob(parts).text().then((text) => {
              const from = text.indexOf(head);
              JSON.parse(text.slice(from, text.indexOf("\n", from)));
              resolve({ receivedMs, parsedMs: performance.now() - started });
              ws.close();
            });
          };
          started = performance.now();
          ws.send(JSON.stringify({ type: "get_entries", id }));
        });
      },
      [`ws://${new URL(pier.origin).host}${RELAY_SOCKET_PATH}`, `bare-page-${round}`],
    );
  } finally {
    await context.close();
  }
}

/** In the page before its own scripts: marks when the session load is sent, and when its answer's last byte arrives. */
function watchSessionLoad(): void {
  const w = window as unknown as { __hydration: { sentAt: number; answeredAt: number } };
  w.__hydration = { sentAt: -1, answeredAt: -1 };
  let loadId: string | null = null;
  const Native = WebSocket;
  class Watched extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      let begun = false;
      let carry = new Uint8Array(0);
      this.addEventListener("message", (event: MessageEvent) => {
        if (loadId === null || w.__hydration.answeredAt >= 0 || !(event.data instanceof ArrayBuffer)) return;
        const bytes = new Uint8Array(event.data);
        if (!begun) {
          // The id's bytes may straddle two frames: keep the last few.
          const seen = new Uint8Array(carry.length + bytes.length);
          seen.set(carry);
          seen.set(bytes, carry.length);
          const text = new TextDecoder().decode(seen);
          const at = text.indexOf(`{"id":"${loadId}"`);
          if (at === -1) {
            carry = seen.slice(-200);
            return;
          }
          begun = true;
          if (text.indexOf("\n", at) !== -1) w.__hydration.answeredAt = performance.now();
          return;
        }
        if (bytes.indexOf(0x0a) !== -1) w.__hydration.answeredAt = performance.now();
      });
    }
    override send(data: Parameters<WebSocket["send"]>[0]): void {
      if (typeof data === "string" && loadId === null) {
        const command = JSON.parse(data) as { id?: string; type?: string; since?: unknown };
        if (command.type === "get_entries" && command.since === undefined && typeof command.id === "string") {
          loadId = command.id;
          w.__hydration.sentAt = performance.now();
          performance.mark("hydration-sent");
        }
      }
      super.send(data);
    }
  }
  window.WebSocket = Watched;
}

type PageSample = { startupMs: number; answeredMs: number; visibleMs: number; longestWall: number; longestCpu: number; over50: number; over50Cpu: number };

async function pageLoad(browser: Chromium, pier: RunningPier, session: LongSession, variant: Variant): Promise<PageSample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const at = pier.cookie.indexOf("=");
    await context.addCookies([{ name: pier.cookie.slice(0, at), value: pier.cookie.slice(at + 1), url: pier.origin, httpOnly: true, sameSite: "Strict" }]);
    if (variant.dist !== null) await serveDist(context, pier.origin, variant.dist);
    await context.addInitScript(watchSessionLoad);
    const page = await context.newPage();
    await browser.startTracing(page, { categories: ["toplevel", "__metadata", "blink.user_timing"] });
    await page.goto(`${pier.origin}/`);
    await page.waitForFunction(
      (text) => {
        const articles = document.querySelectorAll('[role="log"] article[aria-label="pi"]');
        const last = articles[articles.length - 1];
        if (!last || !last.textContent?.includes(text)) return false;
        const box = last.getBoundingClientRect();
        if (!(box.bottom > 0 && box.top < innerHeight)) return false;
        performance.mark("hydration-visible");
        (window as unknown as { __visibleAt: number }).__visibleAt = performance.now();
        return true;
      },
      session.lastAssistantText,
      { polling: "raf", timeout: 180_000 },
    );
    // Idle after it: whatever the load still does after showing the end counts as its tasks too.
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
    const times = await page.evaluate(() => {
      const w = window as unknown as { __hydration: { sentAt: number; answeredAt: number }; __visibleAt: number };
      return { ...w.__hydration, visibleAt: w.__visibleAt };
    });
    const trace = await browser.stopTracing();
    const sent = traceMark(trace, "hydration-sent") ?? -Infinity;
    const tasks = mainThreadTasks(trace).filter((task) => task.start + task.wall >= sent);
    return {
      startupMs: times.sentAt,
      answeredMs: times.answeredAt - times.sentAt,
      visibleMs: times.visibleAt - times.sentAt,
      longestWall: Math.max(0, ...tasks.map((t) => t.wall)),
      longestCpu: Math.max(0, ...tasks.map((t) => t.cpu)),
      over50: tasks.filter((t) => t.wall > LONG_TASK_MS).length,
      over50Cpu: tasks.filter((t) => t.cpu > LONG_TASK_MS).length,
    };
  } finally {
    await context.close();
  }
}

/** The page's own files from `dist` (as pier-page.ts does, with pier's headers), everything else from pier. */
async function serveDist(context: import("@playwright/test").BrowserContext, origin: string, dist: string): Promise<void> {
  const { readFileSync } = await import("node:fs");
  const { extname, join } = await import("node:path");
  const types: Record<string, string> = { ".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg+xml", ".ttf": "font/ttf" };
  await context.route(`${origin}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    const file = path === "/" ? "index.html" : path.startsWith("/assets/") ? path.slice(1) : null;
    if (route.request().method() !== "GET" || file === null || !existsSync(join(dist, file))) return route.continue();
    // pier's own headers (its CSP among them), without asking pier for the file.
    const headers: Record<string, string> = { ...SECURITY_HEADERS, "content-type": types[extname(file)] ?? "application/octet-stream" };
    await route.fulfill({ status: 200, headers, body: readFileSync(join(dist, file)) });
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const browser = await chromium.launch({
  ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", ...BENCH_CHROMIUM_ARGS],
});
const sessions: LongSession[] = [];
try {
  console.log(`Hydration: opening a session in Chromium (1280×800, pier + pi --session), median of ${ROUNDS} rounds:`);
  for (const size of SIZES) {
    const session = await writeLongSession(size);
    sessions.push(session);
    const pier = await startPier(["--demo", "--", "--session", session.file], { startTimeoutMs: 60_000 });
    try {
      // Warm-up: pi's first answer, the page's JIT and caches.
      await bareClientLoad(pier);
      await barePageLoad(browser, pier, -1);
      for (const variant of variants) await pageLoad(browser, pier, session, variant);
      const anchors: number[] = [];
      const bareReceived: number[] = [];
      const bareParsed: number[] = [];
      let answerBytes = 0;
      const pages = new Map<string, PageSample[]>(variants.map((v) => [v.name, []]));
      for (let round = 0; round < ROUNDS; round++) {
        const anchor = await bareClientLoad(pier);
        anchors.push(anchor.ms);
        const bare = await barePageLoad(browser, pier, round);
        bareReceived.push(bare.receivedMs);
        bareParsed.push(bare.parsedMs);
        answerBytes = anchor.bytes;
        for (const variant of variants) pages.get(variant.name)!.push(await pageLoad(browser, pier, session, variant));
      }
      const anchor = median(anchors);
      console.log(`${size.toLocaleString("en-US")} messages (answer ${(answerBytes / 1024 / 1024).toFixed(1)} MB):`);
      const received = median(bareReceived);
      const parsed = median(bareParsed);
      console.log(`  anchor: a bare ws client, get_entries sent → whole answer received   ${anchor.toFixed(0).padStart(6)} ms`);
      console.log(`  in Chromium, a bare page's WebSocket: → whole answer received        ${received.toFixed(0).padStart(6)} ms`);
      console.log(`                                        → received and parsed          ${parsed.toFixed(0).padStart(6)} ms`);
      for (const variant of variants) {
        const samples = pages.get(variant.name)!;
        const m = (field: keyof PageSample) => median(samples.map((s) => s[field]));
        console.log(`  ${variant.name}${variant.dist ? ` (${variant.dist})` : ""}:`);
        console.log(`    start-up, navigation → get_entries sent                           ${m("startupMs").toFixed(0).padStart(6)} ms`);
        console.log(`    get_entries sent → answer's last byte in the page                 ${m("answeredMs").toFixed(0).padStart(6)} ms`);
        console.log(
          `    get_entries sent → last message visible                           ${m("visibleMs").toFixed(0).padStart(6)} ms  = ${(m("visibleMs") / anchor).toFixed(2)}× the anchor (target ≤ 1.5×); ${(m("visibleMs") / received).toFixed(2)}× the bare page's receiving, ${(m("visibleMs") / parsed).toFixed(2)}× its receiving and parsing`,
        );
        console.log(
          `    longest main-thread task meanwhile (until idle)                   ${m("longestWall").toFixed(0).padStart(6)} ms wall, ${m("longestCpu").toFixed(0)} ms CPU; tasks over ${LONG_TASK_MS} ms: ${m("over50")} of wall time, ${m("over50Cpu")} of CPU (target: none)`,
        );
      }
    } finally {
      await pier.stop();
    }
  }
  console.log("(wall time counts waiting for a core on this shared machine; CPU time is the page's own work)");
} finally {
  await browser.close();
  for (const session of sessions) await rm(session.dir, { recursive: true, force: true });
}
