// What pi does with queued steering and follow-up messages when a run is
// aborted, on the pinned pi and on 1.6.0 (the contract-pi-1.6 project runs
// this file again): the page's queue panel says what this proves
// (web/src/components/controls/QueueControls.svelte), and its "Send now"
// sends what sendNowCommands plans.
import { afterEach, describe, expect, it } from "vitest";
import type { Scenario } from "../../relay/src/demo/scenario.ts";
import { sendNowCommands } from "../src/lib/controls/queue.ts";
import { expectReducerMatchesPi, FAST, startSession, type PiSession } from "./contract/pi-session.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const text = (t: string) => ({ kind: "text" as const, text: t });
const one = (t: string) => ({ steps: [text(t)] });
const scenario: Scenario = {
  name: "queue-after-abort",
  pace: FAST,
  rules: [
    { when: { text: "hang" }, turns: [{ steps: [text("waiting for ever"), { kind: "hang" }] }] },
    { when: { text: "steer now" }, turns: [one("Steered.")] },
    { when: { text: "later please" }, turns: [one("Followed up.")] },
  ],
  fallback: one("Answered."),
};

const userTexts = (messages: readonly Record<string, unknown>[]) => messages.filter((m) => m.role === "user").map((m) => (m.content as { text: string }[])[0]!.text);

/** A hanging run with a steer and a follow-up queued, then aborted. */
async function abortWithQueue(s: PiSession): Promise<void> {
  const from = s.pi.records.length;
  await s.prompt("hang");
  await s.pi.waitFor((r) => r.assistantMessageEvent?.type === "text_delta", from);
  expect(await s.send({ type: "steer", message: "steer now" })).toMatchObject({ success: true });
  expect(await s.send({ type: "follow_up", message: "later please" })).toMatchObject({ success: true });
  expect(await s.send({ type: "abort" })).toMatchObject({ success: true });
  await s.settled(from);
}

describe("queued messages when a run is aborted (real pi)", () => {
  it("abort keeps the queue, nothing runs after it, and the next prompt's run delivers what waited", async () => {
    const s = await startSession(scenario, undefined, cleanups);
    await abortWithQueue(s);
    const afterAbort = s.pi.records.length;

    // Nothing starts by itself, and the queue is still there.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(s.pi.records.slice(afterAbort).filter((r) => r.type === "agent_start" || r.type === "queue_update")).toEqual([]);
    const state = await s.pi.request({ type: "get_state" });
    expect(state.data).toMatchObject({ isStreaming: false, pendingMessageCount: 2 });
    expect(s.reduce().queue).toEqual({ steering: ["steer now"], followUp: ["later please"] });

    // The next prompt carries them: the steer right after it, the follow-up at the end.
    const from = s.pi.records.length;
    await s.prompt("next");
    await s.settled(from);
    const { state: reduced, messages } = await expectReducerMatchesPi(s, "queue-after-abort");
    expect(userTexts(messages)).toEqual(["hang", "next", "steer now", "later please"]);
    expect(reduced.queue).toEqual({ steering: [], followUp: [] });
  });

  it("after the abort, clear_queue answers what waited (edit, discard) and the page's send-now runs it in order", async () => {
    const s = await startSession(scenario, undefined, cleanups);
    await abortWithQueue(s);

    const cleared = await s.send({ type: "clear_queue" });
    expect(cleared).toMatchObject({ success: true, data: { steering: ["steer now"], followUp: ["later please"] } });
    expect(s.reduce().queue).toEqual({ steering: [], followUp: [] });

    // Send now: queue a follow-up again while idle (it waits, no run starts), then prompt the steer.
    const from = s.pi.records.length;
    const commands = sendNowCommands(cleared.data);
    expect(commands).toEqual([
      { type: "follow_up", message: "later please" },
      { type: "prompt", message: "steer now" },
    ]);
    for (const command of commands) expect(await s.send(command)).toMatchObject({ success: true });
    await s.settled(from);
    expect(s.pi.records.slice(from).filter((r) => r.type === "agent_start")).toHaveLength(1);
    const { messages } = await expectReducerMatchesPi(s, "queue-send-now");
    expect(userTexts(messages)).toEqual(["hang", "steer now", "later please"]);
    const answers = messages.filter((m) => m.role === "assistant").map((m) => (m.content as { type: string; text?: string }[]).find((c) => c.type === "text")?.text);
    expect(answers).toEqual(["waiting for ever", "Steered.", "Followed up."]);
  });
});
