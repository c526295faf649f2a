// Responses pi 0.87.1 writes to stdout: `{type:"response", command, success}`
// plus `data` or `error`. `id` echoes the command's id when it had one.
// Responses may arrive out of order; correlate by id.
//
// Wire quirks (JSON.stringify drops `undefined`):
// - commands without data have no `data` key at all (not `data: null`);
// - get_last_assistant_text with no text answers `data: {}` (typed `{text: string|null}` by pi);
// - fork answers `data: {cancelled}` without `text` when nothing was selected;
// - get_state omits `model`, `sessionFile`, `sessionName` when unset;
// - malformed JSON input gets `{type:"response", command:"parse", success:false, error}` with no id.

import type { QueueMode, RpcCommandType } from "./commands.ts";
import type { AgentMessage, AssistantMessage, CustomMessage, ImageContent, SystemMessage, TextContent, ToolResultMessage, Usage, UserMessage } from "./messages.ts";
import type { Model, ThinkingLevel } from "./model.ts";

// ---------------------------------------------------------------------------
// Data carried by responses
// ---------------------------------------------------------------------------

/** Snapshot of the session answered by get_state. */
export interface RpcSessionState {
  /** Absent when no model is configured. */
  model?: Model;
  thinkingLevel: ThinkingLevel;
  isStreaming: boolean;
  isCompacting: boolean;
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  /** Absent with --no-session (sessionId is still present). */
  sessionFile?: string;
  sessionId: string;
  sessionName?: string;
  autoCompactionEnabled: boolean;
  messageCount: number;
  pendingMessageCount: number;
}

/** How full the context window is. `tokens`/`percent` are null right after compaction. */
export interface ContextUsage {
  tokens: number | null;
  contextWindow: number;
  percent: number | null;
}

/** Totals answered by get_session_stats. `cost` is in USD. */
export interface SessionStats {
  sessionFile: string | undefined;
  sessionId: string;
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  toolResults: number;
  totalMessages: number;
  tokens: {
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
    total: number;
  };
  cost: number;
  contextUsage?: ContextUsage;
}

/** Result of an RPC `bash` command. */
export interface BashResult {
  /** Combined stdout + stderr (sanitised, possibly truncated). */
  output: string;
  /** Absent when the process was killed or cancelled. */
  exitCode: number | undefined;
  cancelled: boolean;
  truncated: boolean;
  /** Temp file with the full output when truncated. */
  fullOutputPath?: string;
}

/** Result of a compaction (compact response, compaction_end event). */
export interface CompactionResult {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  estimatedTokensAfter?: number;
  /** Usage of the summarising model call(s). */
  usage?: Usage;
  /** Extension-specific data. */
  details?: unknown;
}

/** Where a resource (extension, prompt template, skill) was loaded from. */
export interface SourceInfo {
  path: string;
  source: string;
  scope: "user" | "project" | "temporary";
  origin: "package" | "top-level";
  baseDir?: string;
}

/** A slash command invocable through `prompt` ("/name"), from get_commands. */
export interface RpcSlashCommand {
  /** Name without the leading slash; skills are "skill:<name>". */
  name: string;
  description?: string;
  source: "extension" | "prompt" | "skill";
  sourceInfo: SourceInfo;
}

/** Result of cycle_model (null data when there is nothing to cycle to). */
export interface ModelCycleResult {
  model: Model;
  thinkingLevel: ThinkingLevel;
  /** Whether cycling through the --models scope rather than all available models. */
  isScoped: boolean;
}

// ---------------------------------------------------------------------------
// Session entries (get_entries, get_tree, entry_appended)
// ---------------------------------------------------------------------------

/** Fields shared by every session entry. Entries form a tree via parentId. */
export interface SessionEntryBase {
  id: string;
  parentId: string | null;
  /** ISO 8601 time. */
  timestamp: string;
}

/** A conversation message. */
export interface SessionMessageEntry extends SessionEntryBase {
  type: "message";
  message: AgentMessage;
}

/** The thinking level changed. */
export interface ThinkingLevelChangeEntry extends SessionEntryBase {
  type: "thinking_level_change";
  thinkingLevel: string;
}

/** The model changed. */
export interface ModelChangeEntry extends SessionEntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

/** Usage of a side model call (e.g. cache warming). */
export interface UsageEntry extends SessionEntryBase {
  type: "usage";
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}

/** Older history was summarised; entries before firstKeptEntryId are out of context. */
export interface CompactionEntry extends SessionEntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  usage?: Usage;
  fromHook?: boolean;
  systemMessage?: SystemMessage;
}

/** Summary of a branch left during tree navigation. */
export interface BranchSummaryEntry extends SessionEntryBase {
  type: "branch_summary";
  fromId: string;
  summary: string;
  details?: unknown;
  usage?: Usage;
  fromHook?: boolean;
}

/** Extension state (not part of the conversation). */
export interface CustomEntry extends SessionEntryBase {
  type: "custom";
  customType: string;
  data?: unknown;
}

/** An extension message that is part of the conversation. */
export interface CustomMessageEntry extends SessionEntryBase {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  details?: unknown;
  display: boolean;
}

/** Content a context_edit entry may substitute. */
export type ContextEditableContent = UserMessage["content"] | AssistantMessage["content"] | ToolResultMessage["content"] | CustomMessage["content"];

/** Replaces (or with null, removes) the content of an earlier entry in context. */
export interface ContextEditEntry extends SessionEntryBase {
  type: "context_edit";
  targetId: string;
  replacement: { content: ContextEditableContent } | null;
}

/** A user label on an entry (label absent = label removed). */
export interface LabelEntry extends SessionEntryBase {
  type: "label";
  targetId: string;
  label: string | undefined;
}

/** Session metadata change (name). */
export interface SessionInfoEntry extends SessionEntryBase {
  type: "session_info";
  name?: string;
}

/** One entry of a session file (after the header line). Discriminate on `type`. */
export type SessionEntry =
  | SessionMessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | UsageEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | ContextEditEntry
  | LabelEntry
  | SessionInfoEntry;

/** A node of get_tree: an entry, its children and its label. */
export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

/**
 * pi ≥ 0.99: what happened to a prompt. "started": it starts a run (wait for
 * agent_settled); "queued": it joined the queue of the run in progress;
 * "handled": an extension command or input handler consumed it and no run
 * starts for it, so nothing may wait for agent_settled.
 */
export type PromptDisposition = "started" | "queued" | "handled";

/** pi ≥ 0.99: what happened to a steer or follow_up: queued, or consumed by an input handler. */
export type QueuedInputDisposition = "queued" | "handled";

/**
 * `data` that newer pi adds to answers that 0.87.1 sends without any: pi ≥
 * 0.99 answers prompt, steer and follow_up with `data: {disposition}`.
 */
export interface ResponseDataAddedLater {
  prompt: { disposition: PromptDisposition };
  steer: { disposition: QueuedInputDisposition };
  follow_up: { disposition: QueuedInputDisposition };
}

/**
 * The `data` of each command's success response. `undefined` means the
 * response has no `data` key (in pi 0.87.1: see ResponseDataAddedLater).
 */
export interface ResponseDataMap {
  prompt: undefined;
  steer: undefined;
  follow_up: undefined;
  abort: undefined;
  /** The texts that were queued and are now cleared. */
  clear_queue: { steering: string[]; followUp: string[] };
  new_session: { cancelled: boolean };
  get_state: RpcSessionState;
  /** The selected model. */
  set_model: Model;
  cycle_model: ModelCycleResult | null;
  get_available_models: { models: Model[] };
  set_thinking_level: undefined;
  /** null when the model has no levels to cycle. */
  cycle_thinking_level: { level: ThinkingLevel } | null;
  get_available_thinking_levels: { levels: ThinkingLevel[] };
  set_steering_mode: undefined;
  set_follow_up_mode: undefined;
  compact: CompactionResult;
  set_auto_compaction: undefined;
  set_auto_retry: undefined;
  abort_retry: undefined;
  bash: BashResult;
  abort_bash: undefined;
  get_session_stats: SessionStats;
  export_html: { path: string };
  switch_session: { cancelled: boolean };
  /** `text` (the forked message's text, for the editor) is absent when none was selected. */
  fork: { text?: string; cancelled: boolean };
  clone: { cancelled: boolean };
  get_fork_messages: { messages: Array<{ entryId: string; text: string }> };
  get_entries: { entries: SessionEntry[]; leafId: string | null };
  get_tree: { tree: SessionTreeNode[]; leafId: string | null };
  /** pi types this `{text: string | null}`, but "no text" arrives as `{}`. */
  get_last_assistant_text: { text?: string | null };
  set_session_name: undefined;
  get_messages: { messages: AgentMessage[] };
  get_commands: { commands: RpcSlashCommand[] };
}

/** The `data` type of a successful response to command `C` (`undefined`: no data). */
export type ResponseData<C extends RpcCommandType> = ResponseDataMap[C];

/** Successful response to command `C`. */
export type RpcSuccessResponseOf<C extends RpcCommandType> = {
  id?: string;
  type: "response";
  command: C;
  success: true;
} & (ResponseDataMap[C] extends undefined ? (C extends keyof ResponseDataAddedLater ? { data?: ResponseDataAddedLater[C] } : unknown) : { data: ResponseDataMap[C] });

/** A successful response to any command. Narrow on `command`. */
export type RpcSuccessResponse = { [C in RpcCommandType]: RpcSuccessResponseOf<C> }[RpcCommandType];

/**
 * A failed command. `command` is the failing command's type (possibly one pi
 * does not know: "Unknown command: …"). pi itself omits `command` when the
 * input had no `type`; the relay never forwards such input.
 */
export interface RpcErrorResponse {
  id?: string;
  type: "response";
  command: string;
  success: false;
  error: string;
}

/** Answer to a line that was not valid JSON. It never has an id. */
export interface RpcParseErrorResponse {
  type: "response";
  command: "parse";
  success: false;
  error: string;
}

/** Any response record. Narrow on `success`, then `command`. */
export type RpcResponse = RpcSuccessResponse | RpcErrorResponse | RpcParseErrorResponse;
