// Names of pi's records that a text may mention in `code` (the demo tour
// does, on purpose: "these words are `message_update` events"). Each one
// opens the protocol inspector on its lesson and its records. Kept here, in
// the main bundle and tiny, so the transcript can mark them without loading
// the inspector; web/test/wire-terms.test.ts checks every lesson key exists.
import { PI_EVENT_TYPES } from "@pier/protocol";

/** What the inspector shows for a term: its lesson, and which record type to list. */
export type WireTerm = { term: string; lessonKey: string; recordType: string };

/** Steps inside a message_update (its assistantMessageEvent.type). */
const DELTAS = ["text_start", "text_delta", "text_end", "thinking_start", "thinking_delta", "thinking_end", "toolcall_start", "toolcall_delta", "toolcall_end"];
const COMMANDS = [
  "prompt",
  "steer",
  "follow_up",
  "abort",
  "new_session",
  "get_state",
  "get_messages",
  "get_entries",
  "get_tree",
  "switch_session",
  "fork",
  "clone",
  "compact",
  "bash",
  "set_model",
  "set_thinking_level",
  "get_session_stats",
  "export_html",
];

const TERMS: ReadonlyMap<string, WireTerm> = new Map([
  ...PI_EVENT_TYPES.map((t): [string, WireTerm] => [t, { term: t, lessonKey: `event:${t}`, recordType: t }]),
  ...DELTAS.map((t): [string, WireTerm] => [t, { term: t, lessonKey: `delta:${t}`, recordType: "message_update" }]),
  ...COMMANDS.map((t): [string, WireTerm] => [t, { term: t, lessonKey: `command:${t}`, recordType: t }]),
  ["extension_ui_request", { term: "extension_ui_request", lessonKey: "ui:select", recordType: "extension_ui_request" }],
  ["extension_ui_response", { term: "extension_ui_response", lessonKey: "command:extension_ui_response", recordType: "extension_ui_response" }],
]);

/** The term named by a `code` element's text, if it is one (commands only when unambiguous: snake_case or "prompt"-like words inside code). */
export function wireTerm(text: string): WireTerm | undefined {
  return TERMS.get(text.trim());
}

export function allWireTerms(): readonly WireTerm[] {
  return [...TERMS.values()];
}
