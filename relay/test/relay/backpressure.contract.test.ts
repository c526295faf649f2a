// One browser that stops reading must not hold up the others (see
// relay/src/browser-hub.ts). While others could take bytes, pi waits for a
// browser only while it reads; one that made no progress for
// STALL_DETECT_MS stops getting live bytes, and catches up from the replay
// once it reads again, from the exact byte where its live stream stopped,
// or is closed with 4008 when the replay no longer holds that byte. A lone
// browser holds nobody up: pi waits for it.
//
// How the stalled browser is made: its client socket stops reading right
// after replay_end (ws.pause()), so the kernel buffers fill, then the
// relay's queue for it passes HIGH_WATER. pi floods stdout through its RPC
// `bash` (~20 MB). Nothing here is timed tightly: the assertions are about
// order and equality, and the one about delay (the healthy browser never
// waits anywhere near the old 10 s) has a wide margin for a loaded machine.
import { afterEach, describe, expect, it } from "vitest";
import { CLOSE_TOO_SLOW } from "../../src/browser-hub.ts";
import { commandId, connectBrowser, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";

const OUTPUT_BYTES = 20_000_000;
const LINE = 100;
const FLOOD = `head -c ${OUTPUT_BYTES} /dev/zero | tr '\\0' a | fold -w ${LINE}`;
// fold ends every full line but the last with "\n".
const EXPECTED_OUTPUT = OUTPUT_BYTES + OUTPUT_BYTES / LINE - 1;
/** Far below the 10 s one stalled browser used to cost the others; far above the ~0.1 s it costs now. */
const MAX_HEALTHY_GAP_MS = 5000;

/** Received bytes, and the longest wait between two binary frames, counted from now. */
function watch(browser: Browser): { bytes(): number; maxGapMs(): number } {
  let bytes = 0;
  let last = 0;
  let maxGap = 0;
  browser.ws.on("message", (data: Buffer, isBinary: boolean) => {
    if (!isBinary) return;
    const now = Date.now();
    if (last !== 0) maxGap = Math.max(maxGap, now - last);
    last = now;
    bytes += data.length;
  });
  return { bytes: () => bytes, maxGapMs: () => maxGap };
}

/** Sends abort_bash from `from`; returns each browser's stream up to and including that answer's line. */
async function syncPoint(from: Browser, all: Browser[]): Promise<Buffer[]> {
  const id = commandId("sync");
  // A command whose answer every browser gets (a query's goes to its asker alone), and that changes nothing here.
  from.send({ type: "abort_bash", id });
  await Promise.all(all.map((browser) => browser.waitForRecord((record) => record.type === "response" && record.id === id, 60_000)));
  return all.map((browser) => {
    const bytes = browser.bytes();
    const at = bytes.indexOf(`"id":"${id}"`);
    return bytes.subarray(0, bytes.indexOf(0x0a, at) + 1);
  });
}

async function flood(healthy: Browser): Promise<void> {
  const id = commandId("flood");
  healthy.send({ type: "bash", id, command: FLOOD });
  const response = await healthy.waitForRecord((record) => record.type === "response" && record.id === id, 90_000);
  expect(response).toMatchObject({ command: "bash", success: true, data: { exitCode: 0 } });
  const streamed = healthy.records
    .filter((record) => record.type === "bash_execution_update" && record.id === id)
    .map((record) => record.delta as string)
    .join("");
  expect(streamed.length).toBe(EXPECTED_OUTPUT);
  const line = "a".repeat(LINE);
  expect(streamed === `${line}\n`.repeat(OUTPUT_BYTES / LINE - 1) + line).toBe(true);
  expect(healthy.invalidLines).toEqual([]);
}

let pier: RunningPier | undefined;
afterEach(async () => {
  await pier?.stop();
  pier = undefined;
});

describe("a browser that stops reading", () => {
  it("is waited for when it is the only one: after a pause longer than the stall detection it still gets every byte", async () => {
    // The default replay (8 MiB) is far smaller than the flood: being given up on would mean 4008.
    pier = await startPier(["--demo"]);
    const lone = await connectBrowser(pier);
    const seen = watch(lone);
    const flooding = flood(lone);
    await lone.waitUntil(() => seen.bytes() > 2_000_000, "2 MB of the flood", 90_000);
    lone.ws.pause();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    lone.ws.resume();
    await flooding;
    expect(pier.process.exitCode).toBeNull();
    const id = commandId("state");
    lone.send({ type: "get_state", id });
    expect(await lone.waitForRecord((record) => record.id === id)).toMatchObject({ success: true });
    await lone.close();
  }, 180_000);

  it("costs the others no long wait, and when it reads again catches up from the replay to the very same bytes", async () => {
    // A replay larger than the whole flood: the stalled browser's place is never dropped.
    pier = await startPier(["--demo", "--replay-bytes", String(64 * 1024 * 1024)]);
    const stalled = await connectBrowser(pier);
    stalled.ws.pause();
    const healthy = await connectBrowser(pier);
    const seen = watch(healthy);

    await flood(healthy);
    expect(seen.maxGapMs()).toBeLessThan(MAX_HEALTHY_GAP_MS);
    expect(stalled.bytes().length).toBe(0);

    stalled.ws.resume();
    const [healthyStream, stalledStream] = await syncPoint(healthy, [healthy, stalled]);
    expect(stalledStream!.length).toBe(healthyStream!.length);
    expect(stalledStream!.equals(healthyStream!)).toBe(true);
    expect(stalled.invalidLines).toEqual([]);
    // It is a live browser again: still connected, and it gets what pi writes next.
    const [after] = await syncPoint(stalled, [stalled]);
    expect(after!.length).toBeGreaterThan(stalledStream!.length);
    expect(pier.process.exitCode).toBeNull();
    await Promise.all([healthy.close(), stalled.close()]);
  }, 180_000);

  it("is closed with 4008 once the replay no longer holds its place, after a clean prefix, and can connect again", async () => {
    pier = await startPier(["--demo", "--replay-bytes", String(64 * 1024)]);
    const stalled = await connectBrowser(pier);
    stalled.ws.pause();
    const healthy = await connectBrowser(pier);
    const seen = watch(healthy);

    const flooding = flood(healthy);
    // Well past what the stalled browser's socket buffers and queue can hold,
    // and past the stall detection: the relay has given up on it by now.
    await healthy.waitUntil(() => seen.bytes() > 12_000_000, "12 MB of the flood on the healthy browser", 90_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    stalled.ws.resume();
    const closed = await stalled.closed;
    expect(closed).toEqual({ code: CLOSE_TOO_SLOW, reason: expect.stringMatching(/too slow/) });
    await flooding;
    expect(seen.maxGapMs()).toBeLessThan(MAX_HEALTHY_GAP_MS);

    // What it got before the close is exactly the start of what the healthy one got.
    const got = stalled.bytes();
    expect(got.length).toBeGreaterThan(0);
    expect(healthy.bytes().subarray(0, got.length).equals(got)).toBe(true);

    // Its page reconnects and rebuilds from the (truncated) replay; pi answers it.
    const again = await connectBrowser(pier);
    expect(again.hello.replay.truncated).toBe(true);
    expect(again.invalidLines).toEqual([]);
    const id = commandId("state");
    again.send({ type: "get_state", id });
    expect(await again.waitForRecord((record) => record.id === id)).toMatchObject({ success: true });
    await Promise.all([healthy.close(), again.close()]);
  }, 180_000);
});
