// Conversation messages as pi 0.87.1 writes them (message_start/end,
// turn_end, agent_end, get_messages, session entries). `AgentMessage` is
// pi-ai's `Message` (system/user/assistant/toolResult) plus the coding
// agent's own roles (bashExecution, custom, branchSummary, compactionSummary).
// Fields documented "pi ≥ x" are what newer pi adds (checked against pi
// 1.6.0); they are absent from 0.87.1's output, hence optional.

import type { ThinkingLevel } from "./model.ts";

/** Any JSON value (tool-call arguments, tool result details). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

// ---------------------------------------------------------------------------
// Content blocks
// ---------------------------------------------------------------------------

/** Plain text. `textSignature` is an opaque provider token; do not display it. */
export interface TextContent {
  type: "text";
  text: string;
  textSignature?: string;
}

/** Model reasoning. When `redacted`, the text is empty and the payload lives in `thinkingSignature`. */
export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  thinkingSignature?: string;
  redacted?: boolean;
}

/** An inline image: base64 `data` (no `data:` prefix) and its MIME type. */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/** A tool call requested by the assistant. `id` links it to tool_execution_* events and the toolResult. */
export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: JsonObject;
  thoughtSignature?: string;
  /** OpenAI Responses namespace for namespaced tools. */
  namespace?: string;
}

// ---------------------------------------------------------------------------
// Usage
// ---------------------------------------------------------------------------

/** Cost in USD per token class, plus the total. */
export interface UsageCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
  /** pi ≥ 1.5: true when `total` is the cost the provider billed, false (or absent) for a catalog estimate. */
  totalFromProvider?: boolean;
}

/**
 * Token counts and cost of one assistant response. While streaming, usage is
 * often all zeros until the provider reports it (typically at text_end or
 * done) — zero does not mean "free".
 */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Subset of `cacheWrite` written with 1h retention (Anthropic only). */
  cacheWrite1h?: number;
  /** Reasoning tokens, a subset of `output`, when the provider reports them. */
  reasoning?: number;
  totalTokens: number;
  cost: UsageCost;
}

// ---------------------------------------------------------------------------
// Messages from pi-ai
// ---------------------------------------------------------------------------

/** Why an assistant message ended. "pending" only appears on the message_start snapshot. */
export type StopReason = "pending" | "stop" | "length" | "toolUse" | "error" | "aborted" | "deferred";

/** A tool declaration as carried by a system message (`parameters` is a JSON Schema). */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: object;
  constrainedSampling?: false | { type: "json_schema"; strict: "prefer" | "require" } | { type: "grammar"; variants: Partial<Record<"openai_lark" | "openai_regex", string>> };
}

/** A reference to a tool by name (used when tools are removed). */
export interface ToolReference {
  name: string;
}

/**
 * System prompt / instructions. pi streams the system prompt as a
 * message_start/message_end pair with this role at the start of a run: it is
 * not assistant output. The leading one has the base prompt in `content`
 * (often "") and named prompt `sections`; later ones replace sections by
 * name (`null` removes one) and add or remove tools.
 */
export interface SystemMessage {
  role: "system";
  content: string | TextContent[];
  sections?: Record<string, string | null>;
  toolsAdded?: ToolDefinition[];
  toolsRemoved?: ToolReference[];
  /** Unix time in milliseconds. */
  timestamp: number;
}

/** What the user sent (prompt, steer, follow_up). */
export interface UserMessage {
  role: "user";
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
}

/** Diagnostic note a provider attached to an assistant message (debugging aid). */
export interface AssistantMessageDiagnostic {
  type: string;
  timestamp: number;
  error?: { name?: string; message: string; stack?: string; code?: string | number };
  details?: JsonObject;
}

/** Handle of a provider request that continues asynchronously (stopReason "deferred"). */
export interface DeferredHandle {
  provider: string;
  modelId: string;
  api: string;
  id: string;
  expiresAt?: number;
  pollAfterMs?: number;
  data?: JsonValue;
}

/**
 * One model response. On message_start it is an empty snapshot
 * (`content: []`, `stopReason: "pending"`); the message_end copy is
 * authoritative. A failed request ends with stopReason "error" and
 * `errorMessage`; an aborted one with "aborted".
 */
export interface AssistantMessage {
  role: "assistant";
  content: (TextContent | ThinkingContent | ToolCall)[];
  api: string;
  provider: string;
  /** Requested model id. */
  model: string;
  /** Model id the provider reports it actually used, if different. */
  responseModel?: string;
  responseId?: string;
  /** Provider-native effort level used for this response. */
  providerThinkingLevel?: string;
  diagnostics?: AssistantMessageDiagnostic[];
  usage: Usage;
  stopReason: StopReason;
  deferred?: DeferredHandle;
  errorMessage?: string;
  /** Provider's own stop reason string, for debugging. */
  rawStopReason?: string;
  endTurn?: boolean;
  /** When the request started (Unix ms). */
  timestamp: number;
  /** pi ≥ 1.x (seen in 1.6.0): thinking level the agent requested for this response. */
  thinkingLevel?: ThinkingLevel;
  /**
   * pi ≥ 1.x (seen in 1.6.0): milliseconds from `timestamp` until the response ended
   * (monotonic clock). Only on the final message (message_end), never on the
   * message_start snapshot.
   */
  durationMs?: number;
}

/** pi ≥ 0.99: one call a tool made to another tool (`ctx.executeTool()`), as recorded on its toolResult. Results are never recorded. */
export interface NestedToolCallRecord {
  /** `<calling tool's id>/<n>`: the toolCallId of its tool_execution_* events. */
  id: string;
  name: string;
  /** Omitted when over pi's size limits; `argumentsBytes` then gives their size. */
  arguments?: JsonObject;
  argumentsBytes?: number;
  /** "unfinished": still running when the calling tool finished. */
  status: "ok" | "error" | "unfinished";
  durationMs?: number;
  /** Error text, truncated by pi. */
  error?: string;
}

/** pi ≥ 0.99: the bounded record of a tool's nested calls. */
export interface NestedToolCalls {
  calls: NestedToolCallRecord[];
  /** False when pi dropped calls, omitted arguments, or calls had not finished. */
  complete: boolean;
}

/** The result of one tool call, fed back to the model. */
export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  /** Tool-specific structured data for UIs (e.g. an edit's diff). */
  details?: JsonValue;
  /** Usage of the tool itself (e.g. a sub-agent), not of the main model. */
  usage?: Usage;
  isError: boolean;
  timestamp: number;
  /** pi ≥ 1.1: milliseconds the tool's execution took (monotonic clock). */
  durationMs?: number;
  /** pi ≥ 0.99: calls this tool made to other tools; kept for the record, not sent to the model. */
  nestedCalls?: NestedToolCalls;
}

// ---------------------------------------------------------------------------
// Messages added by the coding agent
// ---------------------------------------------------------------------------

/** A user-run shell command (RPC `bash` or `!cmd`), recorded in the conversation. */
export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  /** Absent (undefined) when the process was killed or cancelled. */
  exitCode: number | undefined;
  cancelled: boolean;
  truncated: boolean;
  /** Temp file with the full output when `truncated`. */
  fullOutputPath?: string;
  timestamp: number;
  /** True for `!!cmd` / `excludeFromContext`: shown but not sent to the model. */
  excludeFromContext?: boolean;
}

/** A message injected by an extension. Show it only when `display` is true. */
export interface CustomMessage {
  role: "custom";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
  timestamp: number;
}

/** Summary of a branch the conversation came back from (tree navigation). */
export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string | null;
  timestamp: number;
}

/** Summary that replaced compacted history. */
export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  tokensBefore: number;
  timestamp: number;
}

/** Any message pi puts in a conversation. Discriminate on `role`. */
export type AgentMessage = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage | BashExecutionMessage | CustomMessage | BranchSummaryMessage | CompactionSummaryMessage;

/** The `role` values of AgentMessage. */
export type AgentMessageRole = AgentMessage["role"];
