// Connections that die without closing, against a real pier and pi (with
// `--heartbeat 0.3`): a browser that stops answering the relay's pings is cut
// off within two intervals and the others are told it left; one that
// answers stays, however quiet, and hears a keepalive at least every
// interval, so that its page can tell a live relay from a dead connection.
import type { RelayFrame } from "@pier/protocol";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, runPier, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";

const hello = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));
const HEARTBEAT_MS = 300;

const keepalives = (browser: Browser) => browser.frames.filter((frame) => frame.type === "keepalive").length;

describe("heartbeat", () => {
  let pier: RunningPier;
  let staying: Browser;

  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", hello, "--heartbeat", String(HEARTBEAT_MS / 1000)]);
    staying = await connectBrowser(pier);
  });
  afterAll(async () => {
    await staying?.close();
    await pier?.stop();
  });

  it("tells each page how often it will hear from the relay", () => {
    expect(staying.hello.heartbeatMs).toBe(HEARTBEAT_MS);
  });

  it("cuts off a browser that stops answering pings, within two intervals, and the others hear it left", async () => {
    const gone = await connectBrowser(pier, { answerPings: false });
    const openedAt = Date.now();
    await staying.waitUntil(() => staying.frames.some((f) => f.type === "presence" && f.event === "joined" && f.person.clientId === gone.hello.clientId), "the silent browser joins");
    const closed = await Promise.race([gone.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000))]);
    expect(closed, "the silent browser is still connected after 5 s").not.toBeNull();
    // 1006: cut off, no closing handshake (there is nobody to shake hands with).
    expect(closed!.code).toBe(1006);
    expect(Date.now() - openedAt).toBeLessThan(2 * HEARTBEAT_MS + 1000);
    await staying.waitUntil(() => staying.frames.some((f: RelayFrame) => f.type === "presence" && f.event === "left" && f.clientId === gone.hello.clientId), "the others are told it left");
  });

  it("keeps a quiet browser that answers, and sends it a keepalive at least every interval", async () => {
    const before = keepalives(staying);
    const startedAt = Date.now();
    // Five keepalives, one per interval; timers run late on a busy machine (never early), so the
    // wait allows four times that, and a relay that stopped sending fails it all the same.
    await staying.waitUntil(() => keepalives(staying) - before >= 5, "five keepalives", 20 * HEARTBEAT_MS);
    // …and no more often than one per interval.
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(4 * HEARTBEAT_MS - 50);
    expect(staying.ws.readyState).toBe(staying.ws.OPEN);
  });

  it("sends no keepalive to a browser that is getting other frames", async () => {
    // pi's output while it answers: the page hears it, so nothing more is needed.
    const busy = await connectBrowser(pier);
    try {
      const before = keepalives(busy);
      const until = Date.now() + 6 * HEARTBEAT_MS;
      while (Date.now() < until) {
        busy.send({ type: "get_state", id: `hb-${Date.now()}` });
        await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS / 4));
      }
      expect(keepalives(busy) - before).toBe(0);
    } finally {
      await busy.close();
    }
  });
});

describe("--heartbeat", () => {
  it.each([["0"], ["0.05"], ["abc"], ["5000"]])("refuses %s with the reason", async (value) => {
    const result = await runPier(["--heartbeat", value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--heartbeat (takes a number of seconds|must be between 0\.1 and 3600 seconds)/);
  });
});
