// A classroom, against a real pier and pi: a driver shares one viewer link,
// twenty viewers open it, the driver prompts a long-ish answer, and a
// twenty-first viewer opens the same link while the answer streams. Once the
// run has settled, everybody holds the same pi records as the driver (the
// late one from the replay plus the live stream), and no viewer could send
// pi anything along the way. (How the relay copes with 200 viewers is
// measured, not tested: bench/classroom.bench.ts.)
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RelayFrame } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WINDOW_MS } from "../../src/coalescer.ts";
import { peopleKnownTo } from "../support/people-known.ts";
import { commandId, connectBrowser, exchangeToken, startPier, type Browser, type PiRecord, type RunningPier } from "../support/pier-process.ts";

const VIEWERS = 20;
/** About 400 deltas of 8 characters, one every ~8 ms: 3–4 s of streaming, long enough to join in the middle. */
const ANSWER = Array.from({ length: 100 }, (_, i) => `Sentence ${String(i).padStart(3, "0")} of the lesson, word by word. `).join("");
const SCENARIO = {
  name: "classroom",
  description: "relay/test/relay/classroom.contract.test.ts: one long-ish answer, streamed at a steady pace.",
  pace: { chunkChars: 8, delayMs: 8 },
  rules: [],
  fallback: { steps: [{ kind: "text", text: ANSWER }] },
};

const isTextDelta = (record: PiRecord) => record.type === "message_update" && record.assistantMessageEvent?.type === "text_delta";
const textDeltas = (browser: Browser) => browser.records.filter(isTextDelta).length;
const settled = (browser: Browser) => browser.records.findIndex((record) => record.type === "agent_settled");
/** Everything a browser decoded up to and including the run's agent_settled. */
const throughSettled = (browser: Browser) => browser.records.slice(0, settled(browser) + 1);

describe("a classroom on one viewer link", () => {
  let dir: string;
  let pier: RunningPier;
  let driver: Browser;
  let linkUrl: string;
  const viewers: Browser[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pier-classroom-"));
    const scenario = join(dir, "classroom.json");
    await writeFile(scenario, JSON.stringify(SCENARIO));
    pier = await startPier(["--demo", "--demo-scenario", scenario]);
    driver = await connectBrowser(pier);
    driver.send({ type: "pier.create_link", role: "viewer" });
    const created = await driver.waitForFrame("link_created");
    linkUrl = `http://${pier.host}/?token=${created.token}`;
  });
  afterAll(async () => {
    await Promise.all(viewers.map((viewer) => viewer.close()));
    await driver?.close();
    await pier?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The clientIds a browser believes are here, sorted. */
  const idsKnownTo = (browser: Browser) =>
    peopleKnownTo(browser)
      .map((person) => person.clientId)
      .sort();
  /** A browser opening the viewer link: its own cookie, then the socket. */
  const openViewerLink = async () => connectBrowser(pier, { cookie: await exchangeToken(linkUrl, pier.port) });

  it("gives a late viewer the same records as the driver and the viewers who were there, and lets no viewer command pi", async () => {
    viewers.push(...(await Promise.all(Array.from({ length: VIEWERS }, openViewerLink))));
    expect(viewers.map((viewer) => viewer.hello.you.role)).toEqual(Array(VIEWERS).fill("viewer"));

    const promptId = commandId("classroom");
    driver.send({ type: "prompt", id: promptId, message: "Teach the class something, at length." });
    // Mid-answer: a viewer tries to stop the run, and a latecomer arrives.
    await driver.waitUntil(() => textDeltas(driver) >= 40, "40 text deltas");
    const meddler = viewers[7]!;
    const abortId = commandId("viewer-abort");
    meddler.send({ type: "abort", id: abortId });
    const refused = await meddler.waitForFrame("error", (frame) => frame.command?.id === abortId);
    expect(refused.code).toBe("forbidden");

    const late = await openViewerLink();
    viewers.push(late);
    expect(late.hello.you.role).toBe("viewer");
    // It really came in the middle: its replay held part of the answer, not the end of the run.
    expect(textDeltas(late)).toBeGreaterThan(0);
    expect(settled(late)).toBe(-1);

    const everyone = [driver, ...viewers];
    await Promise.all(everyone.map((browser) => browser.waitUntil(() => settled(browser) !== -1, "agent_settled", 60_000)));

    const expected = throughSettled(driver);
    expect(expected.find((record) => record.type === "response" && record.id === promptId)).toMatchObject({ success: true });
    // The abort never reached pi: the whole answer streamed.
    const text = expected
      .filter(isTextDelta)
      .map((record) => record.assistantMessageEvent.delta as string)
      .join("");
    expect(text).toBe(ANSWER);
    expect(expected.some((record) => record.type === "response" && record.id === abortId)).toBe(false);
    for (const [i, viewer] of viewers.entries()) {
      expect(viewer.invalidLines, `viewer ${i}`).toEqual([]);
      expect(throughSettled(viewer), `viewer ${i}${viewer === late ? " (the latecomer)" : ""}`).toEqual(expected);
    }
    // Nobody heard of a command from the viewer: the relay sent none.
    const announced = everyone.flatMap((browser) => browser.frames.filter((frame): frame is Extract<RelayFrame, { type: "command_sent" }> => frame.type === "command_sent"));
    expect(announced.filter((frame) => frame.sender.role !== "driver")).toEqual([]);
    expect(announced.some((frame) => frame.line.includes(abortId))).toBe(false);
  });

  it("tells the pages already open of a class arriving together in a few frames, and every page knows everyone", async () => {
    const presenceAtDriver = () => driver.frames.filter((frame) => frame.type === "presence" && frame.event !== "left").length;
    const before = presenceAtDriver();
    const helloAt: number[] = [];
    const wave = await Promise.all(
      Array.from({ length: VIEWERS }, async () => {
        const browser = await openViewerLink();
        helloAt.push(performance.now());
        return browser;
      }),
    );
    viewers.push(...wave);
    const everyone = [driver, ...viewers];
    const ids = everyone.map((browser) => browser.hello.clientId).sort();
    // The driver, those who were here and each newcomer: each one's hello plus the presence frames after it name everyone.
    await Promise.all(everyone.map((browser) => browser.waitUntil(() => idsKnownTo(browser).join() === ids.join(), `all ${ids.length} people known`, 10_000)));
    // A lone joiner is told at once, and the joiners of each window after it together.
    const spreadMs = Math.max(...helloAt) - Math.min(...helloAt);
    const frames = presenceAtDriver() - before;
    console.log(`a class of ${VIEWERS} arriving within ${spreadMs.toFixed(0)} ms: ${frames} presence frames at the driver`);
    expect(frames).toBeLessThanOrEqual(2 + Math.ceil(spreadMs / WINDOW_MS));
    expect(driver.frames.some((frame) => frame.type === "presence" && frame.event === "arrived" && frame.people.length > 1)).toBe(true);

    // Five of them leave again: everyone else forgets them.
    const leaving = wave.splice(0, 5);
    viewers.splice(viewers.indexOf(leaving[0]!), 5);
    await Promise.all(leaving.map((browser) => browser.close()));
    const staying = [driver, ...viewers];
    const stayingIds = staying.map((browser) => browser.hello.clientId).sort();
    await Promise.all(staying.map((browser) => browser.waitUntil(() => idsKnownTo(browser).join() === stayingIds.join(), `the ${stayingIds.length} left known`, 10_000)));
  });
});
