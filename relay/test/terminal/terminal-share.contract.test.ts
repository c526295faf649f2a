// A driver shares a real shell with viewers, against a real pier, a real PTY
// and a real shell: a viewer lists only the shared shells and watches one
// (scrollback, live output, the driver's resizes) but cannot type into it nor
// resize it — what it sends never reaches the shell; it is refused a shell
// not shared (hand-made upgrades too) and every change; unsharing and
// revoking its link close its socket at once; a viewer that never reads
// does not hold the shell for the driver; every page hears of each change
// (terminals_changed). Changes need the page's Origin.
import { fileURLToPath } from "node:url";
import { CLOSE_REVOKED, TERMINAL_CLOSE, type TerminalServerFrame } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptUpgrade, connectBrowser, exchangeToken, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";
import { attach, makeLink, openShell, type TerminalSocket } from "./terminal-sockets.ts";

const hello = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));

function share(pier: RunningPier, id: string, shared: boolean, options: { cookie?: string; origin?: string | null } = {}) {
  return httpJson(pier, "POST", "/api/terminals/share", { body: { id, shared }, ...options });
}

/** The next text frame of `type` a terminal socket gets from now on. */
function nextFrame<T extends TerminalServerFrame["type"]>(socket: TerminalSocket, type: T, timeoutMs = 10_000): Promise<Extract<TerminalServerFrame, { type: T }>> {
  const seen = socket.frames.length;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.ws.off("message", check);
      reject(new Error(`no ${type} frame in ${timeoutMs} ms; frames: ${JSON.stringify(socket.frames)}`));
    }, timeoutMs);
    function check() {
      const frame = socket.frames.slice(seen).find((f) => f.type === type);
      if (frame === undefined) return;
      clearTimeout(timer);
      socket.ws.off("message", check);
      resolve(frame as Extract<TerminalServerFrame, { type: T }>);
    }
    socket.ws.on("message", check);
  });
}

describe("a shell shared with viewers", () => {
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

  it("a viewer lists and watches only shared shells, cannot type or resize, and is closed out when the driver stops sharing", async () => {
    const viewerCookie = await exchangeToken((await makeLink(driver, "viewer")).url, pier.port);
    // The viewer's page: it hears of every change to the shells, as the driver's does.
    const viewerPage = await connectBrowser(pier, { cookie: viewerCookie });
    const changesSeen = () => [driver, viewerPage].map((browser) => browser.frames.filter((f) => f.type === "terminals_changed").length);
    const changed = async (before: number[]) => {
      await driver.waitUntil(() => changesSeen()[0]! > before[0]!, "terminals_changed (driver)");
      await viewerPage.waitUntil(() => changesSeen()[1]! > before[1]!, "terminals_changed (viewer)");
    };

    let before = changesSeen();
    const watched = await openShell(pier);
    await changed(before);
    const hidden = await openShell(pier);
    const term = await attach(pier, watched);
    term.type("echo before-share-$((5*5))\r");
    await term.waitFor(/before-share-25/);

    // Nothing is shared yet: the viewer sees no shell, and may attach to none.
    expect((await httpJson(pier, "GET", "/api/terminals", { cookie: viewerCookie })).json.terminals).toEqual([]);
    const refused = await attemptUpgrade(pier, { cookie: viewerCookie, path: `/terminal?id=${watched}` });
    expect(refused).toEqual({ status: 403, body: expect.stringMatching(/only while a driver shares it/) });

    // Sharing is a driver's change: refused to a viewer and to a request without the page's Origin.
    const byViewer = await share(pier, watched, true, { cookie: viewerCookie });
    expect(byViewer.status).toBe(403);
    // (The relay's door refuses every change a viewer asks for, before the terminal's own check would.)
    expect(byViewer.json.error).toEqual({ code: "forbidden", message: expect.stringMatching(/only a driver can/) });
    for (const [path, body] of [
      ["/api/terminals/share", { id: watched, shared: true }],
      ["/api/terminals", { cols: 80, rows: 24 }],
      ["/api/terminals/close", { id: hidden }],
    ] as const) {
      const noOrigin = await httpJson(pier, "POST", path, { body, origin: null });
      expect(noOrigin.status, path).toBe(403);
      expect(noOrigin.json.error).toEqual({ code: "origin_required", message: expect.stringMatching(/Origin header is missing/) });
    }
    expect((await share(pier, watched, "yes" as unknown as boolean)).status).toBe(400);
    expect((await share(pier, "t999", true)).status).toBe(404);

    before = changesSeen();
    const shared = await share(pier, watched, true);
    expect(shared.status).toBe(200);
    expect(shared.json.terminal).toEqual(expect.objectContaining({ id: watched, shared: true, alive: true }));
    await changed(before);
    const viewerList = await httpJson(pier, "GET", "/api/terminals", { cookie: viewerCookie });
    expect(viewerList.status).toBe(200);
    expect(viewerList.json.terminals.map((t: { id: string }) => t.id)).toEqual([watched]);
    // The one not shared stays out of reach, a hand-made upgrade included.
    expect((await attemptUpgrade(pier, { cookie: viewerCookie, path: `/terminal?id=${hidden}` })).status).toBe(403);

    // Watching: the scrollback, then live output.
    const viewer = await attach(pier, watched, { cookie: viewerCookie });
    expect(viewer.scrollback()).toMatch(/[\r\n]before-share-25\r\n/);
    term.type("echo live-$((6*7))\r");
    await viewer.waitFor(/[\r\n]live-42\r\n/);

    // Keystrokes from the viewer are refused and never reach the shell: the marker command never runs.
    const keysRefused = nextFrame(viewer, "error");
    viewer.type("echo viewer-typed-$((8*8))\r");
    expect((await keysRefused).message).toMatch(/watching only/);
    const resizeRefused = nextFrame(viewer, "error");
    viewer.ws.send(JSON.stringify({ type: "resize", cols: 40, rows: 10 }));
    expect((await resizeRefused).message).toMatch(/watching only/);
    // An ack is a viewer's to send (it says what its page drew): no error for it.
    viewer.ws.send(JSON.stringify({ type: "ack", bytes: 0 }));
    term.type("echo after-viewer-$((9*9))\r");
    await Promise.all([term.waitFor(/after-viewer-81/), viewer.waitFor(/after-viewer-81/)]);
    expect(term.text()).not.toMatch(/viewer-typed/);
    expect(viewer.frames.filter((f) => f.type === "error")).toHaveLength(2);
    expect((await httpJson(pier, "GET", "/api/terminals")).json.terminals).toContainEqual(expect.objectContaining({ id: watched, cols: 80, rows: 24 }));

    // The driver's resize reaches the watching page, which draws at the shell's size.
    const resized = nextFrame(viewer, "resized");
    term.ws.send(JSON.stringify({ type: "resize", cols: 100, rows: 30 }));
    expect(await resized).toEqual({ type: "resized", cols: 100, rows: 30 });

    // Stopping sharing closes the viewer's socket at once with its own code, and hides the shell from it.
    before = changesSeen();
    expect((await share(pier, watched, false)).json.terminal).toEqual(expect.objectContaining({ id: watched, shared: false }));
    const cut = await viewer.closed;
    expect(cut).toEqual({ code: TERMINAL_CLOSE.unshared, reason: expect.stringMatching(/stopped sharing/) });
    await changed(before);
    expect((await httpJson(pier, "GET", "/api/terminals", { cookie: viewerCookie })).json.terminals).toEqual([]);
    expect((await attemptUpgrade(pier, { cookie: viewerCookie, path: `/terminal?id=${watched}` })).status).toBe(403);
    // The driver's socket goes on.
    term.type("echo still-$((2+3))\r");
    await term.waitFor(/still-5/);

    // Closing a shell is told too.
    before = changesSeen();
    expect((await httpJson(pier, "POST", "/api/terminals/close", { body: { id: hidden } })).status).toBe(200);
    await changed(before);
    term.ws.close();
    await viewerPage.close();
  });

  it("revoking a viewer's link closes its watching socket at once and refuses its next upgrade", async () => {
    const id = await openShell(pier);
    expect((await share(pier, id, true)).status).toBe(200);
    const link = await makeLink(driver, "viewer");
    const cookie = await exchangeToken(link.url, pier.port);
    const term = await attach(pier, id);
    const viewer = await attach(pier, id, { cookie });
    term.type("echo revoke-$((3*4))\r");
    await viewer.waitFor(/revoke-12/);
    driver.send({ type: "pier.revoke_link", linkId: link.linkId });
    expect((await viewer.closed).code).toBe(CLOSE_REVOKED);
    expect((await attemptUpgrade(pier, { cookie, path: `/terminal?id=${id}` })).status).toBe(401);
    term.ws.close();
  });

  it("a viewer that never reads does not hold the shell: the driver gets all of a flood, even with the viewer alone attached", async () => {
    const id = await openShell(pier, 200, 50);
    expect((await share(pier, id, true)).status).toBe(200);
    const viewerCookie = await exchangeToken((await makeLink(driver, "viewer")).url, pier.port);
    const term = await attach(pier, id);
    let ys = 0;
    let tail = "";
    let last = Date.now();
    let longestGap = 0;
    term.ws.on("message", (data, isBinary) => {
      if (!isBinary) return;
      const buffer = data as Buffer;
      for (let i = buffer.indexOf(0x79); i !== -1; i = buffer.indexOf(0x79, i + 1)) ys++;
      tail = (tail + buffer.subarray(-1024).toString("latin1")).slice(-1024);
      const now = Date.now();
      if (ys > 100_000) longestGap = Math.max(longestGap, now - last);
      last = now;
    });
    const stalled = await attach(pier, id, { cookie: viewerCookie });
    // The viewer's page stops reading (a tab whose network died).
    stalled.ws.pause();
    const done = (pattern: RegExp, timeoutMs: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the driver's socket got ${ys} y's, tail ${JSON.stringify(tail)}`)), timeoutMs);
        const check = () => {
          if (!pattern.test(tail)) return;
          clearTimeout(timer);
          term.ws.off("message", check);
          resolve();
        };
        term.ws.on("message", check);
      });
    const started = Date.now();
    const finished = done(/flood-done-42/, 90_000);
    term.type("yes | head -c 20000000; echo flood-done-$((40+2))\r");
    await finished;
    console.log(`shared shell flood: 20 MB to the driver in ${((Date.now() - started) / 1000).toFixed(1)} s, longest wait ${longestGap} ms, with a viewer that never read`);
    // "y\n" 10,000,000 times, and the y of "yes" in the echoed command line.
    expect(ys - 10_000_000).toBeGreaterThanOrEqual(0);
    expect(ys - 10_000_000).toBeLessThan(10);
    // Cut off once it fell MAX_BEHIND behind (it may reattach); it read again to find the close frame after its backlog.
    stalled.ws.resume();
    expect((await stalled.closed).code).toBe(TERMINAL_CLOSE.behind);

    // Sharper: with the viewer the only socket attached, a driver's page that stopped reading would hold the shell
    // (at HIGH_WATER, never falling further behind); a viewer's does not: the shell runs on until the viewer is cut off.
    const cutsBefore = pier.stderr.filter((line) => /fell more than 8 MB behind/.test(line)).length;
    const alone = await attach(pier, id, { cookie: viewerCookie });
    alone.ws.pause();
    term.type("sleep 1; yes | head -c 20000000; echo alone-done-$((50+5))\r");
    await term.waitFor(/sleep 1; yes/);
    term.ws.close();
    await term.closed;
    const cutDeadline = Date.now() + 60_000;
    while (pier.stderr.filter((line) => /fell more than 8 MB behind/.test(line)).length === cutsBefore) {
      expect(Date.now(), "the lone viewer was never cut off: it held the shell").toBeLessThan(cutDeadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    alone.ws.resume();
    expect((await alone.closed).code).toBe(TERMINAL_CLOSE.behind);
    // A driver attaching afterwards finds the end of the flood in the scrollback.
    const deadline = Date.now() + 60_000;
    let scrollback = "";
    while (Date.now() < deadline) {
      const again = await attach(pier, id);
      scrollback = again.scrollback();
      again.ws.close();
      if (/alone-done-55/.test(scrollback)) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(scrollback).toMatch(/alone-done-55/);
  }, 180_000);
});
