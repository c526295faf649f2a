// The session reducer: one pi stdout record in, state mutated in place.
// Pure and synchronous, no Svelte, no DOM: Node tests feed it captured
// transcripts through `reduceAll`.

import type { DecodedLine } from "@pier/protocol";
import type {
  AgentMessage,
  ConversationMessage,
  AssistantMessage,
  PiEvent,
  RpcResponse,
  RpcSessionState,
  SystemMessage,
  ThinkingLevel,
  Model,
} from "../pi-types.ts";
import { applyAssistantEvent, beginAssistantStream, endAssistantStream } from "./assistant-stream.ts";
import {
  createSessionState,
  MAX_FAILURES,
  MAX_INVALID_LINES,
  type SessionState,
} from "./session-state.ts";

type AnyRecord = { type?: unknown; [key: string]: unknown };

function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

/** Remember a command this browser sent so its response can be matched by id. */
export function noteCommandSent(state: SessionState, id: string, type: string, now = Date.now()): void {
  state.pending[id] = { type, sentAt: now };
}

/** Record a stdout line that was not JSON. */
export function applyInvalidLine(state: SessionState, raw: string, error: string, now = Date.now()): void {
  pushBounded(state.invalidLines, { raw, error, at: now }, MAX_INVALID_LINES);
}

/** Feed one decoded line (record or non-JSON text). */
export function applyDecodedLine(state: SessionState, line: DecodedLine): void {
  if (line.kind === "invalid") applyInvalidLine(state, line.raw, line.error);
  else applyRecord(state, line.value);
}

/** Apply one parsed pi stdout record. Unknown records are ignored (the log still shows them). */
export function applyRecord(state: SessionState, value: unknown): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  const record = value as AnyRecord;
  if (record.type === "response") {
    applyResponse(state, record as unknown as RpcResponse);
    return;
  }
  applyEvent(state, record as unknown as PiEvent);
}

function applyEvent(state: SessionState, event: PiEvent): void {
  switch (event.type) {
    case "agent_start":
      state.status = "streaming";
      return;
    case "agent_end":
      // Not the end: retries, compaction recovery and queued follow-ups can continue.
      return;
    case "agent_settled":
      state.status = "idle";
      state.retry = null;
      finishOrphanedTools(state);
      return;
    case "message_start":
      onMessageStart(state, event.message);
      return;
    case "message_update":
      if (event.assistantMessageEvent && typeof event.assistantMessageEvent === "object") {
        applyAssistantEvent(state, event.assistantMessageEvent, event.usage);
      }
      return;
    case "message_end":
      onMessageEnd(state, event.message);
      return;
    case "tool_execution_start":
      state.tools[event.toolCallId] = {
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        args: event.args,
        status: "running",
        partialResult: null,
        result: null,
        startedAt: Date.now(),
        endedAt: null,
      };
      return;
    case "tool_execution_update": {
      const tool = ensureTool(state, event.toolCallId, event.toolName, event.args);
      tool.partialResult = event.partialResult;
      return;
    }
    case "tool_execution_end": {
      const tool = ensureTool(state, event.toolCallId, event.toolName, undefined);
      tool.result = event.result;
      tool.status = event.isError ? "failed" : "done";
      tool.endedAt = Date.now();
      return;
    }
    case "queue_update":
      state.queue = { steering: [...(event.steering ?? [])], followUp: [...(event.followUp ?? [])] };
      return;
    case "thinking_level_changed":
      state.thinkingLevel = event.level;
      return;
    case "session_info_changed":
      state.sessionName = event.name ?? null;
      return;
    case "compaction_start":
      state.isCompacting = true;
      return;
    case "compaction_end":
      state.isCompacting = false;
      return;
    case "auto_retry_start":
      state.retry = {
        attempt: event.attempt,
        maxAttempts: event.maxAttempts,
        delayMs: event.delayMs,
        errorMessage: event.errorMessage,
        at: Date.now(),
      };
      return;
    case "auto_retry_end":
      state.retry = null;
      return;
    case "extension_error":
      pushBounded(
        state.extensionErrors,
        { extensionPath: event.extensionPath, event: event.event, error: event.error, at: Date.now() },
        MAX_FAILURES,
      );
      return;
    default:
      return;
  }
}

function ensureTool(state: SessionState, toolCallId: string, toolName: string, args: unknown) {
  let tool = state.tools[toolCallId];
  if (tool === undefined) {
    // The start was before a truncated replay began.
    state.tools[toolCallId] = {
      toolCallId,
      toolName,
      args,
      status: "running",
      partialResult: null,
      result: null,
      startedAt: Date.now(),
      endedAt: null,
    };
    tool = state.tools[toolCallId]!;
  }
  return tool;
}

/** A run that settled cannot still be executing tools (e.g. aborted before tool_execution_end). */
function finishOrphanedTools(state: SessionState): void {
  for (const id in state.tools) {
    const tool = state.tools[id]!;
    if (tool.status === "running") {
      tool.status = "failed";
      tool.endedAt = Date.now();
    }
  }
}

function isSystemMessage(message: { role?: unknown }): message is SystemMessage {
  return message.role === "system";
}

function onMessageStart(state: SessionState, message: AgentMessage): void {
  if (!message || typeof message !== "object") return;
  if (isSystemMessage(message)) return; // kept on message_end, never in the conversation
  if (message.role === "assistant") {
    beginAssistantStream(state, message);
    return;
  }
  state.messages.push(message);
  state.openMessageIndex = state.messages.length - 1;
}

function onMessageEnd(state: SessionState, message: AgentMessage): void {
  if (!message || typeof message !== "object") return;
  if (isSystemMessage(message)) {
    state.systemPrompt = message;
    return;
  }
  if (message.role === "assistant") {
    endAssistantStream(state, message as AssistantMessage);
    return;
  }
  const open = state.openMessageIndex;
  let index: number;
  if (open !== null && state.messages[open]?.role === message.role) {
    state.messages[open] = message;
    index = open;
  } else {
    state.messages.push(message);
    index = state.messages.length - 1;
  }
  state.openMessageIndex = null;
  if (message.role === "toolResult") state.toolResultIndex[message.toolCallId] = index;
}

function applyResponse(state: SessionState, response: RpcResponse): void {
  const id = "id" in response && typeof response.id === "string" ? response.id : null;
  const mine = id !== null && id in state.pending;
  if (mine) delete state.pending[id];

  if (!response.success) {
    // Other browsers' failures are theirs to show; pi's parse failure has no id at all.
    if (mine || id === null) {
      pushBounded(
        state.failures,
        { id, command: String(response.command), error: String(response.error ?? "unknown error"), at: Date.now() },
        MAX_FAILURES,
      );
    }
    return;
  }

  // Successful answers describe pi's state no matter who asked.
  const data = (response as { data?: unknown }).data as Record<string, unknown> | null | undefined;
  switch (response.command) {
    case "get_state":
      if (data) applySessionState(state, data as unknown as RpcSessionState);
      return;
    case "set_model":
      if (data) state.model = data as unknown as Model;
      return;
    case "cycle_model":
      if (data) {
        state.model = data.model as Model;
        state.thinkingLevel = data.thinkingLevel as ThinkingLevel;
      }
      return;
    case "cycle_thinking_level":
      if (data) state.thinkingLevel = data.level as ThinkingLevel;
      return;
    case "clear_queue":
      state.queue = { steering: [], followUp: [] };
      return;
    case "get_messages":
      // Only our own request: we asked because our view is incomplete.
      if (mine && data && Array.isArray(data.messages)) applyGetMessages(state, data.messages as AgentMessage[]);
      return;
    default:
      return;
  }
}

function applySessionState(state: SessionState, data: RpcSessionState): void {
  state.piState = data;
  state.model = data.model ?? null;
  state.thinkingLevel = data.thinkingLevel ?? null;
  state.sessionId = data.sessionId ?? null;
  state.sessionName = data.sessionName ?? null;
  state.sessionFile = data.sessionFile ?? null;
  state.isCompacting = Boolean(data.isCompacting);
  // A replay that began mid-run never saw agent_start. The opposite is not
  // trusted: between agent_end and agent_settled pi may report not streaming.
  if (data.isStreaming) state.status = "streaming";
}

/**
 * Rebuild the transcript from a get_messages answer (e.g. after a truncated
 * replay). A message still streaming is kept at the end: get_messages only
 * holds finished messages. System messages in the answer (pi 0.87.1 sends
 * the system prompt as its first element) become `systemPrompt`.
 */
export function applyGetMessages(state: SessionState, messages: readonly AgentMessage[]): void {
  const live = state.stream !== null ? state.messages[state.stream.messageIndex] : undefined;
  const liveArgs = state.stream?.toolArgsText ?? {};
  // pi 0.87.1 puts the system message first in get_messages: keep it apart.
  const next: ConversationMessage[] = [];
  for (const m of messages) {
    if (!m || typeof m !== "object") continue;
    if (isSystemMessage(m)) state.systemPrompt = m;
    else next.push(m);
  }
  state.messages = next;
  state.openMessageIndex = null;
  state.toolResultIndex = {};
  next.forEach((m, i) => {
    if (m.role === "toolResult") state.toolResultIndex[m.toolCallId] = i;
  });
  if (live !== undefined) {
    state.messages.push(live);
    state.stream = { messageIndex: state.messages.length - 1, toolArgsText: { ...liveArgs } };
  } else {
    state.stream = null;
  }
}

/** Reduce a whole transcript (e.g. a captured fixture) into a fresh state. */
export function reduceAll(records: readonly unknown[], state: SessionState = createSessionState()): SessionState {
  for (const record of records) applyRecord(state, record);
  return state;
}
