// Commands a client writes to pi's stdin, one JSON object per line
// (pi 0.87.1: exactly 33 command types). `id` is optional and echoed on the
// response; give every command one, since responses can arrive out of order.
// extension_ui_response is not a command (see extension-ui.ts).

import type { ImageContent } from "./messages.ts";
import type { ThinkingLevel } from "./model.ts";

/** How a prompt sent while the agent is streaming is queued. Required while streaming. */
export type StreamingBehavior = "steer" | "followUp";

/** How queued steering / follow-up messages are delivered. */
export type QueueMode = "all" | "one-at-a-time";

/** Fields every command may carry. */
interface CommandBase {
  /** Correlation id, echoed on the response (and on bash_execution_update for `bash`). */
  id?: string;
}

/**
 * Send user input. Text starting with "/" may run an extension command, a
 * prompt template or a skill. `success: true` only means accepted or queued;
 * for an extension command the response comes after its handler returns.
 */
export interface PromptCommand extends CommandBase {
  type: "prompt";
  message: string;
  images?: ImageContent[];
  streamingBehavior?: StreamingBehavior;
}

/** Queue a message delivered after the current tool calls, before the next model call. */
export interface SteerCommand extends CommandBase {
  type: "steer";
  message: string;
  images?: ImageContent[];
}

/** Queue a message delivered once the agent would otherwise stop. */
export interface FollowUpCommand extends CommandBase {
  type: "follow_up";
  message: string;
  images?: ImageContent[];
}

/** Stop the current run. Answers once idle; does not clear queues or stop an RPC `bash`. */
export interface AbortCommand extends CommandBase {
  type: "abort";
}

/** Empty the steering and follow-up queues; the response returns their texts. */
export interface ClearQueueCommand extends CommandBase {
  type: "clear_queue";
}

/** Start a fresh session (extensions may cancel). */
export interface NewSessionCommand extends CommandBase {
  type: "new_session";
  parentSession?: string;
}

/** Read model, thinking level, streaming flags, session id/file/name and counts. */
export interface GetStateCommand extends CommandBase {
  type: "get_state";
}

/** Switch model by provider + id (must be in get_available_models). */
export interface SetModelCommand extends CommandBase {
  type: "set_model";
  provider: string;
  modelId: string;
}

/** Switch to the next model (scoped list or all available). */
export interface CycleModelCommand extends CommandBase {
  type: "cycle_model";
}

/** List models that have credentials. */
export interface GetAvailableModelsCommand extends CommandBase {
  type: "get_available_models";
}

/** Set the reasoning effort (pi clamps it to what the model supports). */
export interface SetThinkingLevelCommand extends CommandBase {
  type: "set_thinking_level";
  level: ThinkingLevel;
}

/** Move to the next thinking level the model supports. */
export interface CycleThinkingLevelCommand extends CommandBase {
  type: "cycle_thinking_level";
}

/** List thinking levels the current model supports. */
export interface GetAvailableThinkingLevelsCommand extends CommandBase {
  type: "get_available_thinking_levels";
}

/** Deliver queued steering messages all at once or one per turn. */
export interface SetSteeringModeCommand extends CommandBase {
  type: "set_steering_mode";
  mode: QueueMode;
}

/** Deliver queued follow-ups all at once or one per turn. */
export interface SetFollowUpModeCommand extends CommandBase {
  type: "set_follow_up_mode";
  mode: QueueMode;
}

/** Summarise older history now. */
export interface CompactCommand extends CommandBase {
  type: "compact";
  customInstructions?: string;
}

/** Turn automatic compaction on or off. */
export interface SetAutoCompactionCommand extends CommandBase {
  type: "set_auto_compaction";
  enabled: boolean;
}

/** Turn automatic retry of failed model calls on or off. */
export interface SetAutoRetryCommand extends CommandBase {
  type: "set_auto_retry";
  enabled: boolean;
}

/** Cancel a pending automatic retry. */
export interface AbortRetryCommand extends CommandBase {
  type: "abort_retry";
}

/**
 * Run a shell command as the user. Output streams as bash_execution_update
 * events carrying this command's `id`; the response carries the result.
 */
export interface BashCommand extends CommandBase {
  type: "bash";
  command: string;
  /** Record it in the session but keep it out of the model's context (`!!`). */
  excludeFromContext?: boolean;
}

/** Kill the running RPC `bash` command. */
export interface AbortBashCommand extends CommandBase {
  type: "abort_bash";
}

/** Token, cost and message counts for the session. */
export interface GetSessionStatsCommand extends CommandBase {
  type: "get_session_stats";
}

/** Write the session as HTML; the response gives the path. */
export interface ExportHtmlCommand extends CommandBase {
  type: "export_html";
  outputPath?: string;
}

/** Open another session file. */
export interface SwitchSessionCommand extends CommandBase {
  type: "switch_session";
  sessionPath: string;
}

/** Start a new session branched before the given user-message entry. */
export interface ForkCommand extends CommandBase {
  type: "fork";
  entryId: string;
}

/** Copy the current branch into a new session. */
export interface CloneCommand extends CommandBase {
  type: "clone";
}

/** List user messages that can be forked from. */
export interface GetForkMessagesCommand extends CommandBase {
  type: "get_fork_messages";
}

/** All session entries, or those after entry `since`. */
export interface GetEntriesCommand extends CommandBase {
  type: "get_entries";
  since?: string;
}

/** The session entry tree and current leaf. */
export interface GetTreeCommand extends CommandBase {
  type: "get_tree";
}

/** Text of the last assistant message. */
export interface GetLastAssistantTextCommand extends CommandBase {
  type: "get_last_assistant_text";
}

/** Name the session (trimmed; empty is an error). */
export interface SetSessionNameCommand extends CommandBase {
  type: "set_session_name";
  name: string;
}

/** The messages of the current branch. */
export interface GetMessagesCommand extends CommandBase {
  type: "get_messages";
}

/** Slash commands available via prompt (extension commands, prompt templates, skills). */
export interface GetCommandsCommand extends CommandBase {
  type: "get_commands";
}

/** Any command pi 0.87.1 accepts on stdin. Discriminate on `type`. */
export type RpcCommand =
  | PromptCommand
  | SteerCommand
  | FollowUpCommand
  | AbortCommand
  | ClearQueueCommand
  | NewSessionCommand
  | GetStateCommand
  | SetModelCommand
  | CycleModelCommand
  | GetAvailableModelsCommand
  | SetThinkingLevelCommand
  | CycleThinkingLevelCommand
  | GetAvailableThinkingLevelsCommand
  | SetSteeringModeCommand
  | SetFollowUpModeCommand
  | CompactCommand
  | SetAutoCompactionCommand
  | SetAutoRetryCommand
  | AbortRetryCommand
  | BashCommand
  | AbortBashCommand
  | GetSessionStatsCommand
  | ExportHtmlCommand
  | SwitchSessionCommand
  | ForkCommand
  | CloneCommand
  | GetForkMessagesCommand
  | GetEntriesCommand
  | GetTreeCommand
  | GetLastAssistantTextCommand
  | SetSessionNameCommand
  | GetMessagesCommand
  | GetCommandsCommand;

/** The `type` of any command. */
export type RpcCommandType = RpcCommand["type"];

/** The command with the given type. */
export type RpcCommandOf<T extends RpcCommandType> = Extract<RpcCommand, { type: T }>;

/** Every command type, in pi's documentation order. */
export const RPC_COMMAND_TYPES = [
  "prompt",
  "steer",
  "follow_up",
  "abort",
  "clear_queue",
  "new_session",
  "get_state",
  "set_model",
  "cycle_model",
  "get_available_models",
  "set_thinking_level",
  "cycle_thinking_level",
  "get_available_thinking_levels",
  "set_steering_mode",
  "set_follow_up_mode",
  "compact",
  "set_auto_compaction",
  "set_auto_retry",
  "abort_retry",
  "bash",
  "abort_bash",
  "get_session_stats",
  "export_html",
  "switch_session",
  "fork",
  "clone",
  "get_fork_messages",
  "get_entries",
  "get_tree",
  "get_last_assistant_text",
  "set_session_name",
  "get_messages",
  "get_commands",
] as const satisfies readonly RpcCommandType[];

// Compile-time proof that RPC_COMMAND_TYPES names every command type.
type AssertTrue<T extends true> = T;
type RpcCommandTypesListIsComplete = AssertTrue<
  [Exclude<RpcCommandType, (typeof RPC_COMMAND_TYPES)[number]>] extends [never] ? true : false
>;

const COMMAND_TYPE_SET: ReadonlySet<string> = new Set(RPC_COMMAND_TYPES);

/** Whether `value` names one of the 33 command types. */
export function isRpcCommandType(value: unknown): value is RpcCommandType {
  return typeof value === "string" && COMMAND_TYPE_SET.has(value);
}
