// The state the reducer builds from pi's stdout. Plain data only: in the
// browser it lives inside a Svelte `$state` deep proxy, in Node (tests) it is
// an ordinary object. The reducer mutates it in place, always through the
// state object itself (never through a reference kept from earlier), so the
// proxy sees every write.

import type { AssistantMessage, ConversationMessage, Model, RpcSessionState, SystemMessage, ThinkingLevel, ToolResultPayload, Usage } from "../pi-types.ts";
import { createExtensionUiState, type ExtensionUiState } from "../extension-ui/extension-ui-state.ts";

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
  /** Browser clock: when this browser saw the start (or first heard of the call), and the end. */
  startedAt: number;
  endedAt: number | null;
  /**
   * startedAt/endedAt are a real measure of the run: both were seen live (not
   * replayed history, where records arrive all at once) and the end was
   * pi's, not the settle that cleaned up an orphan.
   */
  timedLive: boolean;
  /** pi ≥ 1.1: how long execute() took, from tool_execution_end; null when pi did not say. */
  durationMs: number | null;
  /** pi ≥ 0.99: the calling tool's id when another tool made this call (`ctx.executeTool()`); null for a model's call. */
  parentToolCallId: string | null;
  /** Ids of the calls this tool made to other tools, in start order (their executions are in `tools` too). */
  nestedIds: string[];
}

export interface PendingCommand {
  type: string;
  sentAt: number;
  /**
   * Past the timeout but legitimately slow (a `prompt` of an extension command
   * is answered only after its dialogs; `compact` and `bash` take as long as
   * they take): shown as "waiting", never as failed.
   */
  overdue?: boolean;
  /** For `bash`: the command line, so its bashExecution message can be rebuilt. */
  bashCommand?: string;
  excludeFromContext?: boolean;
}

/** A command that got no answer within the timeout. A late answer still lands. */
export interface TimedOutCommand {
  id: string;
  type: string;
  sentAt: number;
  expiredAt: number;
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
  /** When auto_retry_start arrived: the countdown ends at `at + delayMs`. */
  at: number;
  /** "waiting" during the delay, "retrying" once the retried run started (agent_start). */
  phase: "waiting" | "retrying";
}

export type CompactionReason = "manual" | "threshold" | "overflow";

export interface CompactionState {
  active: boolean;
  reason: CompactionReason | null;
  startedAt: number | null;
  endedAt: number | null;
  /** How the last compaction ended; null while running or before any. */
  outcome: "done" | "aborted" | "failed" | null;
  errorMessage: string | null;
  /** Overflow recovery: pi retries the prompt after this compaction. */
  willRetry: boolean;
  summary: string | null;
  tokensBefore: number | null;
  estimatedTokensAfter: number | null;
}

/** A summarisation (compaction / branch summary) retry in progress. */
export interface SummarizationRetryInfo {
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  errorMessage: string;
  at: number;
  /** Set by summarization_retry_attempt_start. */
  source: "compaction" | "branchSummary" | null;
  reason: CompactionReason | null;
  attemptStartedAt: number | null;
}

interface MarkerBase {
  /** Unique within a session state: a stable key for rendering. */
  seq: number;
  /**
   * Where it happened: the marker sits before `messages[beforeIndex]` (after
   * every earlier message; equal to messages.length means "at the end").
   */
  beforeIndex: number;
  at: number;
}

/** Something that happened in the conversation but is not a message. */
export type TranscriptMarker =
  | (MarkerBase & {
      kind: "retry";
      attempt: number;
      maxAttempts: number;
      delayMs: number;
      errorMessage: string;
      /** The failed assistant message pi dropped from the context before retrying. */
      failedMessage: AssistantMessage | null;
    })
  | (MarkerBase & { kind: "retryEnd"; attempt: number; success: boolean; finalError: string | null })
  | (MarkerBase & {
      kind: "compaction";
      reason: CompactionReason;
      outcome: "done" | "aborted" | "failed";
      errorMessage: string | null;
      willRetry: boolean;
      tokensBefore: number | null;
      estimatedTokensAfter: number | null;
    })
  /** Someone else did something that changed what everyone sees ("Ada aborted the run"). */
  | (MarkerBase & {
      kind: "room";
      /** The whole sentence, plain text (names are other people's text). */
      text: string;
      name: string;
      colour: string;
    })
  /** An extension's custom entry (pi.appendEntry), shown collapsed with its data (custom-entries.ts). */
  | (MarkerBase & { kind: "customEntry"; entryId: string; customType: string; data: unknown })
  | (MarkerBase & {
      kind: "summarizationRetry";
      attempt: number;
      maxAttempts: number;
      delayMs: number;
      errorMessage: string;
    });

/** Output of an RPC `bash` command (not a tool call), by command id. */
export interface BashRun {
  id: string;
  command: string | null;
  output: string;
  status: "running" | "done" | "failed";
  exitCode: number | undefined;
  cancelled: boolean;
  truncated: boolean;
  startedAt: number;
  endedAt: number | null;
}

export interface RunInfo {
  /** agent_start … agent_end of one low-level run (several per settled run with retries). */
  agentRunning: boolean;
  /** When the current settled-to-settled run began (first agent_start after idle). */
  startedAt: number | null;
  /** willRetry of the last agent_end. */
  lastEndWillRetry: boolean;
  /** agent_start count, and agent_settled count, since this state was created. */
  agentRuns: number;
  settledCount: number;
  /** turn_start count since this state was created. */
  turns: number;
  /**
   * pi ≥ 1.1: whether the last settled run ended because it was aborted
   * (agent_settled.aborted); null before any, or when pi does not say (0.87.1).
   */
  lastSettledAborted: boolean | null;
  /**
   * pi ≥ 0.99: what became of the last prompt, steer or follow_up anyone sent
   * ("handled": an extension consumed it and no run starts for it); null
   * before any, or when pi does not say (0.87.1).
   */
  lastDisposition: InputDisposition | null;
}

/** The disposition pi gave a prompt, steer or follow_up. */
export interface InputDisposition {
  command: "prompt" | "steer" | "follow_up";
  /** The command's id; null when it had none. */
  id: string | null;
  disposition: "started" | "queued" | "handled";
  /** Sent by this browser. */
  mine: boolean;
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
  /** Mirrors compaction.active (kept for existing readers). */
  isCompacting: boolean;
  compaction: CompactionState;
  retry: RetryInfo | null;
  summarizationRetry: SummarizationRetryInfo | null;
  run: RunInfo;
  /** The turn in progress (turn_start … turn_end); index counts turns in this state. */
  turn: { index: number; startedAt: number } | null;
  /** Retries, compactions … positioned relative to `messages`. Bounded. */
  markers: TranscriptMarker[];
  nextMarkerSeq: number;
  /**
   * The transcript changed in a way pi's stream does not describe message by
   * message (compaction replaced history; an RPC bash added a message with no
   * message_* events): the connection should send get_messages.
   */
  needsMessages: boolean;
  /**
   * pi is on another session than the one shown (a switch by anyone, an
   * extension, a restart): the connection loads it (get_entries, and
   * get_messages when the entries cannot say) and clears this.
   */
  needsSessionLoad: boolean;
  /** Session entries pi announced with entry_appended (extension entries, context edits). Bounded. */
  entries: unknown[];
  bashRuns: Record<string, BashRun>;
  /** The texts the last clear_queue answer returned, e.g. to put back into the editor. */
  clearedQueue: { steering: string[]; followUp: string[] } | null;
  lastUsage: Usage | null;
  tools: Record<string, ToolExecution>;
  /** Ids of the executions in `tools` still running: a settle finishes only these, not every tool of the session. */
  runningTools: Record<string, true>;
  queue: { steering: string[]; followUp: string[] };
  /** Commands this browser sent and pi has not answered yet. */
  pending: Record<string, PendingCommand>;
  /** Commands moved out of `pending` by expirePending. Bounded. */
  timedOut: TimedOutCommand[];
  /** success:false answers to this browser's commands, and pi's id-less parse failures. Bounded. */
  failures: CommandFailure[];
  /** Stdout lines that were not JSON. Bounded. */
  invalidLines: { raw: string; error: string; at: number }[];
  extensionErrors: { extensionPath: string; event: string; error: string; at: number }[];
  /** Dialogs, status entries, widgets, title and toasts extensions asked for. */
  extensionUi: ExtensionUiState;
}

export const MAX_FAILURES = 50;
export const MAX_INVALID_LINES = 100;
export const MAX_MARKERS = 500;
export const MAX_ENTRIES = 200;
export const MAX_BASH_RUNS = 50;

export function idleCompaction(): CompactionState {
  return {
    active: false,
    reason: null,
    startedAt: null,
    endedAt: null,
    outcome: null,
    errorMessage: null,
    willRetry: false,
    summary: null,
    tokensBefore: null,
    estimatedTokensAfter: null,
  };
}

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
    compaction: idleCompaction(),
    retry: null,
    summarizationRetry: null,
    run: {
      agentRunning: false,
      startedAt: null,
      lastEndWillRetry: false,
      agentRuns: 0,
      settledCount: 0,
      turns: 0,
      lastSettledAborted: null,
      lastDisposition: null,
    },
    turn: null,
    markers: [],
    nextMarkerSeq: 1,
    needsMessages: false,
    needsSessionLoad: false,
    entries: [],
    bashRuns: {},
    clearedQueue: null,
    lastUsage: null,
    tools: {},
    runningTools: {},
    queue: { steering: [], followUp: [] },
    pending: {},
    timedOut: [],
    failures: [],
    invalidLines: [],
    extensionErrors: [],
    extensionUi: createExtensionUiState(),
  };
}

/**
 * pi moved to another session (new_session, switch_session, fork, clone):
 * what belonged to the old conversation goes; pi's model, settings,
 * extension UI, commands in flight and the error history stay. The transcript
 * is loaded afresh (needsSessionLoad), since a switched-to session already
 * has messages the stream never carried.
 */
export function startAnotherSession(state: SessionState): void {
  const fresh = createSessionState();
  state.messages = fresh.messages;
  state.stream = null;
  state.openMessageIndex = null;
  state.toolResultIndex = {};
  state.isCompacting = false;
  state.compaction = fresh.compaction;
  state.retry = null;
  state.summarizationRetry = null;
  state.turn = null;
  state.markers = [];
  state.entries = [];
  state.clearedQueue = null;
  state.lastUsage = null;
  state.tools = {};
  state.runningTools = {};
  state.queue = fresh.queue;
  state.needsMessages = false;
  state.needsSessionLoad = true;
  // Known again from the next get_state; meanwhile they would name the old session.
  state.sessionId = null;
  state.sessionName = null;
  state.sessionFile = null;
}

/** Back to a fresh state in place (a new pi child): the proxy stays the same object. */
export function resetSessionState(state: SessionState): void {
  Object.assign(state, createSessionState());
}
