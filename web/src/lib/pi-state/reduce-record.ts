// The session reducer: one pi stdout record in, state mutated in place.
// Pure and synchronous, no Svelte, no DOM: Node tests feed it captured
// transcripts through `reduceAll`.

import type { DecodedLine } from "@pier/protocol";
import type { AgentMessage, ConversationMessage, AssistantMessage, BashExecutionMessage, PiEvent, RpcResponse, RpcSessionState, SystemMessage, ThinkingLevel, Model } from "../pi-types.ts";
import { applyExtensionError, applyExtensionUiRequest, noteDialogEvidence } from "../extension-ui/extension-ui-state.ts";
import { applyAssistantEvent, beginAssistantStream, endAssistantStream } from "./assistant-stream.ts";
import { noteLoadedMessages } from "./loaded-messages.ts";
import { takeAnswered, type AnsweredCommand } from "./pending-commands.ts";
import { onToolExecutionEnd, onToolExecutionStart, onToolExecutionUpdate } from "./tool-executions.ts";
import { shownCustomEntry } from "./custom-entries.ts";
import { appendBounded, replacedList } from "./replaced-lists.ts";
import {
  addMarker,
  onAgentEnd,
  onAgentSettled,
  onAgentStart,
  onAutoRetryEnd,
  onAutoRetryStart,
  onCompactionEnd,
  onCompactionStart,
  onInputAnswered,
  onSummarizationRetryAttemptStart,
  onSummarizationRetryScheduled,
  onTurnEnd,
  onTurnStart,
} from "./run-events.ts";
import { createSessionState, MAX_BASH_RUNS, MAX_ENTRIES, MAX_FAILURES, MAX_INVALID_LINES, startAnotherSession, type SessionState, type TranscriptMarker } from "./session-state.ts";

type AnyRecord = { type?: unknown; [key: string]: unknown };

export { expirePending, noteCommandSent } from "./pending-commands.ts";

/** Record a stdout line that was not JSON. */
export function applyInvalidLine(state: SessionState, raw: string, error: string, now = Date.now()): void {
  state.invalidLines = appendBounded(state.invalidLines, { raw, error, at: now }, MAX_INVALID_LINES);
}

/** Feed one decoded line (record or non-JSON text). */
export function applyDecodedLine(state: SessionState, line: DecodedLine): void {
  if (line.kind === "invalid") applyInvalidLine(state, line.raw, line.error);
  else applyRecord(state, line.value);
}

/**
 * Apply one parsed pi stdout record. Unknown records are ignored (the log
 * still shows them). `now` is when it arrived: durations and times come from
 * it, so a replay of recorded records shows the times they had live.
 */
export function applyRecord(state: SessionState, value: unknown, now = Date.now()): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  const record = value as AnyRecord;
  // A streaming step (thousands a second) is no evidence for dialogs: it goes
  // straight to the live message, without reading the state's extensionUi.
  if (record.type === "message_update") return applyEvent(state, record as unknown as PiEvent, now);
  // Runs and prompt answers are what tells that an extension stopped waiting for a dialog.
  noteDialogEvidence(state.extensionUi, record);
  if (record.type === "extension_ui_request") {
    applyExtensionUiRequest(state.extensionUi, record, now, pendingPrompts(state));
    return;
  }
  if (record.type === "response") {
    applyResponse(state, record as unknown as RpcResponse, now);
    return;
  }
  // extension_ui_request records are handled by the extension UI module (one dispatch line here).
  applyEvent(state, record as unknown as PiEvent, now);
}

/** Ids of this page's prompts pi has not answered yet. */
function pendingPrompts(state: SessionState): string[] {
  return Object.entries(state.pending).flatMap(([id, command]) => (command.type === "prompt" ? [id] : []));
}

function applyEvent(state: SessionState, event: PiEvent, now: number): void {
  switch (event.type) {
    case "agent_start":
      onAgentStart(state, now);
      return;
    case "agent_end":
      onAgentEnd(state, event);
      return;
    case "agent_settled":
      onAgentSettled(state, event, now);
      return;
    case "turn_start":
      onTurnStart(state, now);
      return;
    case "turn_end":
      onTurnEnd(state);
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
      onToolExecutionStart(state, event, now);
      return;
    case "tool_execution_update":
      onToolExecutionUpdate(state, event, now);
      return;
    case "tool_execution_end":
      onToolExecutionEnd(state, event, now);
      return;
    case "queue_update":
      state.queue = { steering: [...(event.steering ?? [])], followUp: [...(event.followUp ?? [])] };
      return;
    case "thinking_level_changed":
      state.thinkingLevel = event.level;
      return;
    case "session_info_changed":
      // Wire quirk: a cleared name is an absent field, not null.
      state.sessionName = event.name ?? null;
      return;
    case "entry_appended": {
      state.entries = appendBounded(state.entries, event.entry, MAX_ENTRIES);
      // An extension's own entry shows where pi appended it; pi's bookkeeping entries do not.
      const shown = shownCustomEntry(event.entry);
      if (shown !== null) addMarker(state, { kind: "customEntry", at: now, ...shown });
      return;
    }
    case "compaction_start":
      onCompactionStart(state, event, now);
      return;
    case "compaction_end":
      onCompactionEnd(state, event, now);
      return;
    case "auto_retry_start":
      onAutoRetryStart(state, event, now);
      return;
    case "auto_retry_end":
      onAutoRetryEnd(state, event, now);
      return;
    case "summarization_retry_scheduled":
      onSummarizationRetryScheduled(state, event, now);
      return;
    case "summarization_retry_attempt_start":
      onSummarizationRetryAttemptStart(state, event, now);
      return;
    case "summarization_retry_finished":
      state.summarizationRetry = null;
      return;
    case "bash_execution_update":
      onBashOutput(state, event.id ?? "", event.delta, now);
      return;
    case "extension_error":
      applyExtensionError(state.extensionUi, event, now);
      state.extensionErrors = appendBounded(state.extensionErrors, { extensionPath: event.extensionPath, event: event.event, error: event.error, at: now }, MAX_FAILURES);
      return;
    default:
      return;
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

function applyResponse(state: SessionState, response: RpcResponse, now: number): void {
  const id = "id" in response && typeof response.id === "string" ? response.id : null;
  const answered = takeAnswered(state, id);
  const mine = answered.mine;

  if (!response.success) {
    // Other browsers' failures are theirs to show; pi's parse failure has no id at all.
    if (mine || id === null) {
      state.failures = appendBounded(state.failures, { id, command: String(response.command), error: String(response.error ?? "unknown error"), at: now }, MAX_FAILURES);
    }
    if (response.command === "bash" && id !== null) endBashRun(state, id, undefined, now);
    return;
  }

  // Successful answers describe pi's state no matter who asked.
  const data = (response as { data?: unknown }).data as Record<string, unknown> | null | undefined;
  switch (response.command) {
    case "get_state":
      if (data) applySessionState(state, data as unknown as RpcSessionState);
      return;
    case "new_session":
    case "switch_session":
    case "fork":
    case "clone":
      if (data?.cancelled !== true) startAnotherSession(state);
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
    case "prompt":
    case "steer":
    case "follow_up":
      onInputAnswered(state, response.command, id, data, answered.mine, now);
      return;
    case "clear_queue":
      state.queue = { steering: [], followUp: [] };
      if (data) {
        state.clearedQueue = {
          steering: Array.isArray(data.steering) ? [...(data.steering as string[])] : [],
          followUp: Array.isArray(data.followUp) ? [...(data.followUp as string[])] : [],
        };
      }
      return;
    case "bash":
      if (id !== null) endBashRun(state, id, data as unknown as BashResult | undefined, now);
      if (data) onBashResult(state, data as unknown as BashResult, answered, id, now);
      return;
    case "get_messages":
      // Only our own request: we asked because our view is incomplete.
      if (mine && data && Array.isArray(data.messages)) applyGetMessages(state, data.messages as AgentMessage[]);
      return;
    default:
      return;
  }
}

interface BashResult {
  output: string;
  exitCode: number | undefined;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
}

function onBashOutput(state: SessionState, id: string, delta: string, now: number): void {
  let run = state.bashRuns[id];
  if (run === undefined) {
    const ids = Object.keys(state.bashRuns);
    if (ids.length >= MAX_BASH_RUNS) delete state.bashRuns[ids[0]!];
    state.bashRuns[id] = {
      id,
      command: state.pending[id]?.bashCommand ?? null,
      output: "",
      status: "running",
      exitCode: undefined,
      cancelled: false,
      truncated: false,
      startedAt: now,
      endedAt: null,
    };
    run = state.bashRuns[id]!;
  }
  run.output += delta;
}

function endBashRun(state: SessionState, id: string, result: BashResult | undefined, now: number): void {
  const run = state.bashRuns[id];
  if (run === undefined) return;
  run.endedAt = now;
  if (result === undefined) {
    run.status = "failed";
    return;
  }
  run.status = "done";
  run.exitCode = result.exitCode;
  run.cancelled = Boolean(result.cancelled);
  run.truncated = Boolean(result.truncated);
}

/**
 * An RPC bash adds a bashExecution message to pi's context with no message_*
 * events. Rebuild it from the answer (the command line is known only for our
 * own commands, the timestamp only to pi) and ask for get_messages to get
 * pi's exact copy. While a run streams pi holds the message back until the
 * run ends, so only the resync places it then.
 */
function onBashResult(state: SessionState, result: BashResult, answered: AnsweredCommand, id: string | null, now: number): void {
  state.needsMessages = true;
  if (state.status !== "idle") return;
  const message: BashExecutionMessage = {
    role: "bashExecution",
    command: answered.bashCommand ?? (id !== null ? state.bashRuns[id]?.command : null) ?? "",
    output: result.output,
    exitCode: result.exitCode,
    cancelled: Boolean(result.cancelled),
    truncated: Boolean(result.truncated),
    timestamp: now,
  };
  if (result.fullOutputPath !== undefined) message.fullOutputPath = result.fullOutputPath;
  if (answered.excludeFromContext) message.excludeFromContext = true;
  state.messages.push(message);
}

/**
 * pi with no model configured still reports one in get_state: a placeholder
 * whose id, name, api and provider are all "unknown" (0.87.1 and 1.6.0). It
 * is no model, and the page says so instead of "unknown unknown".
 */
function configuredModel(model: Model | null | undefined): Model | null {
  if (!model) return null;
  const placeholder = model.id === "unknown" && model.provider === "unknown" && model.api === "unknown";
  return placeholder ? null : model;
}

function applySessionState(state: SessionState, data: RpcSessionState): void {
  // pi moved to another session without a command of ours saying so (an
  // extension's switch, another client): follow it.
  if (state.sessionId !== null && typeof data.sessionId === "string" && data.sessionId !== state.sessionId) startAnotherSession(state);
  state.piState = data;
  state.model = configuredModel(data.model);
  state.thinkingLevel = data.thinkingLevel ?? null;
  state.sessionId = data.sessionId ?? null;
  state.sessionName = data.sessionName ?? null;
  state.sessionFile = data.sessionFile ?? null;
  state.isCompacting = Boolean(data.isCompacting);
  state.compaction.active = state.isCompacting;
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
  noteLoadedMessages(state.messages, next);
  state.needsMessages = false;
  state.needsSessionLoad = false;
  repositionMarkers(state);
  state.openMessageIndex = null;
  // Built whole, then set once: written key by key into the page's $state it cost a loaded session a write trap per tool result.
  const toolResultIndex: Record<string, number> = {};
  next.forEach((m, i) => {
    if (m.role === "toolResult") toolResultIndex[m.toolCallId] = i;
  });
  state.toolResultIndex = toolResultIndex;
  if (live !== undefined) {
    state.messages.push(live);
    state.stream = { messageIndex: state.messages.length - 1, toolArgsText: { ...liveArgs } };
  } else {
    state.stream = null;
  }
}

/**
 * After the transcript was replaced, keep every marker inside it; the last
 * successful compaction sits just after the compactionSummary that now opens
 * pi's context.
 */
function repositionMarkers(state: SessionState): void {
  const length = state.messages.length;
  const markers = state.markers;
  let lastCompaction = -1;
  markers.forEach((marker, i) => {
    if (marker.kind === "compaction" && marker.outcome === "done") lastCompaction = i;
  });
  const summaryAt = lastCompaction === -1 ? -1 : state.messages.findLastIndex((m) => m.role === "compactionSummary");
  // The markers are not changed in place (replaced-lists.ts): a moved one is a copy.
  let moved: TranscriptMarker[] | null = null;
  markers.forEach((marker, i) => {
    const beforeIndex = i === lastCompaction && summaryAt !== -1 ? summaryAt + 1 : Math.min(marker.beforeIndex, length);
    if (beforeIndex === marker.beforeIndex) return;
    moved ??= markers.slice();
    moved[i] = { ...marker, beforeIndex };
  });
  if (moved !== null) state.markers = replacedList(moved);
}

/** Reduce a whole transcript (e.g. a captured fixture) into a fresh state. */
export function reduceAll(records: readonly unknown[], state: SessionState = createSessionState()): SessionState {
  for (const record of records) applyRecord(state, record);
  return state;
}
