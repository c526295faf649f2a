// The records a client may write to pi's stdin, defined once as TypeBox
// schemas (pi 0.87.1: 33 command types, plus extension_ui_response). A
// TypeBox schema is plain JSON Schema, so this one definition gives:
//   - the TypeScript types (commands.ts derives them with Static),
//   - the relay's check of every browser frame (command-guard.ts walks these
//     schemas and words its refusals from them),
//   - what the protocol inspector's JSON editor offers: JSON Schema per
//     command and for the union (commandJsonSchema), a template per command
//     (commandTemplate), and the descriptions below as completion hints.
//
// Only the fields pi reads are described; extra fields stay allowed (no
// additionalProperties), so a newer client's command still passes.
//
// This is the only module of @pier/protocol with a runtime dependency (the
// TypeBox type builder, ~13 kB minified with the schemas). The package is
// marked side-effect free, so a bundle that uses neither this module nor
// command-guard.ts (the web app's main bundle) leaves both out; the
// inspector loads it on demand through the "@pier/protocol/command-schemas"
// entry. commands.ts imports only its types.

import { Type, type Static, type TSchema } from "typebox";
import type { RpcCommandOf, RpcCommandType } from "./commands.ts";
import { RPC_COMMAND_TYPES } from "./commands.ts";
import type { ExtensionUiResponse } from "./extension-ui.ts";
import { THINKING_LEVELS } from "./model.ts";

/** Longest accepted `id` (commands and extension UI responses), in characters. */
export const MAX_COMMAND_ID_LENGTH = 256;

/** The JSON Schema dialect of commandJsonSchema (Monaco's JSON worker and TypeBox both speak it). */
export const COMMAND_JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

// --- shared pieces -------------------------------------------------------------

/** `id`, which every command may carry. */
const CommandId = Type.Optional(
  Type.String({
    maxLength: MAX_COMMAND_ID_LENGTH,
    description: "Correlation id, echoed on the response (and on bash_execution_update for `bash`). Give every command one: responses can arrive out of order.",
    examples: ["req-1"],
  }),
);

/** An image attached to a prompt, steer or follow_up (pi-ai's ImageContent). */
export const ImageContentSchema = Type.Object(
  {
    type: Type.Literal("image"),
    data: Type.String({ contentEncoding: "base64", description: "The image bytes, base64-encoded (no data: URL prefix)." }),
    mimeType: Type.String({ description: "The image's media type.", examples: ["image/png", "image/jpeg"] }),
  },
  { description: 'An image: {type: "image", data (base64), mimeType}.' },
);

const Images = Type.Optional(Type.Array(ImageContentSchema, { description: "Images attached to the message (the model must accept image input)." }));

/** How a prompt sent while the agent is streaming is queued. */
export const StreamingBehaviorSchema = Type.Enum(["steer", "followUp"], {
  description: "Required while the agent is streaming (without it pi refuses the prompt): how to queue this message.",
  enumDescriptions: ["Deliver after the current tool calls, before the next model call.", "Deliver once the agent would otherwise stop."],
});

/** How queued steering / follow-up messages are delivered. */
export const QueueModeSchema = Type.Enum(["all", "one-at-a-time"], {
  description: "How queued messages are delivered.",
  enumDescriptions: ["All queued messages at once.", "One message per turn (pi's default)."],
});

/** Reasoning effort; the same list as model.ts's THINKING_LEVELS. */
export const ThinkingLevelSchema = Type.Enum(THINKING_LEVELS, {
  description: 'Reasoning effort. "off" disables thinking; pi clamps the level to what the model supports ("xhigh" and "max" only on some models).',
  examples: ["high"],
});

/**
 * One command: `type` (carrying the command's description, so completing
 * `"type": "` shows it), the optional `id`, and its own fields. Its template
 * (`examples[0]`) fills each required field with that field's first
 * example, else its const or first enum value.
 */
function command<T extends string, P extends Record<string, TSchema> = {}>(type: T, description: string, properties: P = {} as P) {
  const template: Record<string, unknown> = { type };
  for (const [name, schema] of Object.entries(properties)) {
    if (!Type.IsOptional(schema)) template[name] = exampleOf(schema as SchemaShape);
  }
  return Type.Object({ type: Type.Literal(type, { description }), id: CommandId, ...properties }, { title: type, description, examples: [template] });
}

/** The annotations and keywords these schemas use, as plain data. */
export interface SchemaShape {
  readonly type?: string;
  readonly title?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, SchemaShape>>;
  readonly required?: readonly string[];
  readonly items?: SchemaShape;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly maxLength?: number;
  readonly anyOf?: readonly SchemaShape[];
  readonly contentEncoding?: string;
  readonly examples?: readonly unknown[];
  readonly default?: unknown;
}

function exampleOf(schema: SchemaShape): unknown {
  if (schema.examples && schema.examples.length > 0) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  return schema.default;
}

// --- the 33 commands -------------------------------------------------------------

/** Every command's schema, keyed by its type, in pi's documentation order. */
export const COMMAND_SCHEMAS = {
  prompt: command(
    "prompt",
    'Send user input. Text starting with "/" may run an extension command, a prompt template or a skill. success:true only means accepted or queued; for an extension command the response comes after its handler returns.',
    {
      message: Type.String({
        description: 'The user\'s text. "/name args" runs an extension command, a prompt template or a skill.',
        examples: ["Hello, world!"],
      }),
      images: Images,
      streamingBehavior: Type.Optional(StreamingBehaviorSchema),
    },
  ),
  steer: command("steer", "Queue a message delivered after the current tool calls, before the next model call. Extension commands are not allowed here (use prompt).", {
    message: Type.String({ description: 'The message. Prompt templates and skills ("/name") are expanded.', examples: ["Stop and do this instead"] }),
    images: Images,
  }),
  follow_up: command("follow_up", "Queue a message delivered once the agent would otherwise stop. Extension commands are not allowed here (use prompt).", {
    message: Type.String({
      description: 'The message. Prompt templates and skills ("/name") are expanded.',
      examples: ["After you're done, also do this"],
    }),
    images: Images,
  }),
  abort: command("abort", "Stop the current run. Answers once idle; does not clear queues (clear_queue does) or stop an RPC bash (abort_bash does)."),
  clear_queue: command("clear_queue", "Empty the steering and follow-up queues; the response returns their texts."),
  new_session: command("new_session", "Start a fresh session (extensions may cancel).", {
    parentSession: Type.Optional(Type.String({ description: "Session file to record as the new session's parent.", examples: ["/path/to/parent-session.jsonl"] })),
  }),
  get_state: command("get_state", "Read model, thinking level, streaming flags, session id/file/name and counts."),
  set_model: command("set_model", "Switch model by provider + id (must be in get_available_models).", {
    provider: Type.String({ description: 'Provider id, e.g. "anthropic", or a custom provider from models.json.', examples: ["anthropic"] }),
    modelId: Type.String({ description: "The provider's model id.", examples: ["claude-sonnet-4-20250514"] }),
  }),
  cycle_model: command("cycle_model", "Switch to the next model (scoped list or all available)."),
  get_available_models: command("get_available_models", "List models that have credentials."),
  set_thinking_level: command("set_thinking_level", "Set the reasoning effort (pi clamps it to what the model supports).", {
    level: ThinkingLevelSchema,
  }),
  cycle_thinking_level: command("cycle_thinking_level", "Move to the next thinking level the model supports."),
  get_available_thinking_levels: command("get_available_thinking_levels", "List thinking levels the current model supports."),
  set_steering_mode: command("set_steering_mode", "Deliver queued steering messages all at once or one per turn.", {
    mode: QueueModeSchema,
  }),
  set_follow_up_mode: command("set_follow_up_mode", "Deliver queued follow-ups all at once or one per turn.", {
    mode: QueueModeSchema,
  }),
  compact: command("compact", "Summarise older history now.", {
    customInstructions: Type.Optional(Type.String({ description: "What the summary should focus on.", examples: ["Focus on code changes"] })),
  }),
  set_auto_compaction: command("set_auto_compaction", "Turn automatic compaction on or off.", {
    enabled: Type.Boolean({ description: "Compact automatically when the context is nearly full.", examples: [true] }),
  }),
  set_auto_retry: command("set_auto_retry", "Turn automatic retry of failed model calls on or off.", {
    enabled: Type.Boolean({ description: "Retry transient model errors (overloaded, rate limit, 5xx) automatically.", examples: [true] }),
  }),
  abort_retry: command("abort_retry", "Cancel a pending automatic retry."),
  bash: command("bash", "Run a shell command as the user. Output streams as bash_execution_update events carrying this command's id; the response carries the result.", {
    command: Type.String({ description: "The shell command line.", examples: ["ls -la"] }),
    excludeFromContext: Type.Optional(Type.Boolean({ description: "Record it in the session but keep it out of the model's context (`!!`).", default: false })),
  }),
  abort_bash: command("abort_bash", "Kill the running RPC bash commands."),
  get_session_stats: command("get_session_stats", "Token, cost and message counts for the session."),
  export_html: command("export_html", "Write the session as HTML; the response gives the path.", {
    outputPath: Type.Optional(Type.String({ description: "Where to write the HTML file (pi picks a path when absent).", examples: ["/tmp/session.html"] })),
  }),
  switch_session: command("switch_session", "Open another session file (extensions may cancel).", {
    sessionPath: Type.String({ description: "Path of the session .jsonl file to open.", examples: ["/path/to/session.jsonl"] }),
  }),
  fork: command("fork", "Start a new session branched before the given user-message entry (extensions may cancel).", {
    entryId: Type.String({ description: "Id of a user-message entry (see get_fork_messages).", examples: ["abc123"] }),
  }),
  clone: command("clone", "Copy the current branch into a new session."),
  get_fork_messages: command("get_fork_messages", "List user messages that can be forked from."),
  get_entries: command("get_entries", "All session entries, or those after entry `since`.", {
    since: Type.Optional(Type.String({ description: "An entry id: return only the entries after it (a durable cursor).", examples: ["abc123"] })),
  }),
  get_tree: command("get_tree", "The session entry tree and current leaf."),
  get_last_assistant_text: command("get_last_assistant_text", "Text of the last assistant message."),
  set_session_name: command("set_session_name", "Name the session (trimmed; empty is an error).", {
    name: Type.String({ description: "The session's display name.", examples: ["my-feature-work"] }),
  }),
  get_messages: command("get_messages", "The messages of the current branch."),
  get_commands: command("get_commands", "Slash commands available via prompt (extension commands, prompt templates, skills)."),
};

// --- extension_ui_response -----------------------------------------------------------

// Not a command (pi sends no response for it) but written to the same stdin.
// One object with the three optional answers and an anyOf of which one must
// be present, rather than a union of three objects: the relay then names the
// field that is wrong instead of guessing which variant was meant, and the
// JSON editor offers all three. Its TypeScript type stays the precise union
// in extension-ui.ts (checked against pi's own), which this schema admits.
const EXTENSION_UI_RESPONSE_DESCRIPTION = "Answer an extension's dialog: value (select, input, editor), confirmed (confirm) or cancelled: true (any). pi sends no response record for it.";

export const ExtensionUiResponseSchema = Type.Object(
  {
    type: Type.Literal("extension_ui_response", { description: EXTENSION_UI_RESPONSE_DESCRIPTION }),
    id: Type.String({
      maxLength: MAX_COMMAND_ID_LENGTH,
      title: "the id of the extension_ui_request being answered",
      description: "The id of the extension_ui_request being answered.",
      examples: ["3f2b9c7e-0000-4000-8000-000000000000"],
    }),
    value: Type.Optional(Type.String({ description: "The answer to select (one of its options), input or editor." })),
    confirmed: Type.Optional(Type.Boolean({ description: "The answer to confirm." })),
    cancelled: Type.Optional(Type.Literal(true, { description: "Dismiss the dialog, whatever its kind." })),
  },
  {
    title: "extension_ui_response",
    description: EXTENSION_UI_RESPONSE_DESCRIPTION,
    anyOf: [{ required: ["value"] }, { required: ["confirmed"] }, { required: ["cancelled"] }],
    examples: [
      { type: "extension_ui_response", id: "3f2b9c7e-0000-4000-8000-000000000000", value: "Option A" },
      { type: "extension_ui_response", id: "3f2b9c7e-0000-4000-8000-000000000000", confirmed: true },
      { type: "extension_ui_response", id: "3f2b9c7e-0000-4000-8000-000000000000", cancelled: true },
    ],
  },
);

// The precise union of extension-ui.ts is what this schema admits.
type AssertTrue<T extends true> = T;
type ExtensionUiResponseFitsItsSchema = AssertTrue<ExtensionUiResponse extends Static<typeof ExtensionUiResponseSchema> ? true : false>;

// --- views for the inspector -----------------------------------------------------------

/** Every record type a client may write: the 33 commands and extension_ui_response. */
export type AcceptedCommandType = RpcCommandType | "extension_ui_response";

/** The schema of a command type or of extension_ui_response (TypeBox form; see commandJsonSchema for plain JSON). */
export function commandSchema(type: AcceptedCommandType): TSchema {
  return type === "extension_ui_response" ? ExtensionUiResponseSchema : COMMAND_SCHEMAS[type];
}

/** What a command does, as written in its schema (a completion hint). */
export function commandDescription(type: AcceptedCommandType): string {
  return (commandSchema(type) as SchemaShape).description ?? "";
}

/**
 * A valid example of the command, with `id` when given: every required
 * field filled with a placeholder to edit, optional fields left out. A fresh
 * object each call.
 */
export function commandTemplate<T extends RpcCommandType>(type: T, id?: string): RpcCommandOf<T>;
export function commandTemplate(type: "extension_ui_response", id?: string): ExtensionUiResponse;
export function commandTemplate(type: AcceptedCommandType, id?: string): RpcCommandOf<RpcCommandType> | ExtensionUiResponse;
export function commandTemplate(type: AcceptedCommandType, id?: string): object {
  const { type: _type, id: exampleId, ...fields } = plain((commandSchema(type) as SchemaShape).examples?.[0]) as Record<string, unknown>;
  const chosenId = id ?? (type === "extension_ui_response" ? exampleId : undefined);
  return { type, ...(chosenId === undefined ? {} : { id: chosenId }), ...fields };
}

/**
 * The JSON Schema of one command type, or (no argument) of everything a
 * client may write: a oneOf of the 34 schemas, discriminated by their `type`
 * const. Plain JSON (no TypeBox internals), a fresh copy each call, ready for
 * Monaco's `json.jsonDefaults.setDiagnosticsOptions({schemas})`. Beyond JSON
 * Schema it carries two annotations Monaco's JSON worker reads:
 * `enumDescriptions` (hints for enum values) and, on the union,
 * `defaultSnippets` (one "new command" snippet per command type).
 */
export function commandJsonSchema(type?: AcceptedCommandType): Record<string, unknown> {
  if (type !== undefined) return { $schema: COMMAND_JSON_SCHEMA_DIALECT, ...(plain(commandSchema(type)) as object) };
  const types: AcceptedCommandType[] = [...RPC_COMMAND_TYPES, "extension_ui_response"];
  return {
    $schema: COMMAND_JSON_SCHEMA_DIALECT,
    title: "pi RPC input record",
    description: "One record for pi's stdin (pi 0.87.1): one of 33 commands, or an extension_ui_response answering a dialog.",
    type: "object",
    required: ["type"],
    // Listed here as well as in each branch so that completing "type" offers
    // every command even before the object matches any branch.
    properties: {
      type: {
        type: "string",
        enum: types,
        enumDescriptions: types.map(commandDescription),
        description: "The command to run.",
      },
    },
    // The branches' own examples are left out: Monaco would list each
    // template twice, once as the labelled snippet below and once as raw JSON.
    oneOf: types.map((t) => {
      const { examples: _examples, ...branch } = plain(commandSchema(t)) as Record<string, unknown>;
      return branch;
    }),
    defaultSnippets: types.map((t) => ({ label: t, description: commandDescription(t), body: commandTemplate(t) })),
  };
}

/** A deep copy with only JSON's own (enumerable) data: TypeBox's hidden markers are dropped. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}
