// Events pi 0.87.1 writes to stdout in RPC mode: everything that is not a
// response or an extension_ui_request. Events carry no `id`, except
// bash_execution_update (the id of the `bash` command that produced it).
//
// Lifecycle: agent_start → (turn_start → message_* → tool_execution_* →
// turn_end)* → agent_end → … → agent_settled. A run is finished only at
// agent_settled: retries, overflow compaction and queued follow-ups can
// continue after agent_end.
//
// Fields documented "pi ≥ x" are what newer pi adds (checked against pi
// 1.6.0); 0.87.1 never sends them.

import type { AgentMessage, AssistantMessage, ImageContent, TextContent, ToolCall, ToolResultMessage, Usage } from "./messages.ts";
import type { ThinkingLevel } from "./model.ts";
import type { CompactionResult, SessionEntry } from "./responses.ts";

// ---------------------------------------------------------------------------
// Streaming deltas inside message_update
// ---------------------------------------------------------------------------

/**
 * One streaming step of an assistant message, as on the wire: pi strips the
 * `partial` snapshot that its in-process type carries, so each block must be
 * rebuilt from `contentIndex` + deltas. `*_end` carries the block's final
 * text (or tool call) and supersedes the accumulated deltas.
 */
export type AssistantMessageEvent =
  /** Typed by pi but never sent in message_update (the message_start of an assistant message plays this role). */
  | { type: "start" }
  | { type: "text_start"; contentIndex: number }
  | { type: "text_delta"; contentIndex: number; delta: string }
  | { type: "text_end"; contentIndex: number; content: string }
  | { type: "thinking_start"; contentIndex: number }
  | { type: "thinking_delta"; contentIndex: number; delta: string }
  | { type: "thinking_end"; contentIndex: number; content: string }
  /** Carries the tool call's id and name so a card can open before the arguments stream in. */
  | { type: "toolcall_start"; contentIndex: number; id: string; toolName: string }
  /** `delta` is a fragment of the arguments' JSON text. */
  | { type: "toolcall_delta"; contentIndex: number; delta: string }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall }
  /** Typed by pi but never sent in message_update (message_end follows instead). */
  | { type: "done"; reason: "stop" | "length" | "toolUse" | "deferred"; message: AssistantMessage }
  /** Typed by pi but never sent in message_update (message_end follows instead). */
  | { type: "error"; reason: "aborted" | "error"; error: AssistantMessage };

/** The `type` of an AssistantMessageEvent. */
export type AssistantMessageEventType = AssistantMessageEvent["type"];

// ---------------------------------------------------------------------------
// Run lifecycle
// ---------------------------------------------------------------------------

/** A low-level agent run began. */
export interface AgentStartEvent {
  type: "agent_start";
}

/** A low-level run ended. `messages` are the messages it produced; `willRetry` means an auto-retry follows. */
export interface AgentEndEvent {
  type: "agent_end";
  messages: AgentMessage[];
  willRetry: boolean;
}

/** pi is idle and will not act on its own any more: the run is really over. */
export interface AgentSettledEvent {
  type: "agent_settled";
  /** pi ≥ 1.1: true when the run ended because it was aborted. Absent from 0.87.1 (unknown, not false). */
  aborted?: boolean;
}

/** One model call plus its tool calls begins. */
export interface TurnStartEvent {
  type: "turn_start";
}

/** A turn finished: its assistant message and tool results. */
export interface TurnEndEvent {
  type: "turn_end";
  message: AgentMessage;
  toolResults: ToolResultMessage[];
}

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

/**
 * A message begins. For assistant messages this is an empty snapshot
 * (`content: []`, stopReason "pending"). Also used for the system prompt
 * (role "system"), user input, tool results, bash executions and custom messages.
 */
export interface MessageStartEvent {
  type: "message_start";
  message: AgentMessage;
}

/**
 * A streaming step of the current assistant message. Wire quirk: only
 * `{type, usage, assistantMessageEvent}` — no accumulated `message` and no
 * `partial`. `usage` is the cumulative usage so far (often zero until late).
 */
export interface MessageUpdateEvent {
  type: "message_update";
  usage: Usage;
  assistantMessageEvent: AssistantMessageEvent;
}

/** A message is complete. Authoritative: replaces whatever was rebuilt from deltas. */
export interface MessageEndEvent {
  type: "message_end";
  message: AgentMessage;
}

// ---------------------------------------------------------------------------
// Tool execution
// ---------------------------------------------------------------------------

/**
 * A tool's (partial or final) result. pi types it `any`; built-in tools and
 * pi's own error results use this shape (`details` is tool-specific).
 */
export interface ToolExecutionResult {
  content: (TextContent | ImageContent)[];
  details?: unknown;
  usage?: Usage;
  terminate?: boolean;
  /** pi ≥ 0.99: machine-readable result for programmatic callers (e.g. a nested bash call's exit code). */
  structuredContent?: unknown;
  /** pi ≥ 0.99: the tool reported a failure without throwing. */
  isError?: boolean;
}

/**
 * pi ≥ 0.99: set on the tool_execution_* events of a call that another tool
 * made (`ctx.executeTool()`): the calling tool's toolCallId. Such a call's
 * own id is `<parentToolCallId>/<n>`; it is never a tool call or a toolResult
 * in the transcript (the caller's toolResult records it in `nestedCalls`).
 */
export interface NestedToolExecution {
  parentToolCallId?: string;
}

/** A tool call starts executing. Correlate by toolCallId (calls may run in parallel). */
export interface ToolExecutionStartEvent extends NestedToolExecution {
  type: "tool_execution_start";
  toolCallId: string;
  toolName: string;
  /** The validated arguments. */
  args: unknown;
}

/** Progress of a running tool (e.g. bash output so far). */
export interface ToolExecutionUpdateEvent extends NestedToolExecution {
  type: "tool_execution_update";
  toolCallId: string;
  toolName: string;
  args: unknown;
  partialResult: ToolExecutionResult;
}

/** A tool call finished. */
export interface ToolExecutionEndEvent extends NestedToolExecution {
  type: "tool_execution_end";
  toolCallId: string;
  toolName: string;
  result: ToolExecutionResult;
  isError: boolean;
  /** pi ≥ 1.1: how long the tool's execute() took (monotonic clock); absent when the tool did not run. */
  durationMs?: number;
}

// ---------------------------------------------------------------------------
// Queue, compaction, retries
// ---------------------------------------------------------------------------

/** The steering / follow-up queues changed; the full current contents. */
export interface QueueUpdateEvent {
  type: "queue_update";
  steering: readonly string[];
  followUp: readonly string[];
}

/** Why a compaction runs. "overflow" compacts after a context-overflow error and then retries. */
export type CompactionReason = "manual" | "threshold" | "overflow";

/** Compaction began. */
export interface CompactionStartEvent {
  type: "compaction_start";
  reason: CompactionReason;
}

/** Compaction finished (`result` absent when aborted or failed). */
export interface CompactionEndEvent {
  type: "compaction_end";
  reason: CompactionReason;
  result: CompactionResult | undefined;
  aborted: boolean;
  willRetry: boolean;
  errorMessage?: string;
}

/** A failed model call will be retried after `delayMs`. */
export interface AutoRetryStartEvent {
  type: "auto_retry_start";
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  errorMessage: string;
}

/** Retrying ended, successfully or not. */
export interface AutoRetryEndEvent {
  type: "auto_retry_end";
  success: boolean;
  attempt: number;
  finalError?: string;
}

/** A failed summarisation (compaction or branch summary) will be retried. */
export interface SummarizationRetryScheduledEvent {
  type: "summarization_retry_scheduled";
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  errorMessage: string;
}

/** A summarisation retry attempt starts. */
export type SummarizationRetryAttemptStartEvent =
  { type: "summarization_retry_attempt_start"; source: "branchSummary" } | { type: "summarization_retry_attempt_start"; source: "compaction"; reason: CompactionReason };

/** Summarisation retries are over. */
export interface SummarizationRetryFinishedEvent {
  type: "summarization_retry_finished";
}

// ---------------------------------------------------------------------------
// Session, settings, bash, extensions
// ---------------------------------------------------------------------------

/** An entry was appended to the session (not in pi's documented event table). */
export interface EntryAppendedEvent {
  type: "entry_appended";
  entry: SessionEntry;
}

/** The session name changed. Wire quirk: `name` is absent (not null) when cleared. */
export interface SessionInfoChangedEvent {
  type: "session_info_changed";
  name?: string;
}

/** The effective thinking level changed (also after a model switch clamps it). */
export interface ThinkingLevelChangedEvent {
  type: "thinking_level_changed";
  level: ThinkingLevel;
}

/** Output chunk of an RPC `bash` command. `id` is that command's id (absent if it had none). */
export interface BashExecutionUpdateEvent {
  type: "bash_execution_update";
  id?: string;
  delta: string;
}

/** An extension handler threw. RPC-mode only; not part of pi's AgentSessionEvent type. */
export interface ExtensionErrorEvent {
  type: "extension_error";
  extensionPath: string;
  /** The extension event being handled. */
  event: string;
  error: string;
}

/** Any event record pi writes to stdout. Discriminate on `type`. */
export type PiEvent =
  | AgentStartEvent
  | AgentEndEvent
  | AgentSettledEvent
  | TurnStartEvent
  | TurnEndEvent
  | MessageStartEvent
  | MessageUpdateEvent
  | MessageEndEvent
  | ToolExecutionStartEvent
  | ToolExecutionUpdateEvent
  | ToolExecutionEndEvent
  | QueueUpdateEvent
  | CompactionStartEvent
  | CompactionEndEvent
  | AutoRetryStartEvent
  | AutoRetryEndEvent
  | SummarizationRetryScheduledEvent
  | SummarizationRetryAttemptStartEvent
  | SummarizationRetryFinishedEvent
  | EntryAppendedEvent
  | SessionInfoChangedEvent
  | ThinkingLevelChangedEvent
  | BashExecutionUpdateEvent
  | ExtensionErrorEvent;

/** The `type` of any event. */
export type PiEventType = PiEvent["type"];

/** The event with the given type. */
export type PiEventOf<T extends PiEventType> = Extract<PiEvent, { type: T }>;

/** Every event type (runtime list, e.g. for the inspector's filters). */
export const PI_EVENT_TYPES = [
  "agent_start",
  "agent_end",
  "agent_settled",
  "turn_start",
  "turn_end",
  "message_start",
  "message_update",
  "message_end",
  "tool_execution_start",
  "tool_execution_update",
  "tool_execution_end",
  "queue_update",
  "compaction_start",
  "compaction_end",
  "auto_retry_start",
  "auto_retry_end",
  "summarization_retry_scheduled",
  "summarization_retry_attempt_start",
  "summarization_retry_finished",
  "entry_appended",
  "session_info_changed",
  "thinking_level_changed",
  "bash_execution_update",
  "extension_error",
] as const satisfies readonly PiEventType[];

// Compile-time proof that PI_EVENT_TYPES names every event type.
type AssertTrue<T extends true> = T;
type PiEventTypesListIsComplete = AssertTrue<[Exclude<PiEventType, (typeof PI_EVENT_TYPES)[number]>] extends [never] ? true : false>;
