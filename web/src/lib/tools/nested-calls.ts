// The calls a tool made to other tools (pi ≥ 0.99, `ctx.executeTool()`), as
// the rows its card lists. Two sources, one shape:
//
// - live: the nested executions the reducer linked to the caller
//   (`nestedIds`), with their streamed output, while the caller runs or
//   when the replay still holds their events;
// - the record pi keeps on the caller's toolResult (`nestedCalls`): name,
//   arguments, status, duration and error, never results. It is the whole
//   list (a replay may have lost the head), so it wins once it is there;
//   rows still show the output of any execution this page saw.
//
// Calls made by nested calls have ids `<caller>/<n>/<m>`: the list is flat,
// with a depth from the id, in start order.

import type { NestedToolCalls } from "@pier/protocol";
import type { ToolResultMessage } from "../pi-types.ts";
import type { ToolExecution } from "../pi-state/session-state.ts";
import { toolDurationMs } from "../pi-state/tool-executions.ts";
import { textOf } from "./tool-details.ts";
import type { CardState, ToolView } from "./tool-view.ts";

export type NestedCallState = "running" | "done" | "failed" | "unfinished";

export interface NestedCallRow {
  id: string;
  name: string;
  /** The arguments; undefined when pi's record left them out (too large). */
  args: Record<string, unknown> | undefined;
  /** Size of arguments pi left out of its record. */
  argumentsBytes: number | null;
  state: NestedCallState;
  durationMs: number | null;
  /** Why it failed (pi's record, or the first line of the live error result). */
  error: string | null;
  /** 0 for a call the tool made itself, 1 for a call that call made, … */
  depth: number;
  /** The live execution, when this page saw it: its output can be shown. */
  execution: ToolExecution | null;
}

export interface NestedCallList {
  rows: NestedCallRow[];
  /** False when pi's record says calls or arguments are missing from it. */
  complete: boolean;
}

const asArgs = (value: unknown): Record<string, unknown> | undefined => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

/** Depth of `id` below `callerId`: "c/1" → 0, "c/1/2" → 1. */
function depthBelow(callerId: string, id: string): number {
  const rest = id.startsWith(`${callerId}/`) ? id.slice(callerId.length + 1) : id;
  return rest.split("/").length - 1;
}

function liveError(execution: ToolExecution): string | null {
  if (execution.status !== "failed") return null;
  const text = textOf(execution.result?.content ?? []).trim();
  return text === "" ? null : (text.split("\n", 1)[0] ?? null);
}

function fromRecord(callerId: string, record: NestedToolCalls, tools: Readonly<Record<string, ToolExecution>>): NestedCallList {
  const rows = record.calls.map((call): NestedCallRow => {
    const execution = tools[call.id] ?? null;
    // Arguments pi left out of its record are known if this page saw the call start.
    const args = call.arguments ?? asArgs(execution?.args);
    return {
      id: call.id,
      name: call.name,
      args,
      argumentsBytes: args === undefined && typeof call.argumentsBytes === "number" ? call.argumentsBytes : null,
      state: call.status === "ok" ? "done" : call.status === "error" ? "failed" : "unfinished",
      durationMs: call.durationMs ?? (execution ? toolDurationMs(execution) : null),
      error: call.error ?? null,
      depth: depthBelow(callerId, call.id),
      execution,
    };
  });
  return { rows, complete: record.complete };
}

function fromExecutions(caller: ToolExecution, tools: Readonly<Record<string, ToolExecution>>): NestedCallList {
  const rows: NestedCallRow[] = [];
  const visit = (ids: readonly string[]) => {
    for (const id of ids) {
      const execution = tools[id];
      if (execution === undefined) continue;
      rows.push({
        id,
        name: execution.toolName,
        args: asArgs(execution.args),
        argumentsBytes: null,
        state: execution.status,
        durationMs: toolDurationMs(execution),
        error: liveError(execution),
        depth: depthBelow(caller.toolCallId, id),
        execution,
      });
      visit(execution.nestedIds);
    }
  };
  visit(caller.nestedIds);
  return { rows, complete: true };
}

/** The nested calls of one tool call, or null when it made none (or pi cannot say: 0.87.1). */
export function nestedCallList(
  callId: string,
  execution: ToolExecution | undefined,
  resultMessage: ToolResultMessage | undefined,
  tools: Readonly<Record<string, ToolExecution>>,
): NestedCallList | null {
  const record = resultMessage?.nestedCalls;
  if (record && Array.isArray(record.calls) && record.calls.length > 0) return fromRecord(callId, record, tools);
  if (execution && execution.nestedIds.length > 0) return fromExecutions(execution, tools);
  return null;
}

/** "2 calls", "3 calls · 1 failed": what a collapsed card says about its nested calls. */
export function nestedCallsSummary(list: NestedCallList): string {
  const calls = list.rows.length;
  const failed = list.rows.filter((row) => row.state === "failed").length;
  const words = [`${calls} nested call${calls === 1 ? "" : "s"}`];
  if (failed > 0) words.push(`${failed} failed`);
  return words.join(" · ");
}

/** The view a row's expanded body shows: the live output when this page saw the call, else pi's record (arguments, error). */
export function nestedCallView(row: NestedCallRow): ToolView {
  const payload = row.execution ? (row.execution.result ?? row.execution.partialResult) : null;
  const content: ToolView["content"] = Array.isArray(payload?.content) ? payload.content : row.error !== null ? [{ type: "text", text: row.error }] : [];
  const state: CardState = row.state === "unfinished" ? "cancelled" : row.state;
  return {
    name: row.name,
    args: row.args ?? {},
    argsText: undefined,
    content,
    details: payload?.details,
    state,
    finished: state === "done" || state === "failed",
    failed: state === "failed",
  };
}
