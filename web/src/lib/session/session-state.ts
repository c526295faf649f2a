// The state the reducer builds from pi's stdout. Plain data only: in the
// browser it lives inside a Svelte `$state` deep proxy, in Node (tests) it is
// an ordinary object. The reducer mutates it in place, always through the
// state object itself (never through a reference kept from earlier), so the
// proxy sees every write.

import type {
  ConversationMessage,
  Model,
  RpcSessionState,
  SystemMessage,
  ThinkingLevel,
  ToolResultPayload,
  Usage,
} from "../pi-types.ts";

export type AgentStatus = "idle" | "streaming";

export type ToolExecutionStatus = "running" | "done" | "failed";

export interface ToolExecution {
  toolCallId: string;
  toolName: string;
  args: unknown;
  status: ToolExecutionStatus;
  /** Latest partial result (cumulative: each update replaces the previous one). */
  partialResult: ToolResultPayload | null;
  result: ToolResultPayload | null;
  startedAt: number;
  endedAt: number | null;
}

export interface PendingCommand {
  type: string;
  sentAt: number;
}

export interface CommandFailure {
  /** Command id; null for pi's id-less `parse` failure. */
  id: string | null;
  command: string;
  error: string;
  at: number;
}

/** The assistant message being rebuilt from message_update deltas. */
export interface StreamCursor {
  /** Index of the live message in `messages`. */
  messageIndex: number;
  /** Raw argument JSON accumulated from toolcall_delta, per contentIndex. */
  toolArgsText: Record<number, string>;
}

export interface RetryInfo {
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  errorMessage: string;
  at: number;
}

export interface SessionState {
  status: AgentStatus;
  /** Conversation messages in arrival order; the live assistant message is included. */
  messages: ConversationMessage[];
  /** Set while an assistant message streams (between its message_start and message_end). */
  stream: StreamCursor | null;
  /** Index into `messages` of a non-assistant message between its start and end. */
  openMessageIndex: number | null;
  /** toolCallId → index of its toolResult message in `messages`. */
  toolResultIndex: Record<string, number>;
  /** Latest system prompt (pi re-sends it with each run); not a conversation message. */
  systemPrompt: SystemMessage | null;
  model: Model | null;
  thinkingLevel: ThinkingLevel | null;
  sessionId: string | null;
  sessionName: string | null;
  sessionFile: string | null;
  /** Last full get_state answer. */
  piState: RpcSessionState | null;
  isCompacting: boolean;
  retry: RetryInfo | null;
  lastUsage: Usage | null;
  tools: Record<string, ToolExecution>;
  queue: { steering: string[]; followUp: string[] };
  /** Commands this browser sent and pi has not answered yet. */
  pending: Record<string, PendingCommand>;
  /** success:false answers to this browser's commands, and pi's id-less parse failures. Bounded. */
  failures: CommandFailure[];
  /** Stdout lines that were not JSON. Bounded. */
  invalidLines: { raw: string; error: string; at: number }[];
  extensionErrors: { extensionPath: string; event: string; error: string; at: number }[];
}

export const MAX_FAILURES = 50;
export const MAX_INVALID_LINES = 100;

export function createSessionState(): SessionState {
  return {
    status: "idle",
    messages: [],
    stream: null,
    openMessageIndex: null,
    toolResultIndex: {},
    systemPrompt: null,
    model: null,
    thinkingLevel: null,
    sessionId: null,
    sessionName: null,
    sessionFile: null,
    piState: null,
    isCompacting: false,
    retry: null,
    lastUsage: null,
    tools: {},
    queue: { steering: [], followUp: [] },
    pending: {},
    failures: [],
    invalidLines: [],
    extensionErrors: [],
  };
}

/** Back to a fresh state in place (a new pi child): the proxy stays the same object. */
export function resetSessionState(state: SessionState): void {
  Object.assign(state, createSessionState());
}
