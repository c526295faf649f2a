// Transcripts captured from a real pi 1.6.0 (fixtures/pi-1.6.0/, written by
// pi-additions.contract.test.ts under PIER_UPDATE_FIXTURES=1 in the
// contract-pi-1.6 project): what newer pi adds, reduced in fast unit runs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nestedCallList } from "../src/lib/tools/nested-calls.ts";
import type { ToolResultMessage } from "../src/lib/pi-types.ts";
import { applyGetMessages, noteCommandSent, reduceAll } from "../src/lib/pi-state/reduce-record.ts";
import { createSessionState, type SessionState } from "../src/lib/pi-state/session-state.ts";
import { isMessageRow, transcriptRows } from "../src/lib/transcript/transcript-rows.ts";

const dir = join(import.meta.dirname, "fixtures", "pi-1.6.0");
type Rec = Record<string, any>;

function load(name: string): Rec[] {
  return readFileSync(join(dir, `${name}.jsonl`), "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Rec);
}

/** Reduces a capture like the browser that sent its commands did; returns the state and get_messages' messages. */
function reduceCapture(records: Rec[]): { state: SessionState; expected: Rec[] } {
  const answerAt = records.findLastIndex((r) => r.type === "response" && r.command === "get_messages");
  const state = createSessionState();
  // Every answered command was this browser's (the capture's test sent them all).
  for (const r of records.slice(0, answerAt)) if (r.type === "response" && typeof r.id === "string") noteCommandSent(state, r.id, r.command, 0);
  reduceAll(records.slice(0, answerAt), state);
  return { state, expected: (records[answerAt]!.data.messages as Rec[]).filter((m) => m.role !== "system") };
}

describe("pi 1.6.0: a tool that calls two tools (nested-tools.jsonl)", () => {
  const records = load("nested-tools");
  const { state, expected } = reduceCapture(records);
  const callerId = records.find((r) => r.type === "tool_execution_start" && r.toolName === "nested_probe")!.toolCallId as string;

  it("rebuilds exactly what get_messages returns, durationMs and nestedCalls included", () => {
    expect(state.messages).toEqual(expected);
    expect(state.status).toBe("idle");
    expect(state.pending).toEqual({});
    const result = state.messages[state.toolResultIndex[callerId]!] as ToolResultMessage;
    expect(result.nestedCalls?.calls.map((c) => [c.name, c.status])).toEqual([
      ["bash", "ok"],
      ["read", "error"],
    ]);
    expect(result.durationMs).toEqual(expect.any(Number));
  });

  it("hangs the nested executions off their caller, never off the transcript", () => {
    expect(state.tools[callerId]!.nestedIds).toEqual([`${callerId}/1`, `${callerId}/2`]);
    expect(Object.keys(state.toolResultIndex)).toEqual([callerId]);
    const rows = transcriptRows(state.systemPrompt, state.messages, state.markers);
    expect(JSON.stringify(rows.map((row) => (isMessageRow(row) ? state.messages[row] : row)))).not.toContain(`${callerId}/`);
    for (const end of records.filter((r) => r.type === "tool_execution_end")) {
      expect(state.tools[end.toolCallId]!.durationMs).toBe(end.durationMs);
    }
  });

  it("after a reload (get_messages only) the card lists the calls from pi's record", () => {
    const reloaded = createSessionState();
    applyGetMessages(reloaded, expected as never);
    const result = reloaded.messages[reloaded.toolResultIndex[callerId]!] as ToolResultMessage;
    const list = nestedCallList(callerId, reloaded.tools[callerId], result, reloaded.tools)!;
    expect(list.complete).toBe(true);
    expect(list.rows.map((row) => [row.name, row.state, row.execution])).toEqual([
      ["bash", "done", null],
      ["read", "failed", null],
    ]);
    expect(list.rows[1]!.error).toMatch(/^ENOENT/);
    expect(list.rows.every((row) => typeof row.durationMs === "number")).toBe(true);
  });
});

describe("pi 1.6.0: handled prompts and steers, aborted runs (handled-and-aborted.jsonl)", () => {
  const records = load("handled-and-aborted");
  const { state, expected } = reduceCapture(records);

  it("rebuilds exactly what get_messages returns, with nothing left pending", () => {
    expect(state.messages).toEqual(expected);
    expect(state.pending).toEqual({});
    expect(state.status).toBe("idle");
  });

  it("keeps what pi said about each input and the last run", () => {
    const dispositions = records.filter((r) => r.type === "response" && r.data?.disposition).map((r) => [r.command, r.data.disposition]);
    expect(dispositions).toEqual([
      ["prompt", "handled"],
      ["prompt", "handled"],
      ["prompt", "started"],
      ["steer", "handled"],
      ["steer", "queued"],
      ["prompt", "started"],
    ]);
    expect(state.run.lastDisposition).toMatchObject({ command: "prompt", disposition: "started", mine: true });
    expect(records.filter((r) => r.type === "agent_settled")).toEqual([
      { type: "agent_settled", aborted: true },
      { type: "agent_settled", aborted: true },
    ]);
    expect(state.run.lastSettledAborted).toBe(true);
  });
});
