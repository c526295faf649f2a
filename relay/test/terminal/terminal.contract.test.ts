// The real terminal against a real pier (bundle or sources, as bin/pier.js
// picks), a real PTY and a real shell: typed keystrokes run, a resize
// reaches the shell, a second socket gets the scrollback, viewers and
// revoked links are refused by the relay (routes and hand-made upgrades),
// a page that acks holds the shell to what it has drawn, a flood keeps a
// fast socket served while a slow one is cut off with a reason and the
// relay's memory stays bounded, and stopping pier leaves no process the
// shell started. pi is only the session's other half here.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CLOSE_REVOKED, TERMINAL_CLOSE } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptUpgrade, connectBrowser, exchangeToken, isAlive, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";
import { attach, makeLink, openShell } from "./terminal-sockets.ts";

const hello = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))!;
  return Number(line.split(/\s+/)[1]) * 1024;
}

async function waitUntilGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    alive = pids.filter(isAlive);
  }
  return alive;
}

describe("terminal", () => {
  let pier: RunningPier;
  let driver: Browser;

  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", hello]);
    driver = await connectBrowser(pier);
  });
  afterAll(async () => {
    await driver?.close();
    await pier?.stop();
  });

  it("runs what is typed in a shell in the session's folder, and a resize reaches the shell", async () => {
    const id = await openShell(pier);
    const list = await httpJson(pier, "GET", "/api/terminals");
    expect(list.json.unavailable).toBeNull();
    expect(list.json.terminals).toContainEqual(expect.objectContaining({ id, cols: 80, rows: 24, alive: true }));
    const term = await attach(pier, id);
    term.type("echo $((6*7))\r");
    await term.waitFor(/[\r\n]42\r\n/);
    term.ws.send(JSON.stringify({ type: "resize", cols: 123, rows: 37 }));
    term.type("stty size\r");
    await term.waitFor(/[\r\n]37 123\r\n/);
    expect((await httpJson(pier, "GET", "/api/terminals")).json.terminals).toContainEqual(expect.objectContaining({ id, cols: 123, rows: 37 }));
    // Bad frames get a sentence, and the shell goes on.
    term.ws.send("not json");
    term.ws.send(JSON.stringify({ type: "resize", cols: 0, rows: 9999 }));
    await new Promise<void>((resolve) => term.ws.on("message", () => term.frames.length >= 3 && resolve()));
    expect(term.frames.filter((f) => f.type === "error").map((f) => (f as { message: string }).message)).toEqual([expect.stringMatching(/must be JSON/), expect.stringMatching(/whole numbers/)]);
    term.ws.close();
  });

  it("gives a second socket the scrollback, then live output for both", async () => {
    const id = await openShell(pier);
    const first = await attach(pier, id);
    first.type("echo scroll-$((20+3))\r");
    await first.waitFor(/scroll-23/);
    const second = await attach(pier, id);
    expect(second.scrollback()).toMatch(/[\r\n]scroll-23\r\n/);
    // The primary session's prefix names the same shells.
    const third = await attach(pier, id, { prefix: "/live/1" });
    second.type("echo both-$((1+1))\r");
    await Promise.all([first.waitFor(/both-2/), second.waitFor(/both-2/), third.waitFor(/both-2/)]);
    for (const socket of [first, second, third]) socket.ws.close();
    // Closing a shell ends it and its sockets.
    const watching = await attach(pier, id);
    const closed = await httpJson(pier, "POST", "/api/terminals/close", { body: { id } });
    expect(closed.status).toBe(200);
    expect((await watching.closed).code).toBe(TERMINAL_CLOSE.ended);
    expect((await httpJson(pier, "POST", "/api/terminals/close", { body: { id } })).status).toBe(404);
  });

  it("sends an attaching socket its scrollback in frames no larger than a live one (CATCH_UP_FRAME_BYTES), whole and in order", async () => {
    const id = await openShell(pier);
    const first = await attach(pier, id);
    first.type("yes catch-up | head -c 405000; echo caught-$((6*7))\r");
    await first.waitFor(/[\r\n]caught-42\r\n/);
    const second = await attach(pier, id);
    const frames = second.scrollbackFrames();
    expect(Math.max(...frames)).toBeLessThanOrEqual(64 * 1024);
    expect(frames.reduce((sum, size) => sum + size, 0)).toBeGreaterThan(450_000);
    // Whole and in order: every line of yes is there (the first after the shell's escape for the command's start), and the end marker after them.
    const lines = second.scrollback().split("\r\n");
    const at = lines.indexOf("caught-42");
    expect(at).toBeGreaterThan(0);
    expect(lines.filter((line) => line.endsWith("catch-up"))).toHaveLength(45_000);
    expect(lines.slice(0, at).findLastIndex((line) => line === "catch-up")).toBe(at - 1);
    first.ws.close();
    second.ws.close();
  });

  it("refuses a viewer every change and the upgrade to a shell not shared, with a sentence (terminal-share.contract.test.ts: shared ones)", async () => {
    const id = await openShell(pier);
    const viewerCookie = await exchangeToken((await makeLink(driver, "viewer")).url, pier.port);
    // A viewer lists only the shells a driver shares: none here.
    const list = await httpJson(pier, "GET", "/api/terminals", { cookie: viewerCookie });
    expect(list.status).toBe(200);
    expect(list.json.terminals).toEqual([]);
    for (const [path, body] of [
      ["/api/terminals", { cols: 80, rows: 24 }],
      ["/api/terminals/close", { id }],
      ["/api/terminals/share", { id, shared: true }],
    ] as const) {
      const answer = await httpJson(pier, "POST", path, { cookie: viewerCookie, body });
      expect(answer.status, path).toBe(403);
      expect(answer.json.error.message).toMatch(/driver/);
    }
    // A hand-made upgrade, as a script would send it.
    const upgrade = await attemptUpgrade(pier, { cookie: viewerCookie, path: `/terminal?id=${id}` });
    expect(upgrade).toEqual({ status: 403, body: expect.stringMatching(/only while a driver shares it/) });
    // The shell is untouched, and still not shared.
    expect((await httpJson(pier, "GET", "/api/terminals")).json.terminals).toContainEqual(expect.objectContaining({ id, alive: true, shared: false }));
    // No cookie, or another site's page: refused by the door before anything else.
    expect((await attemptUpgrade(pier, { cookie: null, path: `/terminal?id=${id}` })).status).toBe(401);
    expect((await attemptUpgrade(pier, { origin: "http://evil.example", path: `/terminal?id=${id}` })).status).toBe(403);
    expect((await attemptUpgrade(pier, { path: "/terminal?id=nope" })).status).toBe(404);
  });

  it("closes a revoked driver link's terminal socket at once and refuses its next upgrade", async () => {
    const id = await openShell(pier);
    const link = await makeLink(driver, "driver");
    const cookie = await exchangeToken(link.url, pier.port);
    const term = await attach(pier, id, { cookie });
    term.type("echo before-$((2*2))\r");
    await term.waitFor(/before-4/);
    driver.send({ type: "pier.revoke_link", linkId: link.linkId });
    expect((await term.closed).code).toBe(CLOSE_REVOKED);
    expect((await attemptUpgrade(pier, { cookie, path: `/terminal?id=${id}` })).status).toBe(401);
    expect((await httpJson(pier, "GET", "/api/terminals", { cookie })).status).toBe(401);
  });

  it("floods 50 MB through one shell: a fast socket gets all of it, a slow one is cut off with a reason, and the relay's memory stays bounded", async () => {
    const id = await openShell(pier, 200, 50);
    const fast = await attach(pier, id);
    const slow = await attach(pier, id);
    // The fast socket counts bytes instead of keeping them.
    let fastBytes = 0;
    let fastYs = 0;
    let fastTail = "";
    fast.ws.on("message", (data, isBinary) => {
      if (!isBinary) return;
      const buffer = data as Buffer;
      fastBytes += buffer.length;
      for (let i = buffer.indexOf(0x79); i !== -1; i = buffer.indexOf(0x79, i + 1)) fastYs++;
      fastTail = (fastTail + buffer.subarray(-1024).toString("latin1")).slice(-1024);
    });
    // The slow one stops reading (a tab on a network that died). One that reads in sips every few
    // seconds drains the kernel's socket buffers (several MB on loopback) each time and keeps up here.
    slow.ws.pause();
    // How long the fast socket ever waited for its next bytes once the flood ran (bash may take seconds
    // to start on a loaded machine): the slow one may hold the shell ~1 s at a time, no more.
    let lastFast = Date.now();
    let longestGap = 0;
    let gapAt = 0;
    fast.ws.on("message", () => {
      const now = Date.now();
      if (fastBytes > 1_000_000 && now - lastFast > longestGap) [longestGap, gapAt] = [now - lastFast, fastBytes];
      lastFast = now;
    });
    // The relay says when it cuts the slow one off; it then reads again, and finds the close frame (with its reason) after what was queued.
    let slowCutAt = -1;
    const cutLogged = setInterval(() => {
      if (!pier.stderr.some((line) => /fell more than 8 MB behind/.test(line))) return;
      clearInterval(cutLogged);
      slowCutAt = fastBytes;
      slow.ws.resume();
    }, 50);
    const relayPid = pier.process.pid!;
    const rssBefore = rssBytes(relayPid);
    let rssPeak = rssBefore;
    const sample = setInterval(() => (rssPeak = Math.max(rssPeak, rssBytes(relayPid))), 50);
    const started = Date.now();
    fast.type("yes | head -c 50000000; echo flood-done-$((40+2))\r");
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the fast socket got ${fastBytes} bytes in 90 s, tail ${JSON.stringify(fastTail)}`)), 90_000);
        const check = () => {
          if (!fastTail.includes("flood-done-42")) return;
          clearTimeout(timer);
          fast.ws.off("message", check);
          resolve();
        };
        fast.ws.on("message", check);
      });
    } finally {
      clearInterval(sample);
      clearInterval(cutLogged);
    }
    const seconds = (Date.now() - started) / 1000;
    // "y\n" 25,000,000 times, and the y of "yes" in the echoed command line.
    expect(fastYs - 25_000_000).toBeGreaterThanOrEqual(0);
    expect(fastYs - 25_000_000).toBeLessThan(10);
    const growth = rssPeak - rssBefore;
    console.log(
      `terminal flood: ${(fastBytes / 1e6).toFixed(1)} MB to the fast socket in ${seconds.toFixed(1)} s (longest wait ${longestGap} ms, after ${gapAt} bytes; the slow one cut off after ${slowCutAt}); relay RSS ${(rssBefore / 1e6).toFixed(0)} MB → peak ${(rssPeak / 1e6).toFixed(0)} MB (+${(growth / 1e6).toFixed(1)} MB)`,
    );
    expect(growth).toBeLessThan(30 * 1024 * 1024);
    expect(longestGap).toBeLessThan(5000);
    const cut = await slow.closed;
    expect(cut.code).toBe(TERMINAL_CLOSE.behind);
    expect(cut.reason).toMatch(/fell too far behind/);
    // Reattaching gets the scrollback (the last ~1 MB), which ends where the shell is now.
    const again = await attach(pier, id);
    expect(again.scrollback()).toMatch(/flood-done-42/);
    expect(again.scrollback().length).toBeLessThanOrEqual(1024 * 1024);
    fast.ws.close();
    again.ws.close();
  }, 180_000);

  it("paces the shell by what a page that acks has drawn: at most UNDRAWN_HIGH and a read ahead of it, and on again as it acks", async () => {
    const id = await openShell(pier, 200, 50);
    const page = await attach(pier, id);
    page.type("echo start-$((2*2))\r");
    await page.waitFor(/[\r\n]start-4\r\n/);
    // Output so far is ASCII (prompt, echo): its characters are its bytes.
    let received = Buffer.byteLength(page.text());
    let tail = "";
    page.ws.on("message", (data, isBinary) => {
      if (!isBinary) return;
      received += (data as Buffer).length;
      // Enough to hold the end marker with the prompt after it, in one frame or across two (a prompt with a long folder is ~70 bytes).
      tail = (tail + (data as Buffer).subarray(-1024).toString("latin1")).slice(-1024);
    });
    // The page says it has drawn nothing: from now on the relay holds it to what it draws.
    page.ws.send(JSON.stringify({ type: "ack", bytes: 0 }));
    page.type("yes | head -c 2000000; echo paced-done-$((7*9))\r");
    // Without acks the shell stops once the page is UNDRAWN_HIGH (256 KiB) behind, plus what the relay read before it paused it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const held = received;
    expect(held).toBeGreaterThan(200 * 1024);
    expect(held).toBeLessThan(512 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received).toBe(held);
    // Acking what it got lets the shell run on to the end.
    const acking = setInterval(() => page.ws.send(JSON.stringify({ type: "ack", bytes: received })), 5);
    const deadline = Date.now() + 60_000;
    while (!tail.includes("paced-done-63") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    clearInterval(acking);
    expect(tail).toMatch(/paced-done-63/);
    expect(page.frames.filter((f) => f.type === "error")).toEqual([]);
    expect(received).toBeGreaterThan(2_000_000);
    page.ws.close();
  }, 90_000);

  it("refuses a ninth shell and a bad size with a sentence", async () => {
    const bad = await httpJson(pier, "POST", "/api/terminals", { body: { cols: "wide", rows: 24 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/size as whole numbers/);
    const open = (await httpJson(pier, "GET", "/api/terminals")).json.terminals.length as number;
    for (let i = open; i < 8; i++) await openShell(pier);
    const ninth = await httpJson(pier, "POST", "/api/terminals", { body: { cols: 80, rows: 24 } });
    expect(ninth.status).toBe(409);
    expect(ninth.json.error).toEqual({ code: "too_many_terminals", message: expect.stringMatching(/8 shells open/) });
  });

  it("stopping pier ends every shell and what it started, even a job that ignores SIGHUP", async () => {
    const { terminals } = (await httpJson(pier, "GET", "/api/terminals")).json as { terminals: { id: string }[] };
    const term = await attach(pier, terminals.at(-1)!.id);
    term.type('(trap "" HUP; exec sleep 1000) & echo "pids:$$:$!:"\r');
    await term.waitFor(/pids:\d+:\d+:/);
    const [, shellPid, jobPid] = /pids:(\d+):(\d+):/.exec(term.text())!.map(Number) as [number, number, number];
    expect(isAlive(shellPid) && isAlive(jobPid)).toBe(true);
    pier.signal("SIGTERM");
    await pier.exited;
    // Checked once pier has exited, before the test harness kills anything itself.
    expect(await waitUntilGone([shellPid, jobPid], 2000)).toEqual([]);
  });
});
