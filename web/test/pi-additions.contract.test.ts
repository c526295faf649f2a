// What newer pi adds on the wire, and what the reducer makes of it, against
// a real pi with e2e/extensions/nested-tools.ts loaded. Run twice by
// `pnpm test:contract`: against pi 1.6.0 (the project contract-pi-1.6) the
// additions are there; against the pinned 0.87.1 the same situations show
// what that pi does instead (no disposition, no `aborted`, no durationMs,
// no nested calls). Either way the rebuilt transcript equals get_messages.
//
// - a tool that calls two tools through ctx.executeTool (pi ≥ 0.99): the
//   nested executions hang off their caller and never become transcript rows;
// - durationMs on tool_execution_end and messages (pi ≥ 1.1);
// - prompt/steer answers with disposition "handled" (pi ≥ 0.99): no run, nothing pending;
// - agent_settled.aborted (pi ≥ 1.1).
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { Scenario } from "../../relay/src/demo/scenario.ts";
import { piUnderTest } from "../../relay/test/support/pi-under-test.ts";
import { nestedCallList } from "../src/lib/tools/nested-calls.ts";
import type { AssistantMessage, ToolResultMessage } from "../src/lib/pi-types.ts";
import { isMessageRow, transcriptRows } from "../src/lib/transcript/transcript-rows.ts";
import { captureNewerPiFixture, expectReducerMatchesPi, FAST, startSession } from "./contract/pi-session.ts";

const EXTENSION = fileURLToPath(new URL("../../e2e/extensions/nested-tools.ts", import.meta.url));
const SETTINGS = { extensions: [EXTENSION] };
const { has } = piUnderTest;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const text = (t: string) => ({ kind: "text" as const, text: t });
const scenario: Scenario = {
  name: "pi-additions",
  pace: FAST,
  rules: [
    { when: { text: "nest" }, turns: [{ steps: [text("Probing."), { kind: "toolCall", name: "nested_probe", arguments: { label: "probe" } }] }, { steps: [text("Done.")] }] },
    { when: { text: "hang" }, turns: [{ steps: [text("waiting for ever"), { kind: "hang" }] }] },
    { when: { text: "sleep" }, turns: [{ steps: [{ kind: "toolCall", name: "bash", arguments: { command: "echo started; sleep 5" } }] }, { steps: [text("never")] }] },
  ],
  fallback: { steps: [text("ok")] },
};

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`pi ${piUnderTest.version}: what newer pi adds`, () => {
  it("a tool that calls other tools: nested executions under their caller, durations kept", async () => {
    const s = await startSession(scenario, SETTINGS, cleanups);
    const from = s.pi.records.length;
    const accepted = await s.prompt("nest");
    if (has.disposition) expect(accepted.data).toEqual({ disposition: "started" });
    else expect(accepted).not.toHaveProperty("data");
    await s.settled(from);

    const { state, records } = await expectReducerMatchesPi(s, "nested-tools");
    captureNewerPiFixture(s, "nested-tools");
    const call = state.messages.flatMap((m) => (m.role === "assistant" ? m.content : [])).find((block) => block.type === "toolCall" && block.name === "nested_probe");
    if (call?.type !== "toolCall") throw new Error("the model's nested_probe call is missing");
    const parent = state.tools[call.id]!;
    const result = state.messages[state.toolResultIndex[call.id]!] as ToolResultMessage;

    // Nested ids are never transcript rows: one toolResult (the caller's), and
    // no row of what the conversation renders names a nested id.
    expect(state.messages.filter((m) => m.role === "toolResult").map((m) => m.toolCallId)).toEqual([call.id]);
    expect(Object.keys(state.toolResultIndex)).toEqual([call.id]);
    const rows = transcriptRows(state.systemPrompt, state.messages, state.markers);
    expect(JSON.stringify(rows.map((row) => (isMessageRow(row) ? state.messages[row] : row)))).not.toContain(`${call.id}/`);

    const nestedIds = [`${call.id}/1`, `${call.id}/2`];
    if (has.nestedToolCalls) {
      expect(records.filter((r) => typeof r.parentToolCallId === "string").every((r) => r.parentToolCallId === call.id)).toBe(true);
      expect(parent.nestedIds).toEqual(nestedIds);
      expect(nestedIds.map((id) => [state.tools[id]!.toolName, state.tools[id]!.status, state.tools[id]!.parentToolCallId])).toEqual([
        ["bash", "done", call.id],
        ["read", "failed", call.id],
      ]);
      // The nested bash streamed its lines while it ran.
      expect(records.filter((r) => r.type === "tool_execution_update" && r.toolCallId === nestedIds[0]).length).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(state.tools[nestedIds[0]!]!.result)).toContain("step 3");
      // pi's record on the caller's toolResult (what a reload has).
      expect(result.nestedCalls).toMatchObject({
        complete: true,
        calls: [
          { id: nestedIds[0], name: "bash", status: "ok" },
          { id: nestedIds[1], name: "read", status: "error" },
        ],
      });
      expect(result.nestedCalls!.calls[1]!.error).toMatch(/ENOENT/);
      // The card lists the same calls live and after a reload (record only, no executions).
      const live = nestedCallList(call.id, parent, result, state.tools)!;
      const reloaded = nestedCallList(call.id, undefined, result, {})!;
      for (const list of [live, reloaded]) {
        expect(list.rows.map((row) => [row.name, row.state, row.depth])).toEqual([
          ["bash", "done", 0],
          ["read", "failed", 0],
        ]);
        expect(list.rows.every((row) => typeof row.durationMs === "number")).toBe(true);
      }
      expect(live.rows[0]!.execution).toBe(state.tools[nestedIds[0]!]);
      expect(reloaded.rows[0]!.execution).toBeNull();
    } else {
      expect(records.some((r) => "parentToolCallId" in r)).toBe(false);
      expect(parent.nestedIds).toEqual([]);
      expect(result).not.toHaveProperty("nestedCalls");
      expect(nestedCallList(call.id, parent, result, state.tools)).toBeNull();
      expect(JSON.stringify(result.content)).toContain("no ctx.executeTool");
    }

    const ends = records.filter((r) => r.type === "tool_execution_end");
    const assistants = state.messages.filter((m): m is AssistantMessage => m.role === "assistant");
    if (has.durationMs) {
      for (const end of ends) {
        expect(end.durationMs).toEqual(expect.any(Number));
        expect(state.tools[end.toolCallId]!.durationMs).toBe(end.durationMs);
      }
      expect(result.durationMs).toEqual(expect.any(Number));
      // Messages carry it too: the model's response time (final message only).
      expect(assistants.every((m) => typeof m.durationMs === "number")).toBe(true);
      expect(records.filter((r) => r.type === "message_start" && r.message.role === "assistant").some((r) => "durationMs" in r.message)).toBe(false);
    } else {
      expect(ends.some((end) => "durationMs" in end)).toBe(false);
      expect(Object.values(state.tools).every((tool) => tool.durationMs === null)).toBe(true);
      expect(state.messages.some((m) => "durationMs" in m)).toBe(false);
    }
    expect(state.run.lastSettledAborted).toBe(has.settledAborted ? false : null);
  });

  it("a prompt or steer an extension consumes starts nothing; an abort is reported as such", async () => {
    const s = await startSession(scenario, SETTINGS, cleanups);

    // An extension command and an input handler consume their prompts: no run.
    let from = s.pi.records.length;
    for (const message of ["/probe-handled", "probe: handled"]) {
      const answer = await s.prompt(message);
      expect(answer.success).toBe(true);
      if (has.disposition) expect(answer.data).toEqual({ disposition: "handled" });
      else expect(answer).not.toHaveProperty("data");
    }
    await delay(300);
    expect(s.pi.records.slice(from).filter((r) => r.type === "agent_start")).toEqual([]);
    let state = s.reduce();
    expect(state.pending).toEqual({});
    expect(state.status).toBe("idle");
    expect(state.run.lastDisposition).toEqual(has.disposition ? { command: "prompt", id: expect.any(String), disposition: "handled", mine: true, at: expect.any(Number) } : null);

    // While a run streams: a steer the input handler consumes never queues; an ordinary one does.
    from = s.pi.records.length;
    await s.prompt("hang");
    await s.pi.waitFor((r) => r.assistantMessageEvent?.type === "text_delta", from);
    const handledSteer = await s.send({ type: "steer", message: "probe: handled" });
    const queuedSteer = await s.send({ type: "steer", message: "keep going" });
    if (has.disposition) {
      expect(handledSteer.data).toEqual({ disposition: "handled" });
      expect(queuedSteer.data).toEqual({ disposition: "queued" });
      expect(s.reduce().run.lastDisposition).toMatchObject({ command: "steer", disposition: "queued" });
    } else {
      expect(handledSteer).not.toHaveProperty("data");
    }
    expect(s.reduce().queue.steering).toEqual(["keep going"]);
    await s.send({ type: "clear_queue" });
    expect(await s.send({ type: "abort" })).toMatchObject({ success: true });
    const settledStream = await s.settled(from);

    // Abort during a tool.
    from = s.pi.records.length;
    await s.prompt("sleep");
    await s.pi.waitFor((r) => r.type === "tool_execution_update", from);
    expect(await s.send({ type: "abort" })).toMatchObject({ success: true });
    const settledTool = await s.settled(from);

    for (const settled of [settledStream, settledTool]) {
      if (has.settledAborted) expect(settled).toEqual({ type: "agent_settled", aborted: true });
      else expect(settled).toEqual({ type: "agent_settled" });
    }
    ({ state } = await expectReducerMatchesPi(s, "handled-and-aborted"));
    captureNewerPiFixture(s, "handled-and-aborted");
    expect(state.run.lastSettledAborted).toBe(has.settledAborted ? true : null);
    // Where each aborted run ended, the transcript already says so with its
    // last assistant message ("aborted" is shown as "Stopped."), so no marker
    // repeats it. pi 0.87.1 ends a run aborted during a tool with stopReason
    // "error" instead, which reads as a model error.
    const runEnds = state.messages.filter((m): m is AssistantMessage => m.role === "assistant").filter((m) => m.content.length === 0 || m.stopReason === "aborted");
    expect(runEnds.map((m) => [m.stopReason, m.errorMessage])).toEqual([
      ["aborted", "Request was aborted"],
      [has.toolAbortEndsAborted ? "aborted" : "error", "This operation was aborted"],
    ]);
    expect(Object.values(state.tools).every((tool) => tool.status !== "running")).toBe(true);
  });
});
