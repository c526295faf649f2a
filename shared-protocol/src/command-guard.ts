// Runtime check of a record a browser wants written to pi's stdin. pi 0.87.1
// trusts its input: a well-formed but wrong command (null, a missing field,
// a field of the wrong type) can throw inside pi or crash the process. The
// relay runs every record through validateCommand and refuses failures with
// the returned English sentence. Unknown extra fields are allowed
// (forward-compatible); known fields must have the right JSON type.

import type { RpcCommand, RpcCommandType } from "./pi/commands.ts";
import { RPC_COMMAND_TYPES, isRpcCommandType } from "./pi/commands.ts";
import type { ExtensionUiResponse } from "./pi/extension-ui.ts";
import { THINKING_LEVELS } from "./pi/model.ts";

/** Longest accepted `id` (commands and extension UI responses). */
export const MAX_COMMAND_ID_LENGTH = 256;

/** Outcome of validateCommand. */
export type CommandValidation =
  | { ok: true; command: RpcCommand | ExtensionUiResponse }
  | { ok: false; error: string };

/** How one known field is checked. */
type FieldKind =
  | { kind: "string" }
  | { kind: "boolean" }
  | { kind: "images" }
  | { kind: "oneOf"; values: readonly string[] };

interface FieldRule {
  name: string;
  required: boolean;
  check: FieldKind;
}

const STRING: FieldKind = { kind: "string" };
const BOOLEAN: FieldKind = { kind: "boolean" };
const IMAGES: FieldKind = { kind: "images" };
const QUEUE_MODE: FieldKind = { kind: "oneOf", values: ["all", "one-at-a-time"] };
const STREAMING_BEHAVIOR: FieldKind = { kind: "oneOf", values: ["steer", "followUp"] };
const THINKING_LEVEL: FieldKind = { kind: "oneOf", values: THINKING_LEVELS };

const required = (name: string, check: FieldKind): FieldRule => ({ name, required: true, check });
const optional = (name: string, check: FieldKind): FieldRule => ({ name, required: false, check });

/** The fields of every command besides `type` and `id`. */
const COMMAND_FIELDS: { readonly [T in RpcCommandType]: readonly FieldRule[] } = {
  prompt: [required("message", STRING), optional("images", IMAGES), optional("streamingBehavior", STREAMING_BEHAVIOR)],
  steer: [required("message", STRING), optional("images", IMAGES)],
  follow_up: [required("message", STRING), optional("images", IMAGES)],
  abort: [],
  clear_queue: [],
  new_session: [optional("parentSession", STRING)],
  get_state: [],
  set_model: [required("provider", STRING), required("modelId", STRING)],
  cycle_model: [],
  get_available_models: [],
  set_thinking_level: [required("level", THINKING_LEVEL)],
  cycle_thinking_level: [],
  get_available_thinking_levels: [],
  set_steering_mode: [required("mode", QUEUE_MODE)],
  set_follow_up_mode: [required("mode", QUEUE_MODE)],
  compact: [optional("customInstructions", STRING)],
  set_auto_compaction: [required("enabled", BOOLEAN)],
  set_auto_retry: [required("enabled", BOOLEAN)],
  abort_retry: [],
  bash: [required("command", STRING), optional("excludeFromContext", BOOLEAN)],
  abort_bash: [],
  get_session_stats: [],
  export_html: [optional("outputPath", STRING)],
  switch_session: [required("sessionPath", STRING)],
  fork: [required("entryId", STRING)],
  clone: [],
  get_fork_messages: [],
  get_entries: [optional("since", STRING)],
  get_tree: [],
  get_last_assistant_text: [],
  set_session_name: [required("name", STRING)],
  get_messages: [],
  get_commands: [],
};

/**
 * Check that `value` is a command pi 0.87.1 can safely handle, or an
 * extension_ui_response. Returns the value (typed) or a sentence naming
 * the offending field.
 */
export function validateCommand(value: unknown): CommandValidation {
  if (!isPlainObject(value)) {
    return fail(`a command must be a JSON object, not ${describe(value)}`);
  }
  if (!Object.hasOwn(value, "type")) {
    return fail('a command must have a "type" field');
  }
  const type = value["type"];
  if (typeof type !== "string") {
    return fail(`a command's "type" must be a string, not ${describe(type)}`);
  }

  if (type === "extension_ui_response") {
    return validateExtensionUiResponse(value);
  }
  if (!isRpcCommandType(type)) {
    return fail(`unknown command type ${JSON.stringify(truncate(type))}`);
  }

  if (Object.hasOwn(value, "id")) {
    const idError = checkId(type, value["id"], false);
    if (idError) return fail(idError);
  }
  for (const rule of COMMAND_FIELDS[type]) {
    const error = checkField(type, value, rule);
    if (error) return fail(error);
  }
  return { ok: true, command: value as unknown as RpcCommand };
}

/** An extension_ui_response needs the request's id and one of value / confirmed / cancelled:true. */
function validateExtensionUiResponse(value: Record<string, unknown>): CommandValidation {
  const where = "extension_ui_response";
  if (!Object.hasOwn(value, "id")) {
    return fail(`${where}.id is required and must be the id of the extension_ui_request being answered`);
  }
  const idError = checkId(where, value["id"], true);
  if (idError) return fail(idError);

  const hasValue = Object.hasOwn(value, "value");
  const hasConfirmed = Object.hasOwn(value, "confirmed");
  const hasCancelled = Object.hasOwn(value, "cancelled");
  if (hasValue && typeof value["value"] !== "string") {
    return fail(`${where}.value must be a string, not ${describe(value["value"])}`);
  }
  if (hasConfirmed && typeof value["confirmed"] !== "boolean") {
    return fail(`${where}.confirmed must be a boolean, not ${describe(value["confirmed"])}`);
  }
  if (hasCancelled && value["cancelled"] !== true) {
    return fail(`${where}.cancelled must be true when present, not ${describe(value["cancelled"])}`);
  }
  if (!hasValue && !hasConfirmed && !hasCancelled) {
    return fail(`${where} must carry "value" (a string), "confirmed" (a boolean) or "cancelled": true`);
  }
  return { ok: true, command: value as unknown as ExtensionUiResponse };
}

function checkId(where: string, id: unknown, isRequired: boolean): string | undefined {
  if (typeof id !== "string") {
    return `${where}.id must be a string${isRequired ? "" : " when present"}, not ${describe(id)}`;
  }
  if (id.length > MAX_COMMAND_ID_LENGTH) {
    return `${where}.id must be at most ${MAX_COMMAND_ID_LENGTH} characters long (it has ${id.length})`;
  }
  return undefined;
}

function checkField(type: string, command: Record<string, unknown>, rule: FieldRule): string | undefined {
  const path = `${type}.${rule.name}`;
  if (!Object.hasOwn(command, rule.name)) {
    return rule.required ? `${path} is required and must be ${expected(rule.check)}` : undefined;
  }
  const value = command[rule.name];
  switch (rule.check.kind) {
    case "string":
      return typeof value === "string" ? undefined : `${path} must be a string, not ${describe(value)}`;
    case "boolean":
      return typeof value === "boolean" ? undefined : `${path} must be a boolean, not ${describe(value)}`;
    case "oneOf":
      return typeof value === "string" && rule.check.values.includes(value)
        ? undefined
        : `${path} must be ${expected(rule.check)}, not ${describe(value)}`;
    case "images":
      return checkImages(path, value);
  }
}

/** images: an array of {type:"image", data: string (base64), mimeType: string}. */
function checkImages(path: string, value: unknown): string | undefined {
  if (!Array.isArray(value)) {
    return `${path} must be an array of images, not ${describe(value)}`;
  }
  for (let i = 0; i < value.length; i++) {
    const image: unknown = value[i];
    const at = `${path}[${i}]`;
    if (!isPlainObject(image)) {
      return `${at} must be an object {type: "image", data, mimeType}, not ${describe(image)}`;
    }
    if (image["type"] !== "image") {
      return `${at}.type must be "image", not ${describe(image["type"])}`;
    }
    if (typeof image["data"] !== "string") {
      return `${at}.data must be a base64 string, not ${describe(image["data"])}`;
    }
    if (typeof image["mimeType"] !== "string") {
      return `${at}.mimeType must be a string, not ${describe(image["mimeType"])}`;
    }
  }
  return undefined;
}

function expected(check: FieldKind): string {
  switch (check.kind) {
    case "string":
      return "a string";
    case "boolean":
      return "a boolean";
    case "images":
      return "an array of images";
    case "oneOf":
      return check.values.length === 2
        ? `${JSON.stringify(check.values[0])} or ${JSON.stringify(check.values[1])}`
        : `one of ${check.values.map((v) => JSON.stringify(v)).join(", ")}`;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A short English description of a JSON value, for error messages. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return `the string ${JSON.stringify(truncate(value))}`;
    case "number":
      return `the number ${String(value)}`;
    case "boolean":
      return String(value);
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function fail(error: string): CommandValidation {
  return { ok: false, error };
}

/** Every record type validateCommand accepts. */
export const ACCEPTED_COMMAND_TYPES: readonly string[] = [...RPC_COMMAND_TYPES, "extension_ui_response"];
