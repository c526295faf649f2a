// Issue #35, target 1: each browser pays only for itself. Against a real
// pier and pi (the scripted model), with hand-made WebSocket browsers, most
// of them viewers: pi's stdin is tapped (support/stdin-tee-pi.mjs) to count
// the get_entries that reach pi. A class joining at once costs pi one
// get_entries; each joiner gets the same entries, byte for byte, as the
// browser whose request pi answered, with its own id, and no one else's
// answer; everyone still gets every event; and after a new prompt the
// relay's answer holds the new messages (pi is asked again).
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RelayFrame } from "@pier/protocol";
import { piUnderTest } from "../support/pi-under-test.ts";
import { commandId, connectBrowser, exchangeToken, startPier, type Browser, type PiRecord, type RunningPier } from "../support/pier-process.ts";

const hello = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));
const tee = fileURLToPath(new URL("../support/stdin-tee-pi.mjs", import.meta.url));
const CLASS = 8;

type Frame<T extends RelayFrame["type"]> = Extract<RelayFrame, { type: T }>;

/** The raw line (bytes as pi or the relay wrote them, LF excluded) of the response with `id` in what `browser` received. */
function answerLine(browser: Browser, id: string): string {
  const header = `{"id":${JSON.stringify(id)},"type":"response",`;
  const lines = browser
    .bytes()
    .toString("utf8")
    .split("\n")
    .filter((line) => line.startsWith(header));
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

/** Everything after the line's header (`"success":true,"data":…}`): what must be identical between two answers. */
const afterHeader = (line: string) => line.slice(line.indexOf('"command":"get_entries",') + '"command":"get_entries",'.length);

const responseTo = (browser: Browser, id: string) => browser.waitForRecord((r) => r.type === "response" && r.id === id, 30_000);

describe("the relay answers a class's get_entries once pi has (entries-cache.ts)", () => {
  let pier: RunningPier;
  let driver: Browser;
  let viewerUrl: string;
  const log = join(mkdtempSync(join(tmpdir(), "pier-tee-")), "stdin.log");
  const browsers: Browser[] = [];
  /** get_entries lines pier has written to pi's stdin so far. */
  const entriesAskedOfPi = () =>
    readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line.includes('"type":"get_entries"')).length;

  async function viewer(): Promise<Browser> {
    const browser = await connectBrowser(pier, { cookie: await exchangeToken(viewerUrl, pier.port) });
    browsers.push(browser);
    return browser;
  }

  /** A read answered after everything pi wrote before it: pi's output is quiet up to here. */
  async function settled(): Promise<void> {
    const id = commandId("quiet");
    driver.send({ id, type: "get_state" });
    await responseTo(driver, id);
  }

  async function prompt(message: string): Promise<string> {
    const id = commandId("prompt");
    const before = driver.records.filter((r) => r.type === "agent_settled").length;
    driver.send({ id, type: "prompt", message });
    await driver.waitUntil(() => driver.records.filter((r) => r.type === "agent_settled").length > before, "agent_settled", 30_000);
    await settled();
    return id;
  }

  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", hello, "--pi", tee], {
      env: { ...process.env, PIER_TEE_PI_CLI: piUnderTest.cliPath, PIER_TEE_LOG: log },
    });
    driver = await connectBrowser(pier);
    browsers.push(driver);
    driver.send({ type: "pier.create_link", role: "viewer" });
    const link = await driver.waitForFrame("link_created");
    viewerUrl = `http://${pier.host}/?token=${(link as Frame<"link_created">).token}`;
    await prompt("hello");
    await prompt(`a second question with "quotes", a \\ and ✓`);
  });
  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    await pier?.stop();
  });

  it("a class of viewers asking at once costs pi one get_entries; each gets its own answer, the same entries byte for byte", async () => {
    const early = await viewer();
    const late = await Promise.all(Array.from({ length: CLASS }, () => viewer()));
    const before = entriesAskedOfPi();
    const ids = [early, ...late].map((browser) => {
      const id = commandId("load");
      browser.send({ id, type: "get_entries" });
      return id;
    });
    await Promise.all([early, ...late].map((browser, i) => responseTo(browser, ids[i]!)));
    expect(entriesAskedOfPi() - before).toBe(1);

    const reference = afterHeader(answerLine(early, ids[0]!));
    const parsed = JSON.parse(answerLine(early, ids[0]!)) as PiRecord;
    expect(parsed.success).toBe(true);
    expect(parsed.data.entries.length).toBeGreaterThanOrEqual(4);
    [early, ...late].forEach((browser, i) => {
      expect(afterHeader(answerLine(browser, ids[i]!))).toBe(reference);
      // No other browser's answer, and nothing the stream could not frame.
      const others = browser.records.filter((r) => r.type === "response" && ids.includes(r.id) && r.id !== ids[i]);
      expect(others).toEqual([]);
      expect(browser.invalidLines).toEqual([]);
    });
    // The driver asked for nothing, and got none of it.
    expect(driver.records.filter((r) => r.type === "response" && ids.includes(r.id))).toEqual([]);

    // While nothing moves, a newcomer is answered by the relay alone; so is a reconnecting page's `since`.
    const newcomer = await viewer();
    const again = commandId("again");
    newcomer.send({ id: again, type: "get_entries" });
    const cursor = parsed.data.entries[1].id as string;
    const since = commandId("since");
    newcomer.send({ id: since, type: "get_entries", since: cursor });
    await responseTo(newcomer, again);
    const sinceAnswer = await responseTo(newcomer, since);
    expect(entriesAskedOfPi() - before).toBe(1);
    expect(afterHeader(answerLine(newcomer, again))).toBe(reference);
    // What pi prints for `since`: its entries after the cursor, with the same leaf (JSON.stringify of pi's slice).
    expect(afterHeader(answerLine(newcomer, since))).toBe(
      afterHeader(JSON.stringify({ id: since, type: "response", command: "get_entries", success: true, data: { entries: parsed.data.entries.slice(2), leafId: parsed.data.leafId } })),
    );
    expect(sinceAnswer.data.entries).toHaveLength(parsed.data.entries.length - 2);
    // A cursor the relay does not know goes to pi, which answers it.
    const unknown = commandId("unknown");
    newcomer.send({ id: unknown, type: "get_entries", since: "no-such-entry" });
    expect((await responseTo(newcomer, unknown)).success).toBe(false);
    expect(entriesAskedOfPi() - before).toBe(2);
  });

  it("after a new prompt every browser got every event, and the next answer holds the new messages (pi is asked again)", async () => {
    const watchers = browsers.filter((browser) => browser.ws.readyState === browser.ws.OPEN);
    const before = entriesAskedOfPi();
    const promptId = await prompt("a third question, after the class joined");
    // Every browser saw the same records of that run, from the prompt's answer to agent_settled, in the same order.
    const run = (browser: Browser) => {
      const from = browser.records.findIndex((r) => r.type === "response" && r.id === promptId);
      expect(from).toBeGreaterThanOrEqual(0);
      const to = browser.records.findIndex((r, i) => i > from && r.type === "agent_settled");
      return browser.records.slice(from, to + 1).map((r) => JSON.stringify(r));
    };
    const expected = run(driver);
    expect(expected.some((line) => line.includes('"message_end"'))).toBe(true);
    // prompt() waited for the driver's agent_settled only: each socket gets it in its own time.
    const settled = (browser: Browser) => {
      const from = browser.records.findIndex((r) => r.type === "response" && r.id === promptId);
      return from >= 0 && browser.records.some((r, i) => i > from && r.type === "agent_settled");
    };
    for (const browser of watchers) await browser.waitUntil(() => settled(browser), "agent_settled after the prompt", 30_000);
    for (const browser of watchers) expect(run(browser)).toEqual(expected);

    // Two joiners at once, after the run: pi is asked (once), and its answer has the third question.
    const [a, b] = [await viewer(), await viewer()];
    const [idA, idB] = [commandId("after-a"), commandId("after-b")];
    a.send({ id: idA, type: "get_entries" });
    b.send({ id: idB, type: "get_entries" });
    const answer = await responseTo(a, idA);
    await responseTo(b, idB);
    expect(entriesAskedOfPi() - before).toBe(1);
    expect(JSON.stringify(answer.data.entries)).toContain("a third question, after the class joined");
    expect(afterHeader(answerLine(b, idB))).toBe(afterHeader(answerLine(a, idA)));
  });

  it("a driver's command written to pi ends what the relay knows, even before pi says anything", async () => {
    const warm = commandId("warm");
    driver.send({ id: warm, type: "get_entries" });
    await responseTo(driver, warm);
    const before = entriesAskedOfPi();
    // Renaming the session adds an entry; a get_entries sent right behind it (same socket, so in this order) must see it.
    driver.send({ id: commandId("rename"), type: "set_session_name", name: "cache checked" });
    const after = commandId("after-rename");
    driver.send({ id: after, type: "get_entries" });
    const answer = await responseTo(driver, after);
    expect(entriesAskedOfPi() - before).toBe(1);
    expect(JSON.stringify(answer.data.entries)).toContain("cache checked");
  });
});

describe("requests waiting on the entries cache when pi goes away (entries-cache.ts, read-routing.ts)", () => {
  let pier: RunningPier;
  const browsers: Browser[] = [];
  const log = join(mkdtempSync(join(tmpdir(), "pier-tee-")), "stdin.log");
  /** A get_entries whose id holds this never reaches pi (the tee keeps it): pi is "answering" it until it exits. */
  const HOLD = "held-by-the-tee";

  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", hello, "--pi", tee], {
      env: { ...process.env, PIER_TEE_PI_CLI: piUnderTest.cliPath, PIER_TEE_LOG: log, PIER_TEE_HOLD: HOLD },
    });
  });
  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    await pier?.stop();
  });

  it("each waiter gets an error with its id when pi restarts before answering, and asking again works", async () => {
    const driver = await connectBrowser(pier);
    browsers.push(driver);
    driver.send({ type: "pier.create_link", role: "viewer" });
    const link = (await driver.waitForFrame("link_created")) as Frame<"link_created">;
    const viewerUrl = `http://${pier.host}/?token=${link.token}`;
    const [asker, waiterA, waiterB] = await Promise.all([0, 1, 2].map(async () => connectBrowser(pier, { cookie: await exchangeToken(viewerUrl, pier.port) })));
    browsers.push(asker!, waiterA!, waiterB!);

    // The asker's get_entries goes to pi (and is held there); the other two are the same request, so they wait for it.
    const held = commandId(HOLD);
    asker!.send({ id: held, type: "get_entries" });
    // pi's stdin says nothing back: look at the tee's log until the line is there.
    for (let tries = 0; !(existsSync(log) && readFileSync(log, "utf8").includes(held)); tries++) {
      if (tries > 200) throw new Error("the held get_entries never reached pi's stdin");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const waiting = [waiterA!, waiterB!].map((browser) => {
      const id = commandId("waits");
      browser.send({ id, type: "get_entries" });
      return id;
    });
    // A read sent after it on the same socket and answered: the relay has taken the get_entries in by then.
    for (const browser of [waiterA!, waiterB!]) {
      const quiet = commandId("quiet");
      browser.send({ id: quiet, type: "get_state" });
      await responseTo(browser, quiet);
    }
    expect(
      readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line.includes('"type":"get_entries"')),
    ).toHaveLength(1);

    driver.send({ type: "pier.restart_pi" });
    for (const [i, browser] of [waiterA!, waiterB!].entries()) {
      const refused = await browser.waitForFrame("error", (frame) => frame.command?.id === waiting[i], 20_000);
      expect(refused).toMatchObject({ code: "pi_not_running", command: { type: "get_entries", id: waiting[i] } });
      expect(refused.message).toMatch(/pi exited before answering “get_entries”/);
      await browser.waitForFrame("child_started");
      // No answer came, and no one else's.
      expect(browser.records.filter((r) => r.type === "response" && r.command === "get_entries")).toEqual([]);
    }
    await asker!.waitForFrame("child_exited");

    // Asking the new pi again is answered (the cache was dropped with the old one).
    const again = commandId("again");
    waiterA!.send({ id: again, type: "get_entries" });
    expect((await responseTo(waiterA!, again)).success).toBe(true);
  });
});
