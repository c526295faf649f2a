// The rows a tool card lists for the calls its tool made to other tools:
// from live executions while the caller runs, from pi's `nestedCalls`
// record once its toolResult is in (and after a reload).
import type { NestedToolCalls } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { nestedCallList, nestedCallsSummary, nestedCallView } from "../src/lib/tools/nested-calls.ts";
import { callDurationMs } from "../src/lib/tools/tool-duration.ts";
import type { ToolResultMessage } from "../src/lib/pi-types.ts";
import { reduceAll } from "../src/lib/pi-state/reduce-record.ts";

const out = (text: string) => ({ content: [{ type: "text", text }] });
const running = reduceAll([
  { type: "tool_execution_start", toolCallId: "c1", toolName: "codemode", args: {} },
  { type: "tool_execution_start", toolCallId: "c1/1", toolName: "bash", args: { command: "make" }, parentToolCallId: "c1" },
  { type: "tool_execution_update", toolCallId: "c1/1", toolName: "bash", args: {}, partialResult: out("building\n"), parentToolCallId: "c1" },
  { type: "tool_execution_start", toolCallId: "c1/1/1", toolName: "read", args: { path: "Makefile" }, parentToolCallId: "c1/1" },
  { type: "tool_execution_end", toolCallId: "c1/1/1", toolName: "read", result: out("no such file\nmore"), isError: true, durationMs: 3, parentToolCallId: "c1/1" },
]);

const toolResult = (nestedCalls: ToolResultMessage["nestedCalls"], durationMs?: number): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: "c1",
  toolName: "codemode",
  content: [{ type: "text", text: "done" }],
  isError: false,
  timestamp: 0,
  ...(durationMs !== undefined ? { durationMs } : {}),
  ...(nestedCalls ? { nestedCalls } : {}),
});

describe("nestedCallList", () => {
  it("is null for a tool that called none (and for everything on pi 0.87.1)", () => {
    const state = reduceAll([{ type: "tool_execution_start", toolCallId: "t", toolName: "bash", args: {} }]);
    expect(nestedCallList("t", state.tools["t"], toolResult(undefined), state.tools)).toBeNull();
    expect(nestedCallList("t", undefined, undefined, {})).toBeNull();
  });

  it("lists live calls depth-first, nested calls of nested calls indented", () => {
    const list = nestedCallList("c1", running.tools["c1"], undefined, running.tools)!;
    expect(list.complete).toBe(true);
    expect(list.rows.map((row) => [row.id, row.name, row.state, row.depth, row.error])).toEqual([
      ["c1/1", "bash", "running", 0, null],
      ["c1/1/1", "read", "failed", 1, "no such file"],
    ]);
    expect(list.rows[0]!.durationMs).toBeNull();
    expect(list.rows[1]!.durationMs).toBe(3);
    expect(nestedCallView(list.rows[0]!)).toMatchObject({ name: "bash", args: { command: "make" }, state: "running", finished: false, content: out("building\n").content });
    expect(nestedCallsSummary(list)).toBe("2 nested calls · 1 failed");
  });

  it("takes pi's record once the toolResult is in, keeping the output this page saw", () => {
    const record: NestedToolCalls = {
      complete: false,
      calls: [
        { id: "c1/1", name: "bash", arguments: { command: "make" }, status: "ok", durationMs: 1200 },
        { id: "c1/1/1", name: "read", status: "error", argumentsBytes: 9000, durationMs: 3, error: "no such file" },
        { id: "c1/2", name: "grep", arguments: { pattern: "x" }, status: "unfinished" },
      ],
    };
    const list = nestedCallList("c1", running.tools["c1"], toolResult(record), running.tools)!;
    expect(list.complete).toBe(false);
    expect(list.rows.map((row) => [row.id, row.state, row.depth, row.durationMs, row.argumentsBytes])).toEqual([
      ["c1/1", "done", 0, 1200, null],
      ["c1/1/1", "failed", 1, 3, null],
      ["c1/2", "unfinished", 0, null, null],
    ]);
    expect(list.rows[0]!.execution).toBe(running.tools["c1/1"]);
    // The live read's arguments fill in what the record left out.
    expect(list.rows[1]!.args).toEqual({ path: "Makefile" });

    // After a reload: the record alone.
    const reloaded = nestedCallList("c1", undefined, toolResult(record), {})!;
    expect(reloaded.rows[1]).toMatchObject({ args: undefined, argumentsBytes: 9000, execution: null });
    expect(nestedCallView(reloaded.rows[1]!)).toMatchObject({ state: "failed", failed: true, content: [{ type: "text", text: "no such file" }] });
    expect(nestedCallView(reloaded.rows[2]!)).toMatchObject({ state: "cancelled", finished: false, content: [] });
    expect(nestedCallsSummary(reloaded)).toBe("3 nested calls · 1 failed");
  });
});

describe("callDurationMs", () => {
  it("prefers pi's figure from the event, then from the toolResult, then the browser's", () => {
    const state = reduceAll([
      { type: "tool_execution_start", toolCallId: "a", toolName: "bash", args: {} },
      { type: "tool_execution_end", toolCallId: "a", toolName: "bash", result: out(""), isError: false, durationMs: 7 },
      { type: "tool_execution_start", toolCallId: "b", toolName: "bash", args: {} },
      { type: "tool_execution_end", toolCallId: "b", toolName: "bash", result: out(""), isError: false },
    ]);
    expect(callDurationMs(state.tools["a"], toolResult(undefined, 9))).toBe(7);
    expect(callDurationMs(state.tools["b"], toolResult(undefined, 9))).toBe(9);
    expect(callDurationMs(undefined, toolResult(undefined, 9))).toBe(9);
    expect(callDurationMs(state.tools["b"], undefined)).toEqual(expect.any(Number));
    expect(callDurationMs(undefined, toolResult(undefined))).toBeNull();
  });
});
