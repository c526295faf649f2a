// One slow browser must not freeze the others for long. The rule (see
// relay/src/browser-hub.ts): when a browser has more than HIGH_WATER bytes
// not yet written to its socket, pi's stdout is paused; if that lasts
// STALL_LIMIT_MS, browsers still above LOW_WATER are closed with 4008 and pi
// resumes for everyone else.
//
// How the slow browser is made: its client socket stops reading right after
// hello (ws.pause()), so the kernel buffers fill (a few MB on loopback), then
// the relay's queue for it passes HIGH_WATER. The close frame is queued
// behind that backlog, so the page only sees code 4008 if it starts reading
// again within the 2 s the relay gives it before cutting the socket: the test
// resumes it as soon as the healthy browser sees pi's output flowing again
// (the stall ended). A page that never reads again sees 1006 instead.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLOSE_TOO_SLOW, STALL_LIMIT_MS } from "../../src/browser-hub.ts";
import { commandId, connectBrowser, startPier, type RunningPier } from "../support/pier-process.ts";

// ~20 MB on pi's stdout: far more than the kernel buffers plus HIGH_WATER.
const OUTPUT_BYTES = 20_000_000;
const LINE = 100;
const FLOOD = `head -c ${OUTPUT_BYTES} /dev/zero | tr '\\0' a | fold -w ${LINE}`;
// fold ends every full line but the last with "\n".
const EXPECTED_OUTPUT = OUTPUT_BYTES + OUTPUT_BYTES / LINE - 1;

describe("a browser that stops reading", () => {
  let pier: RunningPier;
  beforeAll(async () => {
    pier = await startPier(["--demo"]);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it(
    "is closed with 4008 after the stall limit, while a reading browser gets all of pi's output",
    async () => {
      const slow = await connectBrowser(pier);
      slow.ws.pause();
      const healthy = await connectBrowser(pier);
      const arrivals: number[] = [];
      healthy.ws.on("message", (_data, isBinary) => {
        if (isBinary) arrivals.push(Date.now());
      });

      const id = commandId("flood");
      const sentAt = Date.now();
      healthy.send({ type: "bash", id, command: FLOOD });

      // The stall: no bytes reach the healthy browser for a long while, then
      // they flow again once the relay has dropped the slow one.
      const stallGap = STALL_LIMIT_MS / 2;
      const resumedAt = await healthy.waitUntil(
        () => {
          for (let i = 1; i < arrivals.length; i++) if (arrivals[i]! - arrivals[i - 1]! > stallGap) return arrivals[i];
          return undefined;
        },
        `pi's output to stall for ${stallGap} ms and then flow again`,
        STALL_LIMIT_MS + 15_000,
      );
      expect(slow.chunks.length).toBe(0);
      slow.ws.resume();
      const closed = await slow.closed;
      expect(closed).toEqual({ code: CLOSE_TOO_SLOW, reason: expect.stringMatching(/too slow/) });
      const closedAfterMs = Date.now() - sentAt;
      expect(closedAfterMs).toBeGreaterThanOrEqual(STALL_LIMIT_MS);
      expect(closedAfterMs).toBeLessThan(STALL_LIMIT_MS + 10_000);
      expect(resumedAt - sentAt).toBeGreaterThanOrEqual(STALL_LIMIT_MS);
      // What the slow browser did get before the close is a clean prefix.
      expect(slow.invalidLines).toEqual([]);

      // The healthy browser gets the bash response and every byte of the
      // streamed output, in order, as whole records.
      const response = await healthy.waitForRecord((record) => record.type === "response" && record.id === id, 30_000);
      expect(response).toMatchObject({ command: "bash", success: true, data: { exitCode: 0 } });
      const streamed = healthy.records
        .filter((record) => record.type === "bash_execution_update" && record.id === id)
        .map((record) => record.delta as string)
        .join("");
      expect(streamed.length).toBe(EXPECTED_OUTPUT);
      const line = "a".repeat(LINE);
      expect(streamed === `${line}\n`.repeat(OUTPUT_BYTES / LINE - 1) + line).toBe(true);
      expect(healthy.invalidLines).toEqual([]);
      await healthy.waitForFrame("peers", (frame) => frame.count === 1);

      // The relay and pi live on: a new browser connects and pi answers.
      expect(pier.process.exitCode).toBeNull();
      expect(healthy.frames.some((frame) => frame.type === "child_exited")).toBe(false);
      const stateId = commandId("state");
      healthy.send({ type: "get_state", id: stateId });
      expect(await healthy.waitForRecord((record) => record.id === stateId)).toMatchObject({ success: true });
      const next = await connectBrowser(pier);
      expect(next.hello.peers).toBe(2);
      await Promise.all([healthy.close(), next.close()]);
    },
    STALL_LIMIT_MS + 50_000,
  );
});
