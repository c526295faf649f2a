// Commands a client writes to pi's stdin, one JSON object per line
// (pi 0.87.1: exactly 33 command types). `id` is optional and echoed on the
// response; give every command one, since responses can arrive out of order.
// extension_ui_response is not a command (see extension-ui.ts).
//
// The types are derived from the schemas in command-schemas.ts, the one
// definition of each command's fields (and of their descriptions: hover a
// schema there, or see them as completion hints in the inspector). Only
// types are imported from it, so this module costs the browser nothing.

import type { Static } from "typebox";
import type { COMMAND_SCHEMAS, QueueModeSchema, StreamingBehaviorSchema } from "./command-schemas.ts";

/** How a prompt sent while the agent is streaming is queued. Required while streaming. */
export type StreamingBehavior = Static<typeof StreamingBehaviorSchema>;

/** How queued steering / follow-up messages are delivered. */
export type QueueMode = Static<typeof QueueModeSchema>;

type CommandSchemas = typeof COMMAND_SCHEMAS;

/** The `type` of any command. */
export type RpcCommandType = keyof CommandSchemas;

/** Any command pi 0.87.1 accepts on stdin. Discriminate on `type`. */
export type RpcCommand = { [T in RpcCommandType]: Static<CommandSchemas[T]> }[RpcCommandType];

/** The command with the given type. */
export type RpcCommandOf<T extends RpcCommandType> = Extract<RpcCommand, { type: T }>;

export type PromptCommand = RpcCommandOf<"prompt">;
export type SteerCommand = RpcCommandOf<"steer">;
export type FollowUpCommand = RpcCommandOf<"follow_up">;
export type AbortCommand = RpcCommandOf<"abort">;
export type ClearQueueCommand = RpcCommandOf<"clear_queue">;
export type NewSessionCommand = RpcCommandOf<"new_session">;
export type GetStateCommand = RpcCommandOf<"get_state">;
export type SetModelCommand = RpcCommandOf<"set_model">;
export type CycleModelCommand = RpcCommandOf<"cycle_model">;
export type GetAvailableModelsCommand = RpcCommandOf<"get_available_models">;
export type SetThinkingLevelCommand = RpcCommandOf<"set_thinking_level">;
export type CycleThinkingLevelCommand = RpcCommandOf<"cycle_thinking_level">;
export type GetAvailableThinkingLevelsCommand = RpcCommandOf<"get_available_thinking_levels">;
export type SetSteeringModeCommand = RpcCommandOf<"set_steering_mode">;
export type SetFollowUpModeCommand = RpcCommandOf<"set_follow_up_mode">;
export type CompactCommand = RpcCommandOf<"compact">;
export type SetAutoCompactionCommand = RpcCommandOf<"set_auto_compaction">;
export type SetAutoRetryCommand = RpcCommandOf<"set_auto_retry">;
export type AbortRetryCommand = RpcCommandOf<"abort_retry">;
export type BashCommand = RpcCommandOf<"bash">;
export type AbortBashCommand = RpcCommandOf<"abort_bash">;
export type GetSessionStatsCommand = RpcCommandOf<"get_session_stats">;
export type ExportHtmlCommand = RpcCommandOf<"export_html">;
export type SwitchSessionCommand = RpcCommandOf<"switch_session">;
export type ForkCommand = RpcCommandOf<"fork">;
export type CloneCommand = RpcCommandOf<"clone">;
export type GetForkMessagesCommand = RpcCommandOf<"get_fork_messages">;
export type GetEntriesCommand = RpcCommandOf<"get_entries">;
export type GetTreeCommand = RpcCommandOf<"get_tree">;
export type GetLastAssistantTextCommand = RpcCommandOf<"get_last_assistant_text">;
export type SetSessionNameCommand = RpcCommandOf<"set_session_name">;
export type GetMessagesCommand = RpcCommandOf<"get_messages">;
export type GetCommandsCommand = RpcCommandOf<"get_commands">;

// Each schema sits under the key of its own type.
type SchemaType<T extends RpcCommandType> = Static<CommandSchemas[T]>["type"];
type SchemaKeysAreTypes = AssertTrue<{ [T in RpcCommandType]: [SchemaType<T>] extends [T] ? ([T] extends [SchemaType<T>] ? true : false) : false }[RpcCommandType]>;

/**
 * Every command type, in pi's documentation order. Written out rather than
 * read from COMMAND_SCHEMAS so that this module needs no TypeBox at run
 * time; the compiler checks the two agree (below) and a test checks the order.
 */
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
type RpcCommandTypesListIsComplete = AssertTrue<[Exclude<RpcCommandType, (typeof RPC_COMMAND_TYPES)[number]>] extends [never] ? true : false>;

const COMMAND_TYPE_SET: ReadonlySet<string> = new Set(RPC_COMMAND_TYPES);

/** Whether `value` names one of the 33 command types. */
export function isRpcCommandType(value: unknown): value is RpcCommandType {
  return typeof value === "string" && COMMAND_TYPE_SET.has(value);
}
