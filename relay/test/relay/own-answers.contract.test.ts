// Issue #31, hole 5: a viewer could stall everyone. Against a real pier and
// pi, with hand-made WebSocket browsers: the answer to a read-only command
// goes to the browser that asked and to no one else (not the driver, not
// the replay a late joiner gets); a flood of reads is refused before pi
// sees it, so the driver's next answer stays quick and pi's memory flat; an
// id taken from a driver's command cannot take the driver's answer; a
// rename loop does not flood the room with presence frames; and a revoked
// viewer's reads go nowhere.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RelayFrame } from "@pier/protocol";
import { commandId, connectBrowser, exchangeToken, startPier, type Browser, type PiRecord, type RunningPier } from "../support/pier-process.ts";

const hello = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));

type Frame<T extends RelayFrame["type"]> = Extract<RelayFrame, { type: T }>;

async function makeViewerLink(pier: RunningPier, driver: Browser): Promise<{ url: string; linkId: string }> {
  const before = driver.frames.filter((f) => f.type === "link_created").length;
  driver.send({ type: "pier.create_link", role: "viewer" });
  const frame = await driver.waitUntil(() => driver.frames.filter((f): f is Frame<"link_created"> => f.type === "link_created")[before], "link_created");
  return { url: `http://${pier.host}/?token=${frame.token}`, linkId: frame.link.id };
}

const responseTo = (browser: Browser, id: string) => browser.waitForRecord((r) => r.type === "response" && r.id === id);
const responses = (browser: Browser, predicate: (record: PiRecord) => boolean = () => true) => browser.records.filter((r) => r.type === "response" && predicate(r));
const refusals = (browser: Browser) => browser.frames.filter((f): f is Frame<"error"> => f.type === "error" && f.code === "rate_limited");
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** pi's resident memory now and at its peak, in MB (Linux /proc). */
function piMemory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: Math.round(kb("VmRSS") / 1024), peak: Math.round(kb("VmHWM") / 1024) };
}

describe("a read's answer goes to its asker alone", () => {
  let pier: RunningPier;
  let driver: Browser;
  let viewer: Browser;
  let viewerLink: { url: string; linkId: string };

  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", hello]);
    driver = await connectBrowser(pier);
    viewerLink = await makeViewerLink(pier, driver);
    viewer = await connectBrowser(pier, { cookie: await exchangeToken(viewerLink.url, pier.port) });
    await viewer.waitForFrame("replay_end");
    // A session worth reading: one prompt of ~600 KB, answered by the scripted model.
    const id = commandId("big");
    driver.send({ id, type: "prompt", message: `Remember this: ${"lorem ipsum dolor sit amet ".repeat(24_000)}` });
    await driver.waitForRecord((r) => r.type === "agent_settled", 30_000);
  });
  afterAll(async () => {
    await viewer?.close();
    await driver?.close();
    await pier?.stop();
  });

  it("a viewer's get_messages reaches the viewer, not the driver, not a late joiner's replay; the driver's get_state likewise", async () => {
    const viewerRead = commandId("viewer-read");
    viewer.send({ id: viewerRead, type: "get_messages" });
    const answer = await responseTo(viewer, viewerRead);
    expect(answer.success).toBe(true);
    expect(JSON.stringify(answer.data).length).toBeGreaterThan(600_000);

    const driverRead = commandId("driver-read");
    driver.send({ id: driverRead, type: "get_state" });
    await responseTo(driver, driverRead);
    // Something both must get after both answers, to know nothing else is on its way.
    const marker = commandId("marker");
    driver.send({ id: marker, type: "set_session_name", name: "own answers" });
    await responseTo(driver, marker);
    await responseTo(viewer, marker);

    expect(responses(driver, (r) => r.id === viewerRead)).toEqual([]);
    expect(responses(viewer, (r) => r.id === driverRead)).toEqual([]);
    // The driver is not told of the viewer's read either (command_sent is for commands whose effects everyone sees).
    expect(driver.frames.some((f) => f.type === "command_sent" && f.line.includes(viewerRead))).toBe(false);

    const late = await connectBrowser(pier);
    await late.waitForFrame("replay_end");
    const replay = late.replayBytes().toString("utf8");
    expect(replay).not.toContain(viewerRead);
    expect(replay).not.toContain(driverRead);
    expect(replay).toContain(marker);
    expect(late.invalidLines).toEqual([]);
    await late.close();
    expect(viewer.invalidLines).toEqual([]);
    expect(driver.invalidLines).toEqual([]);
  });

  it("a flood of 1,000 reads from a viewer is refused before pi sees it; the driver gets none of it and its next answer stays quick", async () => {
    const pid = driver.hello.child.state === "running" ? driver.hello.child.pid : NaN;
    const before = piMemory(pid);
    const driverResponsesBefore = responses(driver).length;
    const refusedBefore = refusals(viewer).length;
    const flood = Array.from({ length: 1000 }, () => commandId("flood"));
    for (const id of flood) viewer.send({ id, type: "get_messages" });
    const started = performance.now();
    const ask = commandId("after-flood");
    driver.send({ id: ask, type: "get_state" });
    await responseTo(driver, ask);
    const answerMs = performance.now() - started;
    // Every one of the 1,000 is answered or refused.
    await viewer.waitUntil(() => refusals(viewer).length - refusedBefore + responses(viewer, (r) => flood.includes(r.id)).length === flood.length, "every read answered or refused", 60_000);
    const refused = refusals(viewer).length - refusedBefore;
    const after = piMemory(pid);
    console.log(
      `flood: ${refused} of 1000 refused, ${flood.length - refused} answered; the driver's get_state took ${answerMs.toFixed(0)} ms; ` +
        `pi RSS ${before.rss} → ${after.rss} MB (peak ${before.peak} → ${after.peak} MB)`,
    );
    expect(refused).toBeGreaterThanOrEqual(900);
    for (const frame of refusals(viewer).slice(refusedBefore)) expect(flood).toContain(frame.command?.id);
    // Only the driver's own answer reached it.
    expect(
      responses(driver)
        .slice(driverResponsesBefore)
        .map((r) => r.id),
    ).toEqual([ask]);
  });

  it("an id taken from the driver's command cannot take the driver's answer", async () => {
    // Every browser sees the driver's commands (command_sent), ids included.
    const driverId = commandId("driver-own");
    driver.send({ id: driverId, type: "get_session_stats" });
    viewer.send({ id: driverId, type: "get_session_stats" });
    const stolen = await viewer.waitForFrame("error", (f) => f.command?.id === driverId);
    expect(stolen.code).toBe("rate_limited");
    expect((await responseTo(driver, driverId)).command).toBe("get_session_stats");

    const prompted = commandId("driver-prompt");
    driver.send({ id: prompted, type: "set_session_name", name: "mine" });
    viewer.send({ id: prompted, type: "get_state" });
    const refused = await viewer.waitForFrame("error", (f) => f.command?.id === prompted);
    expect(refused.message).toContain("another browser");
    const answer = await responseTo(driver, prompted);
    expect(answer.command).toBe("set_session_name");
    expect(responses(driver, (r) => r.id === prompted)).toHaveLength(1);
  });

  it("3,000 renames reach the driver as a handful of presence frames", async () => {
    const presenceBefore = driver.frames.filter((f) => f.type === "presence" && f.event === "changed").length;
    for (let i = 0; i < 3000; i++) viewer.send({ type: "pier.introduce", name: `Pupil ${i}` });
    // After the last rename's window has closed: everything that was going to go out has.
    const check = commandId("renames-done");
    viewer.send({ id: check, type: "get_state" });
    await responseTo(viewer, check);
    await delay(600);
    const changed = driver.frames.filter((f): f is Frame<"presence"> & { event: "changed" } => f.type === "presence" && f.event === "changed").slice(presenceBefore);
    console.log(`renames: 3000 sent, ${changed.length} presence frames at the driver, ${refusals(viewer).filter((f) => f.command?.type === "pier.introduce").length} refused`);
    expect(changed.length).toBeGreaterThanOrEqual(1);
    expect(changed.length).toBeLessThanOrEqual(30);
    expect(changed.every((f) => f.person.clientId === viewer.hello.you.clientId)).toBe(true);
  });

  it("a revoked viewer's reads go nowhere", async () => {
    const cookie = await exchangeToken(viewerLink.url, pier.port);
    const doomed = await connectBrowser(pier, { cookie });
    await doomed.waitForFrame("replay_end");
    const reads = Array.from({ length: 20 }, () => commandId("revoked"));
    driver.send({ type: "pier.revoke_link", linkId: viewerLink.linkId });
    for (const id of reads) doomed.send({ id, type: "get_messages" });
    expect((await doomed.closed).code).toBe(4403);
    const marker = commandId("after-revoke");
    driver.send({ id: marker, type: "get_state" });
    await responseTo(driver, marker);
    expect(responses(driver, (r) => reads.includes(r.id))).toEqual([]);
    expect(responses(doomed, (r) => reads.includes(r.id))).toEqual([]);
  });
});
