// Late joiners and reloads: the relay keeps a bounded copy of pi's stdout for
// the current child, so a browser that connects mid-answer rebuilds exactly
// the byte stream one that was there from the start received.
import { fileURLToPath } from "node:url";
import { JsonlDecoder } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandId, connectBrowser, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";

const LONG_STREAM = fileURLToPath(new URL("./fixtures/long-stream.json", import.meta.url));
const REPLAY_LIMIT = 64 * 1024;

const textDeltas = (browser: Browser) => browser.records.filter((record) => record.type === "message_update" && record.assistantMessageEvent?.type === "text_delta").length;

/**
 * Has `browser` ask pi for its state and waits until every browser has the
 * answer; returns, per browser, its stream up to and including that answer's
 * line. Whatever pi writes later cannot make the prefixes differ.
 */
async function syncPoint(from: Browser, all: Browser[]): Promise<Buffer[]> {
  const id = commandId("sync");
  // A command whose answer every browser gets (a query's goes to its asker alone), and that changes nothing here.
  from.send({ type: "abort_bash", id });
  await Promise.all(all.map((browser) => browser.waitForRecord((record) => record.type === "response" && record.id === id)));
  return all.map((browser) => {
    const bytes = browser.bytes();
    const at = bytes.indexOf(`"id":"${id}"`);
    const lf = bytes.indexOf(0x0a, at);
    expect(at).toBeGreaterThan(-1);
    expect(lf).toBeGreaterThan(at);
    return bytes.subarray(0, lf + 1);
  });
}

/** Chunks (binary frames) received up to `length` bytes. */
function chunksUpTo(browser: Browser, length: number): Buffer[] {
  const chunks: Buffer[] = [];
  let total = 0;
  for (const chunk of browser.chunks) {
    if (total >= length) break;
    chunks.push(chunk);
    total += chunk.length;
  }
  return chunks;
}

describe("a browser that joins mid-answer (default replay bound)", () => {
  let pier: RunningPier;
  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", LONG_STREAM]);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it("gets the whole stream so far, then the live stream, byte for byte like the first browser", async () => {
    const a = await connectBrowser(pier);
    expect(a.hello.replay.truncated).toBe(false);
    const promptId = commandId("prompt");
    a.send({ type: "prompt", id: promptId, message: "Stream something long, please." });
    await a.waitUntil(() => textDeltas(a) >= 20, "20 text deltas on browser A");

    const b = await connectBrowser(pier);
    expect(b.hello.peers).toBe(2);
    expect(b.hello.child).toMatchObject({ state: "running", epoch: a.hello.child.epoch });
    expect(b.hello.replay.truncated).toBe(false);
    expect(b.hello.replay.bytes).toBeGreaterThan(0);
    // The replay announced in hello is what arrived before replay_end.
    expect(b.replayBytes().length).toBe(b.hello.replay.bytes);
    // B joined mid-answer: the run was still going when its replay ended.
    expect(b.records.some((record) => record.type === "agent_settled")).toBe(false);

    await Promise.all([a, b].map((browser) => browser.waitForRecord((record) => record.type === "agent_settled", 30_000)));
    const [streamA, streamB] = await syncPoint(a, [a, b]);
    // A started at the child's first byte (its own replay included), and so
    // did B's replay: the two streams are the same bytes...
    expect(streamB!.length).toBe(streamA!.length);
    expect(streamB!.equals(streamA!)).toBe(true);
    // ...cut into the same chunks (the relay keeps pi's read boundaries).
    const chunkSizes = (browser: Browser) => chunksUpTo(browser, streamA!.length).map((chunk) => chunk.length);
    expect(chunkSizes(b)).toEqual(chunkSizes(a));

    expect(a.invalidLines).toEqual([]);
    expect(b.invalidLines).toEqual([]);
    expect(a.records.find((record) => record.type === "response" && record.id === promptId)).toMatchObject({ success: true });
    const finalText = (browser: Browser) => browser.records.findLast((record) => record.type === "message_end" && record.message?.role === "assistant")?.message.content;
    expect(finalText(b)).toEqual(finalText(a));
    expect(textDeltas(b)).toBe(textDeltas(a));

    // A reload after the run (new socket, same relay) replays all of it too.
    await a.close();
    const reloaded = await connectBrowser(pier);
    expect(reloaded.hello.replay.truncated).toBe(false);
    expect(reloaded.replayBytes().subarray(0, streamA!.length).equals(streamA!)).toBe(true);
    await Promise.all([b.close(), reloaded.close()]);
  });
});

describe("a browser that joins after more output than --replay-bytes", () => {
  let pier: RunningPier;
  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", LONG_STREAM, "--replay-bytes", String(REPLAY_LIMIT)]);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it("gets a truncated replay that starts on a record boundary and continues seamlessly", async () => {
    const a = await connectBrowser(pier);
    a.send({ type: "prompt", id: commandId("prompt"), message: "Stream more than the replay can hold." });
    // Well past the bound, with the answer still streaming.
    await a.waitUntil(() => a.bytes().length > REPLAY_LIMIT + 32 * 1024, "browser A to receive 96 KiB");

    const b = await connectBrowser(pier);
    expect(b.hello.replay.truncated).toBe(true);
    expect(b.hello.replay.bytes).toBeLessThanOrEqual(REPLAY_LIMIT);
    expect(b.hello.replay.bytes).toBeGreaterThan(0);
    const replay = b.replayBytes();
    expect(replay.length).toBe(b.hello.replay.bytes);
    expect(b.records.some((record) => record.type === "agent_settled")).toBe(false);

    // Every complete line of the replay is a JSON record: it starts at a
    // record boundary (a cut record would be a non-JSON first line).
    const decoder = new JsonlDecoder();
    const replayLines = decoder.push(replay);
    expect(replayLines.length).toBeGreaterThan(10);
    expect(replayLines.filter((line) => line.kind !== "record")).toEqual([]);

    await Promise.all([a, b].map((browser) => browser.waitForRecord((record) => record.type === "agent_settled", 30_000)));
    const [streamA, streamB] = await syncPoint(a, [a, b]);
    // B's stream (replay + live) is exactly the tail of A's, beginning right
    // after one of A's line feeds: nothing lost, nothing doubled at the seam.
    expect(streamB!.length).toBeLessThan(streamA!.length);
    const offset = streamA!.length - streamB!.length;
    expect(streamA![offset - 1]).toBe(0x0a);
    expect(streamA!.subarray(offset).equals(streamB!)).toBe(true);
    // The replay ended with what A had received at that point.
    expect(streamA!.subarray(offset, offset + replay.length).equals(replay)).toBe(true);
    expect(b.invalidLines).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });
});
