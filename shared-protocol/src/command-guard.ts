// Runtime check of a record a browser wants written to pi's stdin. pi 0.87.1
// trusts its input: a well-formed but wrong command (null, a missing field,
// a field of the wrong type, a mode it does not know) can throw inside pi or
// crash the process. The relay runs every record through validateCommand and
// refuses failures with the returned English sentence.
//
// What is valid is not written here: it is the command's schema in
// pi/command-schemas.ts, walked below. The walker knows exactly the JSON
// Schema keywords those schemas use (type, properties, required, items,
// enum, const, maxLength, anyOf; a test keeps it that way and checks it
// agrees with TypeBox's own JSON Schema validator), so every refusal can say
// where and what was expected: `set_steering_mode.mode must be "all" or
// "one-at-a-time", not the string "bogus"`. A validator of our own rather
// than TypeBox's: its messages are ours, and it needs no code generation
// (the browser's CSP forbids eval) and no validator library in any bundle.
// Unknown extra fields are allowed (forward-compatible).

import type { RpcCommand } from "./pi/commands.ts";
import { RPC_COMMAND_TYPES, isRpcCommandType } from "./pi/commands.ts";
import { COMMAND_SCHEMAS, ExtensionUiResponseSchema, type SchemaShape } from "./pi/command-schemas.ts";
import type { ExtensionUiResponse } from "./pi/extension-ui.ts";

export { MAX_COMMAND_ID_LENGTH } from "./pi/command-schemas.ts";

/** Outcome of validateCommand. */
export type CommandValidation = { ok: true; command: RpcCommand | ExtensionUiResponse } | { ok: false; error: string };

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
  let schema: SchemaShape;
  if (type === "extension_ui_response") schema = ExtensionUiResponseSchema;
  else if (isRpcCommandType(type)) schema = COMMAND_SCHEMAS[type];
  else return fail(`unknown command type ${JSON.stringify(truncate(type))}`);

  const error = check(schema, value, type);
  return error === undefined ? { ok: true, command: value as unknown as RpcCommand | ExtensionUiResponse } : fail(error);
}

/** Every record type validateCommand accepts. */
export const ACCEPTED_COMMAND_TYPES: readonly string[] = [...RPC_COMMAND_TYPES, "extension_ui_response"];

// --- the schema walker -------------------------------------------------------------

/**
 * The first way `value` (found at `path`) breaks `schema`, as a sentence, or
 * undefined when it fits. Fields are checked in the schema's order, so `id`
 * comes before the command's own fields, and an object's anyOf last.
 */
function check(schema: SchemaShape, value: unknown, path: string): string | undefined {
  if (!fits(schema, value)) return `${path} must be ${expected(schema)}, not ${describe(value)}`;

  // UTF-16 length ≥ code points, so only a long string needs counting.
  if (typeof value === "string" && schema.maxLength !== undefined && value.length > schema.maxLength) {
    const length = codePoints(value);
    if (length > schema.maxLength) return `${path} must be at most ${schema.maxLength} characters long (it has ${length})`;
  }
  if (Array.isArray(value) && schema.items) {
    for (let i = 0; i < value.length; i++) {
      const error = check(schema.items, value[i], `${path}[${i}]`);
      if (error) return error;
    }
  }
  if (isPlainObject(value)) {
    const required = schema.required ?? [];
    const properties = schema.properties ?? {};
    for (const [name, property] of Object.entries(properties)) {
      const at = `${path}.${name}`;
      if (!Object.hasOwn(value, name)) {
        if (required.includes(name)) return `${at} is required and must be ${expected(property)}${property.title ? ` (${property.title})` : ""}`;
        continue;
      }
      const error = check(property, value[name], at);
      if (error) return error;
    }
    const missing = required.find((name) => !Object.hasOwn(properties, name) && !Object.hasOwn(value, name));
    if (missing !== undefined) return `${path}.${missing} is required`;
    if (schema.anyOf && !schema.anyOf.some((branch) => check(branch, value, path) === undefined)) {
      return `${path} must carry ${alternatives(schema)}`;
    }
  }
  return undefined;
}

/** Whether `value` has the schema's JSON type and, for const / enum, one of its values (the shallow part of a check). */
function fits(schema: SchemaShape, value: unknown): boolean {
  if ("const" in schema) return value === schema.const;
  if (schema.enum) return schema.enum.includes(value);
  switch (schema.type) {
    case undefined:
      return true;
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    default:
      // A type this walker does not know must not pass silently (a test
      // keeps the schemas to the known ones).
      return false;
  }
}

/** What a schema wants, in words: `a string`, `"all" or "one-at-a-time"`, `an object {type: "image", data, mimeType}`… */
function expected(schema: SchemaShape, plural = false): string {
  if ("const" in schema) return JSON.stringify(schema.const);
  if (schema.enum) {
    const values = schema.enum.map((v) => JSON.stringify(v));
    return values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(", ")}`;
  }
  switch (schema.type) {
    case "string":
      return (plural ? "" : "a ") + (schema.contentEncoding === "base64" ? "base64 string" : "string") + (plural ? "s" : "");
    case "boolean":
      return plural ? "booleans" : "a boolean";
    case "array":
      return `${plural ? "arrays" : "an array"}${schema.items ? ` of ${expected(schema.items, true)}` : ""}`;
    case "object": {
      const fields = Object.entries(schema.properties ?? {}).map(([name, property]) => ("const" in property ? `${name}: ${JSON.stringify(property.const)}` : name));
      return `${plural ? "objects" : "an object"}${fields.length > 0 ? ` {${fields.join(", ")}}` : ""}`;
    }
    default:
      return plural ? `values of type ${String(schema.type)}` : `a value of type ${String(schema.type)}`;
  }
}

/** An object's anyOf of required fields, in words: `"value" (a string), "confirmed" (a boolean) or "cancelled": true`. */
function alternatives(schema: SchemaShape): string {
  const names = (schema.anyOf ?? []).flatMap((branch) => branch.required ?? []);
  const words = names.map((name) => {
    const property = schema.properties?.[name];
    if (!property) return JSON.stringify(name);
    return "const" in property ? `${JSON.stringify(name)}: ${JSON.stringify(property.const)}` : `${JSON.stringify(name)} (${expected(property)})`;
  });
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words.at(-1)}` : (words[0] ?? "one of its alternatives");
}

// --- helpers ---------------------------------------------------------------------------

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Length in Unicode code points, as JSON Schema's maxLength counts it. */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
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
