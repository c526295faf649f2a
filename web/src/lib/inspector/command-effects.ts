// What sending a command does beyond answering, so the composer can say so
// before it is sent. "session": it changes or ends what everyone connected
// is working on (a new or other session, a stopped run, dropped queue,
// rewritten context, a shell command on this machine). "state": it has a
// lasting effect worth a word (the model starts working, a setting
// changes, a file is written, a dialog is answered). "none": it only reads.
//
// Every connected browser shares the one pi process, so these effects reach
// all of them: the notes say "everyone" where that matters.

import type { AcceptedCommandType } from "@pier/protocol/command-schemas";

export type EffectLevel = "none" | "state" | "session";

export interface CommandEffect {
  level: EffectLevel;
  /** One short sentence; empty for "none". */
  note: string;
}

const session = (note: string): CommandEffect => ({ level: "session", note });
const state = (note: string): CommandEffect => ({ level: "state", note });
const none: CommandEffect = { level: "none", note: "" };

export const COMMAND_EFFECTS: Readonly<Record<AcceptedCommandType, CommandEffect>> = {
  prompt: state("Sends a message to the model: it may run tools and it costs tokens."),
  steer: state("Queues a message into the running agent; it may change what the agent does next."),
  follow_up: state("Queues a message the agent takes up when it would otherwise stop."),
  abort: session("Stops the agent's current run for everyone (queued messages stay queued)."),
  clear_queue: session("Drops every queued steering and follow-up message."),
  new_session: session("Starts a fresh session: every connected browser leaves the current conversation."),
  get_state: none,
  set_model: state("Changes the model for everyone on this session."),
  cycle_model: state("Switches everyone to the next model."),
  get_available_models: none,
  set_thinking_level: state("Changes the reasoning effort for everyone."),
  cycle_thinking_level: state("Changes the reasoning effort for everyone."),
  get_available_thinking_levels: none,
  set_steering_mode: state("Changes how queued steering messages are delivered."),
  set_follow_up_mode: state("Changes how queued follow-ups are delivered."),
  compact: session("Summarises older history: the model stops seeing those messages word for word."),
  set_auto_compaction: state("Changes pi's automatic compaction setting."),
  set_auto_retry: state("Changes pi's automatic retry setting."),
  abort_retry: session("Cancels the pending retry: the run ends with the model's error."),
  bash: session("Runs a shell command on the machine running pi, as that user, in the workspace."),
  abort_bash: session("Kills every running RPC bash command, other browsers' too."),
  get_session_stats: none,
  export_html: state("Writes an HTML file on the machine running pi."),
  switch_session: session("Opens another session file: every connected browser moves to it."),
  fork: session("Starts a new session branched at that message: every connected browser moves to it."),
  clone: session("Copies the branch into a new session and moves every connected browser to it."),
  get_fork_messages: none,
  get_entries: none,
  get_tree: none,
  get_last_assistant_text: none,
  set_session_name: state("Renames the session for everyone."),
  get_messages: none,
  get_commands: none,
  extension_ui_response: state("Answers an extension's dialog, for every browser showing it."),
};

/** The effect of sending a command of `type`; null for a type pi does not take. */
export function commandEffect(type: string | null | undefined): CommandEffect | null {
  if (typeof type !== "string" || !Object.hasOwn(COMMAND_EFFECTS, type)) return null;
  return COMMAND_EFFECTS[type as AcceptedCommandType];
}
