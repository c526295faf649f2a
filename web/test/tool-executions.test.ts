// tool_execution_* in the reducer: nested calls (pi ≥ 0.99), durations
// (pi ≥ 1.1, else the browser's own live timing), and the run facts newer pi
// adds to answers and agent_settled. Hand-written records shaped like pi
// 1.6.0's (see fixtures/pi-1.6.0/ for real captures).
import { describe, expect, it } from "vitest";
import { markReplaying } from "../src/lib/extension-ui/extension-ui-state.ts";
import { applyRecord, noteCommandSent, reduceAll } from "../src/lib/pi-state/reduce-record.ts";
import { createSessionState } from "../src/lib/pi-state/session-state.ts";
import { toolDurationMs } from "../src/lib/pi-state/tool-executions.ts";
import { response } from "./records.ts";

const out = (text: string) => ({ content: [{ type: "text", text }] });
const start = (toolCallId: string, toolName: string, args: object, parentToolCallId?: string) => ({
  type: "tool_execution_start",
  toolCallId,
  toolName,
  args,
  ...(parentToolCallId ? { parentToolCallId } : {}),
});
const progress = (toolCallId: string, toolName: string, text: string, parentToolCallId?: string) => ({
  type: "tool_execution_update",
  toolCallId,
  toolName,
  args: {},
  partialResult: out(text),
  ...(parentToolCallId ? { parentToolCallId } : {}),
});
const end = (toolCallId: string, toolName: string, text: string, extra: { isError?: boolean; durationMs?: number; parentToolCallId?: string } = {}) => ({
  type: "tool_execution_end",
  toolCallId,
  toolName,
  result: out(text),
  isError: extra.isError ?? false,
  ...(extra.durationMs !== undefined ? { durationMs: extra.durationMs } : {}),
  ...(extra.parentToolCallId ? { parentToolCallId: extra.parentToolCallId } : {}),
});

/** A tool that runs bash (ok) then read (fails) through ctx.executeTool, as pi 1.6.0 reports it. */
const nestedRun = [
  start("c1", "nested_probe", { label: "probe" }),
  start("c1/1", "bash", { command: "echo hi" }, "c1"),
  progress("c1/1", "bash", "hi\n", "c1"),
  end("c1/1", "bash", "hi\n", { durationMs: 316, parentToolCallId: "c1" }),
  start("c1/2", "read", { path: "nope.txt" }, "c1"),
  end("c1/2", "read", "ENOENT", { isError: true, durationMs: 1, parentToolCallId: "c1" }),
  end("c1", "nested_probe", "bash ok, read failed", { durationMs: 320 }),
];

describe("nested tool calls", () => {
  it("hang off their caller in start order, with their own status, output and duration", () => {
    const state = reduceAll(nestedRun);
    expect(state.tools["c1"]!.nestedIds).toEqual(["c1/1", "c1/2"]);
    expect(state.tools["c1"]!.parentToolCallId).toBeNull();
    expect(state.tools["c1/1"]).toMatchObject({ toolName: "bash", status: "done", parentToolCallId: "c1", durationMs: 316, result: out("hi\n") });
    expect(state.tools["c1/2"]).toMatchObject({ toolName: "read", status: "failed", parentToolCallId: "c1", durationMs: 1 });
    expect(state.tools["c1"]).toMatchObject({ status: "done", durationMs: 320 });
    // Never messages: only the message events build the transcript.
    expect(state.messages).toEqual([]);
    expect(state.toolResultIndex).toEqual({});
  });

  it("a call made by a nested call hangs off that call", () => {
    const state = reduceAll([
      start("c1", "codemode", {}),
      start("c1/1", "subagent", {}, "c1"),
      start("c1/1/1", "read", { path: "a" }, "c1/1"),
      end("c1/1/1", "read", "a", { parentToolCallId: "c1/1" }),
    ]);
    expect(state.tools["c1"]!.nestedIds).toEqual(["c1/1"]);
    expect(state.tools["c1/1"]!.nestedIds).toEqual(["c1/1/1"]);
  });

  it("are still linked when a truncated replay lost their start (and their caller's)", () => {
    const state = reduceAll([progress("c1/1", "bash", "hi\n", "c1"), end("c1/1", "bash", "hi\n", { parentToolCallId: "c1" }), end("c1", "nested_probe", "ok")]);
    expect(state.tools["c1"]!.nestedIds).toEqual(["c1/1"]);
    expect(state.tools["c1"]!.toolName).toBe("nested_probe");
    expect(state.tools["c1/1"]!.parentToolCallId).toBe("c1");
  });

  it("an aborted run leaves no nested call running", () => {
    const state = reduceAll([start("c1", "nested_probe", {}), start("c1/1", "bash", { command: "sleep 9" }, "c1"), { type: "agent_settled", aborted: true }]);
    expect([state.tools["c1"]!.status, state.tools["c1/1"]!.status]).toEqual(["failed", "failed"]);
    // The settle is not when they stopped: no duration is made up.
    expect(toolDurationMs(state.tools["c1/1"]!)).toBeNull();
  });
});

describe("tool durations", () => {
  it("pi's durationMs wins over the browser's timing", () => {
    const state = reduceAll(nestedRun);
    expect(toolDurationMs(state.tools["c1/1"]!)).toBe(316);
  });

  it("without pi's figure (0.87.1), a call watched live is timed by the browser", () => {
    const state = createSessionState();
    applyRecord(state, start("t1", "bash", { command: "ls" }));
    state.tools["t1"]!.startedAt -= 1500;
    applyRecord(state, end("t1", "bash", "ok"));
    expect(state.tools["t1"]!.durationMs).toBeNull();
    expect(state.tools["t1"]!.timedLive).toBe(true);
    expect(toolDurationMs(state.tools["t1"]!)).toBeGreaterThanOrEqual(1500);
  });

  it("is unknown for replayed history and while a call runs", () => {
    const replayed = createSessionState();
    markReplaying(replayed.extensionUi);
    reduceAll([start("t1", "bash", {}), end("t1", "bash", "ok")], replayed);
    expect(toolDurationMs(replayed.tools["t1"]!)).toBeNull();

    const running = reduceAll([start("t1", "bash", {})]);
    expect(toolDurationMs(running.tools["t1"]!)).toBeNull();

    // Replayed, but pi measured it: that figure holds.
    const measured = createSessionState();
    markReplaying(measured.extensionUi);
    reduceAll([start("t1", "bash", {}), end("t1", "bash", "ok", { durationMs: 42 })], measured);
    expect(toolDurationMs(measured.tools["t1"]!)).toBe(42);
  });
});

describe("what newer pi says about runs", () => {
  it("agent_settled.aborted is kept; 0.87.1's bare agent_settled leaves it unknown", () => {
    const state = createSessionState();
    applyRecord(state, { type: "agent_settled", aborted: true });
    expect(state.run.lastSettledAborted).toBe(true);
    applyRecord(state, { type: "agent_settled", aborted: false });
    expect(state.run.lastSettledAborted).toBe(false);
    applyRecord(state, { type: "agent_settled" });
    expect(state.run.lastSettledAborted).toBeNull();
  });

  it("a handled prompt is answered, pending nothing and starting nothing", () => {
    const state = createSessionState();
    noteCommandSent(state, "p1", "prompt", 0, { type: "prompt", message: "/probe-handled" });
    applyRecord(state, response("prompt", "p1", { disposition: "handled" }));
    expect(state.pending).toEqual({});
    expect(state.status).toBe("idle");
    expect(state.run.lastDisposition).toEqual({ command: "prompt", id: "p1", disposition: "handled", mine: true, at: expect.any(Number) });
  });

  it("records steer and follow_up dispositions, anyone's, and ignores answers without one (0.87.1)", () => {
    const state = createSessionState();
    applyRecord(state, response("steer", "other-browser", { disposition: "queued" }));
    expect(state.run.lastDisposition).toMatchObject({ command: "steer", disposition: "queued", mine: false });
    applyRecord(state, response("follow_up", "x", { disposition: "handled" }));
    expect(state.run.lastDisposition).toMatchObject({ command: "follow_up", disposition: "handled" });
    applyRecord(state, response("prompt", "y"));
    expect(state.run.lastDisposition).toMatchObject({ command: "follow_up", disposition: "handled" });
    applyRecord(state, response("prompt", "z", { disposition: "someday" }));
    expect(state.run.lastDisposition).toMatchObject({ command: "follow_up" });
  });
});
