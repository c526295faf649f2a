// Who is here: the people watching or driving one pi, as the relay sees
// them. A link lets a browser in with a role the relay enforces: a driver
// may do anything; a viewer sees everything live but cannot send pi a
// command, answer a dialog, change a file or run a terminal command.

export type Role = "driver" | "viewer";

/** One connected browser (a person may have several tabs). */
export type Person = {
  clientId: string;
  /** What they call themselves (plain text: render it as text, never as markup). */
  name: string;
  role: Role;
  /** A CSS colour the relay picked, the same for a browser across its reconnects and tabs. */
  colour: string;
};

/** A link a driver made (the secret itself is only ever sent to the driver who made it). */
export type LinkInfo = {
  id: string;
  role: Role;
  createdAt: number;
  expiresAt: number;
  /** null: any number of browsers (viewer links); 1: single-use (driver links). */
  maxUses: number | null;
  uses: number;
  revoked: boolean;
  /** Who made it (null: printed by pier in its terminal). */
  createdBy: string | null;
  /** The one live session a viewer link opens (a demo), or null: the whole board. */
  scope: string | null;
};

/** A prompt a viewer suggests; a driver may take it into the prompt box. */
export type Suggestion = { id: string; from: Person; text: string; at: number };

/** What a driver is looking at, for viewers that follow them. */
export type Focus = {
  /** The open file (workspace-relative), or null for none. */
  file: string | null;
  /** The first line on screen in that file. */
  line: number | null;
  /** The part of the page shown on a narrow screen, or the explorer's tab. */
  pane: string | null;
};

export const MAX_NAME_LENGTH = 40;
export const MAX_SUGGESTION_LENGTH = 4000;

/**
 * pi commands that only read: a viewer may send these, so its page can load
 * the session's history and state like a driver's. They change nothing, and
 * the relay sends pi's answer to one of them only to the browser that asked
 * (found by the command's id, which a read must carry), keeps it out of the
 * replay, and meters them per page and per link (relay/src/read-gate.ts).
 */
export const READ_ONLY_COMMANDS: ReadonlySet<string> = new Set([
  "get_state",
  "get_messages",
  "get_entries",
  "get_tree",
  "get_fork_messages",
  "get_session_stats",
  "get_commands",
  "get_available_models",
  "get_available_thinking_levels",
  "get_last_assistant_text",
]);

/** May someone with this role send pi this command? */
export function roleMaySend(role: Role, commandType: string): boolean {
  return role === "driver" || READ_ONLY_COMMANDS.has(commandType);
}
