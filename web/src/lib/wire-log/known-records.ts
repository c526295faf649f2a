// What pi writes to stdout, as the protocol types of @pier/protocol describe
// it (shared-protocol/src/pi: the same types the relay is built on): the
// record types, and the top-level fields of each, with the pi version that
// added a field. The expert checks (expert-checks.ts) flag anything else.
//
// Built once, as Sets: a record costs one Map lookup and one Set lookup per
// top-level field (a delta has three). The tables are checked against the
// protocol types at compile time (both ways): a field added to a type in
// shared-protocol and not here fails `pnpm typecheck`.

import { PI_EVENT_TYPES, RPC_COMMAND_TYPES, type ExtensionUiRequest, type PiEvent, type PiEventType, type RpcResponse } from "@pier/protocol";

/** Every key of every member of a union. */
type KeysOf<T> = T extends unknown ? keyof T : never;
type EventOf<T extends PiEventType> = Extract<PiEvent, { type: T }>;

/** A field, or a field with the first pi version that sends it (major, minor, patch as one number: versionNumber). */
type FieldSpec<K extends string> = K | readonly [K, string];

const EVENT_FIELDS = {
  agent_start: ["type"],
  agent_end: ["type", "messages", "willRetry"],
  agent_settled: ["type", ["aborted", "1.1.0"]],
  turn_start: ["type"],
  turn_end: ["type", "message", "toolResults"],
  message_start: ["type", "message"],
  message_update: ["type", "usage", "assistantMessageEvent"],
  message_end: ["type", "message"],
  tool_execution_start: ["type", "toolCallId", "toolName", "args", ["parentToolCallId", "0.99.0"]],
  tool_execution_update: ["type", "toolCallId", "toolName", "args", "partialResult", ["parentToolCallId", "0.99.0"]],
  tool_execution_end: ["type", "toolCallId", "toolName", "result", "isError", ["durationMs", "1.1.0"], ["parentToolCallId", "0.99.0"]],
  queue_update: ["type", "steering", "followUp"],
  compaction_start: ["type", "reason"],
  compaction_end: ["type", "reason", "result", "aborted", "willRetry", "errorMessage"],
  auto_retry_start: ["type", "attempt", "maxAttempts", "delayMs", "errorMessage"],
  auto_retry_end: ["type", "success", "attempt", "finalError"],
  summarization_retry_scheduled: ["type", "attempt", "maxAttempts", "delayMs", "errorMessage"],
  summarization_retry_attempt_start: ["type", "source", "reason"],
  summarization_retry_finished: ["type"],
  entry_appended: ["type", "entry"],
  session_info_changed: ["type", "name"],
  thinking_level_changed: ["type", "level"],
  bash_execution_update: ["type", "id", "delta"],
  extension_error: ["type", "extensionPath", "event", "error"],
} as const satisfies { [T in PiEventType]: readonly FieldSpec<KeysOf<EventOf<T>> & string>[] };

const RESPONSE_FIELDS = ["id", "type", "command", "success", "data", "error"] as const satisfies readonly KeysOf<RpcResponse>[];
const EXTENSION_UI_FIELDS = [
  "type",
  "id",
  "method",
  "title",
  "options",
  "timeout",
  "message",
  "placeholder",
  "prefill",
  "notifyType",
  "statusKey",
  "statusText",
  "widgetKey",
  "widgetLines",
  "widgetPlacement",
  "text",
] as const satisfies readonly KeysOf<ExtensionUiRequest>[];

// Compile-time proof that the tables name every field of the protocol types.
type AssertTrue<T extends true> = T;
type Named<S> = S extends readonly [infer K, string] ? K : S;
type MissingEventFields = { [T in PiEventType]: Exclude<KeysOf<EventOf<T>>, Named<(typeof EVENT_FIELDS)[T][number]>> }[PiEventType];
type EventFieldsComplete = AssertTrue<[MissingEventFields] extends [never] ? true : false>;
type ResponseFieldsComplete = AssertTrue<[Exclude<KeysOf<RpcResponse>, (typeof RESPONSE_FIELDS)[number]>] extends [never] ? true : false>;
type ExtensionUiFieldsComplete = AssertTrue<[Exclude<KeysOf<ExtensionUiRequest>, (typeof EXTENSION_UI_FIELDS)[number]>] extends [never] ? true : false>;

/** "1.6.0" → 1006000; null for anything else. */
export function versionNumber(version: string | null | undefined): number | null {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version ?? "");
  return match === null ? null : Number(match[1]) * 1_000_000 + Number(match[2]) * 1000 + Number(match[3]);
}

/** A record type's fields: each with the first version that sends it (0: every version). */
export type KnownFields = ReadonlyMap<string, number>;

function fieldsOf(specs: readonly (string | readonly [string, string])[]): KnownFields {
  const fields = new Map<string, number>();
  for (const spec of specs) {
    if (typeof spec === "string") fields.set(spec, 0);
    else fields.set(spec[0], versionNumber(spec[1]) ?? 0);
  }
  return fields;
}

/** Record type → its fields; "response" and "extension_ui_request" included. */
export const KNOWN_RECORDS: ReadonlyMap<string, KnownFields> = new Map<string, KnownFields>([
  ...Object.entries(EVENT_FIELDS).map(([type, specs]) => [type, fieldsOf(specs)] as const),
  ["response", fieldsOf(RESPONSE_FIELDS)],
  ["extension_ui_request", fieldsOf(EXTENSION_UI_FIELDS)],
]);

/** The commands a response may name: pi's commands, and "parse" (its answer to a line that was not JSON). */
export const KNOWN_RESPONSE_COMMANDS: ReadonlySet<string> = new Set<string>([...RPC_COMMAND_TYPES, "parse"]);

// Keep the runtime list and the table in step (the event list is the one the inspector's filters use).
type EventTablesAgree = AssertTrue<[Exclude<(typeof PI_EVENT_TYPES)[number], keyof typeof EVENT_FIELDS>] extends [never] ? true : false>;
