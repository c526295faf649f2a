// tool_execution_* events → `state.tools`, one entry per toolCallId.
//
// pi ≥ 0.99 also reports the calls a tool makes to other tools
// (`ctx.executeTool()`): their events carry `parentToolCallId` and ids
// `<parent id>/<n>`. They share the map (so updates find them in O(1)) and
// are linked from their caller's `nestedIds`; nothing links them to a
// message, since they have no toolCall block and no toolResult of their own.

import type { PiEvent } from "../pi-types.ts";
import type { SessionState, ToolExecution } from "./session-state.ts";

type EventOf<T extends PiEvent["type"]> = Extract<PiEvent, { type: T }>;

function newExecution(toolCallId: string, toolName: string, args: unknown, now: number, timedLive: boolean): ToolExecution {
  return {
    toolCallId,
    toolName,
    args,
    status: "running",
    partialResult: null,
    result: null,
    startedAt: now,
    endedAt: null,
    timedLive,
    durationMs: null,
    parentToolCallId: null,
    nestedIds: [],
  };
}

/**
 * The execution for an update or end whose start this state never saw (it
 * was before a truncated replay began): created on the spot, its start time
 * unknown.
 */
export function ensureTool(state: SessionState, toolCallId: string, toolName: string, args: unknown, now: number): ToolExecution {
  if (state.tools[toolCallId] === undefined) {
    state.tools[toolCallId] = newExecution(toolCallId, toolName, args, now, false);
    state.runningTools[toolCallId] = true;
  }
  return state.tools[toolCallId]!;
}

/** Links a nested call to its caller (made up if the caller's start was not seen). */
function linkToCaller(state: SessionState, parentId: string, childId: string, now: number): void {
  state.tools[childId]!.parentToolCallId = parentId;
  ensureTool(state, parentId, "", undefined, now).nestedIds.push(childId);
}

export function onToolExecutionStart(state: SessionState, event: EventOf<"tool_execution_start">, now: number): void {
  const known = state.tools[event.toolCallId];
  // Timing is only a measure when this browser sees it happen, not in a replay.
  const execution = newExecution(event.toolCallId, event.toolName, event.args, now, state.extensionUi.live);
  if (known !== undefined) {
    execution.nestedIds = known.nestedIds;
    execution.parentToolCallId = known.parentToolCallId;
  }
  state.tools[event.toolCallId] = execution;
  state.runningTools[event.toolCallId] = true;
  const parent = event.parentToolCallId;
  if (typeof parent === "string" && known === undefined) linkToCaller(state, parent, event.toolCallId, now);
}

export function onToolExecutionUpdate(state: SessionState, event: EventOf<"tool_execution_update">, now: number): void {
  const known = state.tools[event.toolCallId] !== undefined;
  const tool = ensureTool(state, event.toolCallId, event.toolName, event.args, now);
  if (!known && typeof event.parentToolCallId === "string") linkToCaller(state, event.parentToolCallId, event.toolCallId, now);
  // partialResult is cumulative (the output so far): replace, never append.
  tool.partialResult = event.partialResult;
}

export function onToolExecutionEnd(state: SessionState, event: EventOf<"tool_execution_end">, now: number): void {
  const known = state.tools[event.toolCallId] !== undefined;
  const tool = ensureTool(state, event.toolCallId, event.toolName, undefined, now);
  if (!known && typeof event.parentToolCallId === "string") linkToCaller(state, event.parentToolCallId, event.toolCallId, now);
  if (tool.toolName === "") tool.toolName = event.toolName;
  tool.result = event.result;
  tool.status = event.isError ? "failed" : "done";
  delete state.runningTools[event.toolCallId];
  tool.endedAt = now;
  tool.timedLive = tool.timedLive && state.extensionUi.live;
  tool.durationMs = typeof event.durationMs === "number" ? event.durationMs : null;
}

/**
 * How long a finished tool ran: pi's own measure (pi ≥ 1.1) when it gave
 * one, else this browser's, if it watched the whole run live; null when
 * neither is known or the tool still runs.
 */
export function toolDurationMs(tool: ToolExecution): number | null {
  if (tool.status === "running" || tool.endedAt === null) return null;
  if (tool.durationMs !== null) return tool.durationMs;
  return tool.timedLive ? Math.max(0, tool.endedAt - tool.startedAt) : null;
}
