// The reducer against a real pi 0.87.1 child and Pier's scripted model, one
// situation per test. Each ends with the same check (contract/pi-session.ts):
// the messages rebuilt from pi's raw stdout equal get_messages (minus the
// system prompt, kept apart) and the idle state equals get_state.isStreaming.
// Re-capture web/test/fixtures/<situation>.jsonl deliberately with
//   PIER_UPDATE_FIXTURES=1 pnpm exec vitest run --project contract web/test/conversation.contract.test.ts
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Scenario } from "../../relay/src/demo/scenario.ts";
import { expectReducerMatchesPi, FAST, startSession } from "./contract/pi-session.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const text = (t: string) => ({ kind: "text" as const, text: t });
const one = (t: string) => ({ steps: [text(t)] });
const FAST_RETRY = { retry: { baseDelayMs: 20 } };

describe("conversation reducer against real pi", () => {
  it("text with thinking", async () => {
    const scenario: Scenario = {
      name: "thinking",
      pace: FAST,
      rules: [],
      fallback: { steps: [{ kind: "reasoning", text: "Let me think about greetings. ".repeat(4) }, text("Hello **there**, Ada! ✨ A line\u2028with a separator.")] },
    };
    const s = await startSession(scenario, undefined, cleanups);
    const from = s.pi.records.length;
    await s.prompt("Say hello");
    await s.settled(from);
    const { state } = await expectReducerMatchesPi(s, "text-with-thinking");
    const last = state.messages.at(-1)!;
    expect(last.role === "assistant" && last.content.map((b) => b.type)).toEqual(["thinking", "text"]);
    expect(state.turn).toBeNull();
    expect(state.run.settledCount).toBe(1);
  });

  it("a bash tool call with streamed output", async () => {
    const scenario: Scenario = {
      name: "bash-tool",
      pace: FAST,
      rules: [
        {
          when: {},
          turns: [{ steps: [text("Running it."), { kind: "toolCall", name: "bash", arguments: { command: "for i in 1 2 3; do echo line $i; sleep 0.15; done" } }] }, one("Three lines.")],
        },
      ],
    };
    const s = await startSession(scenario, undefined, cleanups);
    const from = s.pi.records.length;
    await s.prompt("count");
    await s.settled(from);
    const { state, records } = await expectReducerMatchesPi(s, "bash-tool-streamed");
    expect(records.filter((r) => r.type === "tool_execution_update").length).toBeGreaterThanOrEqual(2);
    const tools = Object.values(state.tools);
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({ toolName: "bash", status: "done" });
    expect(JSON.stringify(tools[0]!.result)).toContain("line 3");
  });

  it("write, a failing edit, two parallel edits and read", async () => {
    const scenario: Scenario = {
      name: "file-tools",
      pace: FAST,
      rules: [
        {
          when: {},
          turns: [
            { steps: [{ kind: "toolCall", name: "write", arguments: { path: "notes.txt", content: "alpha\nbeta\n" } }] },
            { steps: [{ kind: "toolCall", name: "edit", arguments: { path: "notes.txt", edits: [{ oldText: "gamma", newText: "delta" }] } }] },
            {
              steps: [
                text("Two edits at once."),
                { kind: "toolCall", name: "edit", arguments: { path: "notes.txt", edits: [{ oldText: "alpha", newText: "ALPHA" }] } },
                { kind: "toolCall", name: "edit", arguments: { path: "src/greetings.js", edits: [{ oldText: "Hallo", newText: "Servus" }] } },
              ],
            },
            // Turns are picked by the number of tool results so far: 4 after the parallel pair.
            one("(unused: there are never exactly 3 tool results)"),
            { steps: [{ kind: "toolCall", name: "read", arguments: { path: "notes.txt" } }] },
            one("Done editing."),
          ],
        },
      ],
    };
    const s = await startSession(scenario, undefined, cleanups);
    const from = s.pi.records.length;
    await s.prompt("edit files");
    await s.settled(from);
    const { state } = await expectReducerMatchesPi(s, "file-tools");
    const tools = Object.values(state.tools);
    expect(tools.map((t) => [t.toolName, t.status])).toEqual([
      ["write", "done"],
      ["edit", "failed"],
      ["edit", "done"],
      ["edit", "done"],
      ["read", "done"],
    ]);
    expect(await readFile(join(s.projectDir, "notes.txt"), "utf8")).toBe("ALPHA\nbeta\n");
    const results = state.messages.filter((m) => m.role === "toolResult");
    expect(results).toHaveLength(5);
    for (const r of results) expect(state.messages[state.toolResultIndex[r.toolCallId]!]).toBe(r);
  });

  it("steer and follow-up while streaming, then clear_queue", async () => {
    const slow = { steps: [text("Working on it"), { kind: "pause" as const, ms: 700 }, text(" … still working.")] };
    const scenario: Scenario = {
      name: "queue",
      pace: FAST,
      rules: [
        { when: { text: "slow" }, turns: [slow] },
        { when: { text: "steer now" }, turns: [one("Steered.")] },
        { when: { text: "later please" }, turns: [one("Followed up.")] },
      ],
      fallback: one("Unexpected."),
    };
    const s = await startSession(scenario, undefined, cleanups);
    let from = s.pi.records.length;
    await s.prompt("slow");
    await s.pi.waitFor((r) => r.assistantMessageEvent?.type === "text_delta", from);
    expect(await s.send({ type: "steer", message: "steer now" })).toMatchObject({ success: true });
    expect(await s.send({ type: "follow_up", message: "later please" })).toMatchObject({ success: true });
    const queued = s.reduce();
    expect(queued.queue).toEqual({ steering: ["steer now"], followUp: ["later please"] });
    await s.settled(from);

    from = s.pi.records.length;
    await s.prompt("slow");
    await s.pi.waitFor((r) => r.assistantMessageEvent?.type === "text_delta", from);
    await s.send({ type: "follow_up", message: "drop me 1" });
    await s.send({ type: "steer", message: "drop me 2" });
    const cleared = await s.send({ type: "clear_queue" });
    expect(cleared).toMatchObject({ success: true, data: { steering: ["drop me 2"], followUp: ["drop me 1"] } });
    await s.settled(from);

    const { state } = await expectReducerMatchesPi(s, "steer-follow-up-clear-queue");
    expect(state.queue).toEqual({ steering: [], followUp: [] });
    const users = state.messages.filter((m) => m.role === "user").map((m) => (m.content as { text: string }[])[0]!.text);
    expect(users).toEqual(["slow", "steer now", "later please", "slow"]);
  });

  it("abort while streaming and abort during a tool", async () => {
    const scenario: Scenario = {
      name: "abort",
      pace: FAST,
      rules: [
        { when: { text: "hang" }, turns: [{ steps: [text("waiting for ever"), { kind: "hang" }] }] },
        { when: { text: "sleep" }, turns: [{ steps: [{ kind: "toolCall", name: "bash", arguments: { command: "echo started; sleep 5" } }] }, one("never")] },
      ],
    };
    const s = await startSession(scenario, undefined, cleanups);
    let from = s.pi.records.length;
    await s.prompt("hang");
    await s.pi.waitFor((r) => r.assistantMessageEvent?.type === "text_delta", from);
    expect(await s.send({ type: "abort" })).toMatchObject({ success: true });
    await s.settled(from);

    from = s.pi.records.length;
    const started = Date.now();
    await s.prompt("sleep");
    await s.pi.waitFor((r) => r.type === "tool_execution_update", from);
    expect(await s.send({ type: "abort" })).toMatchObject({ success: true });
    await s.settled(from);
    expect(Date.now() - started).toBeLessThan(4_000);

    const { state } = await expectReducerMatchesPi(s, "abort-stream-and-tool");
    const stops = state.messages.filter((m) => m.role === "assistant").map((m) => m.stopReason);
    expect(stops).toContain("aborted");
    expect(Object.values(state.tools).every((t) => t.status !== "running")).toBe(true);
  });

  it("auto-retry after a 529, a 500 and a cut stream", async () => {
    const scenario: Scenario = {
      name: "retries",
      pace: FAST,
      rules: [
        {
          when: {},
          turns: [
            {
              failFirst: [
                [{ kind: "httpError", status: 529, message: "Overloaded", errorType: "overloaded_error" }],
                [{ kind: "httpError", status: 500, message: "Internal server error" }],
                [text("partial ans"), { kind: "cut" }],
              ],
              steps: [text("Recovered after three retries.")],
            },
          ],
        },
      ],
    };
    const s = await startSession(scenario, FAST_RETRY, cleanups);
    const from = s.pi.records.length;
    await s.prompt("retry me");
    await s.settled(from);
    const { state, records } = await expectReducerMatchesPi(s, "auto-retry");
    expect(records.filter((r) => r.type === "auto_retry_start").map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(state.retry).toBeNull();
    const retries = state.markers.filter((m) => m.kind === "retry");
    expect(retries.map((m) => m.kind === "retry" && m.attempt)).toEqual([1, 2, 3]);
    expect(state.markers.at(-1)).toMatchObject({ kind: "retryEnd", success: true });
  });

  it("abort_retry during the retry delay", async () => {
    const scenario: Scenario = {
      name: "abort-retry",
      pace: FAST,
      rules: [{ when: {}, turns: [{ failFirst: [[{ kind: "httpError", status: 529, message: "Overloaded" }]], steps: [text("never")] }] }],
    };
    const s = await startSession(scenario, { retry: { baseDelayMs: 5000 } }, cleanups);
    const from = s.pi.records.length;
    const started = Date.now();
    await s.prompt("retry me");
    await s.pi.waitFor((r) => r.type === "auto_retry_start", from);
    const during = s.reduce();
    expect(during.retry).toMatchObject({ attempt: 1, delayMs: 5000 });
    expect(during.status).toBe("streaming");
    expect(await s.send({ type: "abort_retry" })).toMatchObject({ success: true });
    await s.settled(from);
    expect(Date.now() - started).toBeLessThan(4_000);
    const { state } = await expectReducerMatchesPi(s, "abort-retry");
    expect(state.retry).toBeNull();
  });

  it("manual compaction", async () => {
    const scenario: Scenario = {
      name: "compaction",
      pace: FAST,
      rules: [
        { when: { text: "first" }, turns: [one("First answer. ".repeat(30))] },
        { when: { text: "second" }, turns: [one("Second answer. ".repeat(30))] },
      ],
      // The summarisation request pi sends for `compact` matches no rule.
      fallback: one("## Goal\nSummary of the conversation so far."),
    };
    const s = await startSession(scenario, { compaction: { keepRecentTokens: 50 } }, cleanups);
    for (const message of ["first", "second"]) {
      const from = s.pi.records.length;
      await s.prompt(message);
      await s.settled(from);
    }
    const compacted = await s.send({ type: "compact" });
    expect(compacted).toMatchObject({ success: true });
    // The stream says compaction happened, not which messages pi kept: the reducer asks for get_messages.
    const before = s.reduce();
    expect(before.compaction).toMatchObject({ active: false, reason: "manual", outcome: "done", summary: compacted.data.summary });
    expect(before.markers.at(-1)).toMatchObject({ kind: "compaction", beforeIndex: 4, tokensBefore: compacted.data.tokensBefore });
    expect(await s.resyncIfAsked()).toBe(true);
    // pi's summarisation request is an ordinary chat completion that no rule
    // matches: the scenario's fallback answers it.
    const summarize = s.server.requests.at(-1)!;
    expect(summarize.label).toBe("fallback");
    if (process.env.PIER_SHOW_COMPACTION_REQUEST) console.log(JSON.stringify(summarize.body).slice(0, 3000));

    const { state, messages } = await expectReducerMatchesPi(s, "manual-compaction");
    expect(messages.map((m) => m.role)).toContain("compactionSummary");
    const summaryAt = state.messages.findIndex((m) => m.role === "compactionSummary");
    expect(state.markers.at(-1)).toMatchObject({ kind: "compaction", beforeIndex: summaryAt + 1 });
  });

  it("a new session after a retried answer", async () => {
    const scenario: Scenario = {
      name: "new-session",
      pace: FAST,
      rules: [{ when: { text: "retry me" }, turns: [{ failFirst: [[{ kind: "httpError", status: 500, message: "Internal server error" }]], steps: [text("Recovered.")] }] }],
      fallback: one("Fresh start."),
    };
    const s = await startSession(scenario, FAST_RETRY, cleanups);
    let from = s.pi.records.length;
    await s.prompt("retry me");
    await s.settled(from);
    const before = (await s.send({ type: "get_state" })).data;
    expect(s.reduce().markers.length).toBeGreaterThan(0);

    expect(await s.send({ type: "new_session" })).toMatchObject({ success: true, data: { cancelled: false } });
    // The old conversation is gone at once (markers and tool state with it), and
    // the reducer asks for the new session's messages.
    const switched = s.reduce();
    expect(switched.messages).toEqual([]);
    expect(switched.markers).toEqual([]);
    expect(switched.needsSessionLoad).toBe(true);
    expect(await s.resyncIfAsked()).toBe(true);

    from = s.pi.records.length;
    await s.prompt("hello again");
    await s.settled(from);
    const { state, piState } = await expectReducerMatchesPi(s, "new-session");
    expect(piState.sessionId).not.toBe(before.sessionId);
    expect(state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(state.markers).toEqual([]);
  });

  it("an RPC bash command", async () => {
    const scenario: Scenario = { name: "rpc-bash", pace: FAST, rules: [], fallback: one("Saw it.") };
    const s = await startSession(scenario, undefined, cleanups);
    const from = s.pi.records.length;
    await s.prompt("hi");
    await s.settled(from);
    const command = "echo one; sleep 0.2; echo two";
    const response = await s.send({ type: "bash", command });
    expect(response).toMatchObject({ success: true, data: { exitCode: 0, output: "one\ntwo\n" } });

    // No message_* events for it: the reducer rebuilds the message from the
    // answer (only pi knows the timestamp) and asks for get_messages.
    const before = s.reduce();
    expect(before.bashRuns[response.id]).toMatchObject({ command, output: "one\ntwo\n", status: "done", exitCode: 0 });
    const provisional = before.messages.at(-1)!;
    expect(await s.resyncIfAsked()).toBe(true);

    const { state, records, messages } = await expectReducerMatchesPi(s, "rpc-bash");
    expect(records.filter((r) => r.type === "bash_execution_update").length).toBeGreaterThanOrEqual(1);
    expect(records.some((r) => r.message?.role === "bashExecution")).toBe(false);
    expect({ ...provisional, timestamp: 0 }).toEqual({ ...messages.at(-1), timestamp: 0 });
    expect(state.messages.at(-1)).toMatchObject({ role: "bashExecution", command, exitCode: 0 });
  });
});
