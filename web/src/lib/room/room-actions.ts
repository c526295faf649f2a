// What a command another browser sent means for the people in the room:
// queries (get_*) are nobody's business; changes are attributed.

export type RoomAction =
  | { kind: "prompt" | "steer" | "follow_up"; text: string }
  | { kind: "abort" | "new_session" | "switch_session" | "fork" | "clone" | "compact" | "model" | "rename" | "bash" }
  | { kind: "answer"; dialogId: string; summary: string }
  | { kind: "setting"; command: string }
  | { kind: "file"; verb: "saved" | "created" | "renamed" | "deleted"; path: string; to?: string };

const SIMPLE: Record<string, RoomAction["kind"]> = {
  abort: "abort",
  new_session: "new_session",
  switch_session: "switch_session",
  fork: "fork",
  clone: "clone",
  compact: "compact",
  set_model: "model",
  cycle_model: "model",
  set_session_name: "rename",
  bash: "bash",
};

const SETTINGS = new Set(["set_thinking_level", "cycle_thinking_level", "set_steering_mode", "set_follow_up_mode", "set_auto_compaction", "set_auto_retry", "abort_retry", "abort_bash"]);

/** Longest dialog answer quoted in an announcement. */
const MAX_SUMMARY = 80;

/** The action in a command line as the relay wrote it to pi, or null for queries and what cannot be read. */
export function describeCommand(line: string): RoomAction | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const command = value as Record<string, unknown>;
  const type = command.type;
  if (typeof type !== "string") return null;
  if (type === "prompt" || type === "steer" || type === "follow_up") {
    return { kind: type, text: typeof command.message === "string" ? command.message : "" };
  }
  if (type === "extension_ui_response") {
    return { kind: "answer", dialogId: typeof command.id === "string" ? command.id : "", summary: answerSummary(command) };
  }
  const simple = SIMPLE[type];
  if (simple !== undefined) return { kind: simple } as RoomAction;
  if (SETTINGS.has(type)) return { kind: "setting", command: type };
  return null;
}

/** What a dialog answer said, in a few words: "Yes", "No", "cancelled", or the (shortened) value. */
export function answerSummary(command: Record<string, unknown>): string {
  if (command.cancelled === true) return "cancelled";
  if (typeof command.confirmed === "boolean") return command.confirmed ? "Yes" : "No";
  if (typeof command.value === "string") {
    const flat = command.value.replace(/\s+/g, " ").trim();
    return flat.length > MAX_SUMMARY ? `“${flat.slice(0, MAX_SUMMARY - 1)}…”` : `“${flat}”`;
  }
  return "";
}
