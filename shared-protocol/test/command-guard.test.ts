import { describe, expect, it } from "vitest";
import { validateCommand, MAX_COMMAND_ID_LENGTH } from "../src/command-guard.ts";
import { RPC_COMMAND_TYPES, type RpcCommand, type RpcCommandType } from "../src/pi/commands.ts";
import { THINKING_LEVELS } from "../src/pi/model.ts";

/** A minimal valid instance of every command (the record type forces all 33). */
const MINIMAL: { [T in RpcCommandType]: Extract<RpcCommand, { type: T }> } = {
  prompt: { type: "prompt", message: "hi" },
  steer: { type: "steer", message: "go left" },
  follow_up: { type: "follow_up", message: "then this" },
  abort: { type: "abort" },
  clear_queue: { type: "clear_queue" },
  new_session: { type: "new_session" },
  get_state: { type: "get_state" },
  set_model: { type: "set_model", provider: "anthropic", modelId: "claude" },
  cycle_model: { type: "cycle_model" },
  get_available_models: { type: "get_available_models" },
  set_thinking_level: { type: "set_thinking_level", level: "high" },
  cycle_thinking_level: { type: "cycle_thinking_level" },
  get_available_thinking_levels: { type: "get_available_thinking_levels" },
  set_steering_mode: { type: "set_steering_mode", mode: "all" },
  set_follow_up_mode: { type: "set_follow_up_mode", mode: "one-at-a-time" },
  compact: { type: "compact" },
  set_auto_compaction: { type: "set_auto_compaction", enabled: true },
  set_auto_retry: { type: "set_auto_retry", enabled: false },
  abort_retry: { type: "abort_retry" },
  bash: { type: "bash", command: "ls" },
  abort_bash: { type: "abort_bash" },
  get_session_stats: { type: "get_session_stats" },
  export_html: { type: "export_html" },
  switch_session: { type: "switch_session", sessionPath: "/tmp/s.jsonl" },
  fork: { type: "fork", entryId: "abc" },
  clone: { type: "clone" },
  get_fork_messages: { type: "get_fork_messages" },
  get_entries: { type: "get_entries" },
  get_tree: { type: "get_tree" },
  get_last_assistant_text: { type: "get_last_assistant_text" },
  set_session_name: { type: "set_session_name", name: "work" },
  get_messages: { type: "get_messages" },
  get_commands: { type: "get_commands" },
};

/** JSON round trip, as the relay sees it. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

function errorOf(value: unknown): string {
  const result = validateCommand(value);
  if (result.ok) throw new Error(`expected rejection of ${JSON.stringify(value)}`);
  return result.error;
}

describe("RPC_COMMAND_TYPES", () => {
  it("lists exactly the 33 pi 0.87.1 command types, once each", () => {
    expect(RPC_COMMAND_TYPES).toHaveLength(33);
    expect(new Set(RPC_COMMAND_TYPES).size).toBe(33);
    expect([...RPC_COMMAND_TYPES].sort()).toEqual(Object.keys(MINIMAL).sort());
  });
});

describe("validateCommand accepts", () => {
  it.each(RPC_COMMAND_TYPES)("a minimal %s", (type) => {
    const command = wire(MINIMAL[type]);
    expect(validateCommand(command)).toEqual({ ok: true, command });
  });

  it.each(RPC_COMMAND_TYPES)("%s with an id", (type) => {
    const command = wire({ ...MINIMAL[type], id: "req-1" });
    expect(validateCommand(command).ok).toBe(true);
  });

  it("every optional field with the right type", () => {
    const image = { type: "image", data: "aGVsbG8=", mimeType: "image/png" };
    const commands: RpcCommand[] = [
      { type: "prompt", message: "x", images: [{ type: "image", data: "aGVsbG8=", mimeType: "image/png" }], streamingBehavior: "steer" },
      { type: "prompt", message: "x", images: [], streamingBehavior: "followUp" },
      { type: "steer", message: "x", images: [{ type: "image", data: "", mimeType: "image/jpeg" }] },
      { type: "follow_up", message: "x", images: [{ type: "image", data: image.data, mimeType: image.mimeType }] },
      { type: "new_session", parentSession: "/tmp/parent.jsonl" },
      { type: "compact", customInstructions: "keep the plan" },
      { type: "bash", command: "ls", excludeFromContext: true },
      { type: "export_html", outputPath: "/tmp/out.html" },
      { type: "get_entries", since: "entry-1" },
    ];
    for (const command of commands) expect(validateCommand(wire(command)).ok).toBe(true);
  });

  it.each(THINKING_LEVELS)("thinking level %s", (level) => {
    expect(validateCommand({ type: "set_thinking_level", level }).ok).toBe(true);
  });

  it("unknown extra fields (forward-compatible)", () => {
    expect(validateCommand({ type: "get_state", futureFlag: { a: 1 } }).ok).toBe(true);
  });

  it("an id of exactly the maximum length", () => {
    expect(validateCommand({ type: "abort", id: "x".repeat(MAX_COMMAND_ID_LENGTH) }).ok).toBe(true);
  });

  it("extension UI responses: value, confirmed, cancelled", () => {
    for (const response of [
      { type: "extension_ui_response", id: "u1", value: "Option A" },
      { type: "extension_ui_response", id: "u1", value: "" },
      { type: "extension_ui_response", id: "u2", confirmed: false },
      { type: "extension_ui_response", id: "u3", cancelled: true },
    ]) {
      expect(validateCommand(response)).toEqual({ ok: true, command: response });
    }
  });
});

describe("validateCommand rejects", () => {
  it.each([
    ["null", null, "a command must be a JSON object, not null"],
    ["a string", "get_state", 'a command must be a JSON object, not the string "get_state"'],
    ["a number", 42, "a command must be a JSON object, not the number 42"],
    ["a boolean", true, "a command must be a JSON object, not true"],
    ["undefined", undefined, "a command must be a JSON object, not undefined"],
    ["an array", [{ type: "get_state" }], "a command must be a JSON object, not an array"],
  ])("%s", (_label, value, error) => {
    expect(validateCommand(value)).toEqual({ ok: false, error });
  });

  it("objects that are not plain (class instances)", () => {
    expect(errorOf(new Date())).toMatch(/must be a JSON object/);
  });

  it("a missing type", () => {
    expect(errorOf({ message: "hi" })).toBe('a command must have a "type" field');
    expect(errorOf({})).toBe('a command must have a "type" field');
  });

  it("a non-string type", () => {
    expect(errorOf({ type: 7 })).toBe(`a command's "type" must be a string, not the number 7`);
    expect(errorOf({ type: null })).toBe(`a command's "type" must be a string, not null`);
  });

  it("an unknown type", () => {
    expect(errorOf({ type: "foo" })).toBe('unknown command type "foo"');
    expect(errorOf({ type: "response" })).toBe('unknown command type "response"');
    expect(errorOf({ type: "Prompt", message: "x" })).toBe('unknown command type "Prompt"');
  });

  it("a non-string or too long id", () => {
    expect(errorOf({ type: "get_state", id: 1 })).toBe("get_state.id must be a string, not the number 1");
    expect(errorOf({ type: "get_state", id: null })).toMatch(/^get_state\.id must be a string/);
    expect(errorOf({ type: "get_state", id: "x".repeat(MAX_COMMAND_ID_LENGTH + 1) })).toBe(
      `get_state.id must be at most ${MAX_COMMAND_ID_LENGTH} characters long (it has ${MAX_COMMAND_ID_LENGTH + 1})`,
    );
  });

  it("missing required fields, naming them", () => {
    expect(errorOf({ type: "prompt" })).toBe("prompt.message is required and must be a string");
    expect(errorOf({ type: "steer" })).toBe("steer.message is required and must be a string");
    expect(errorOf({ type: "follow_up" })).toBe("follow_up.message is required and must be a string");
    expect(errorOf({ type: "set_model", provider: "p" })).toBe("set_model.modelId is required and must be a string");
    expect(errorOf({ type: "set_model", modelId: "m" })).toBe("set_model.provider is required and must be a string");
    expect(errorOf({ type: "set_thinking_level" })).toMatch(/^set_thinking_level\.level is required and must be one of "off", /);
    expect(errorOf({ type: "set_steering_mode" })).toBe('set_steering_mode.mode is required and must be "all" or "one-at-a-time"');
    expect(errorOf({ type: "set_follow_up_mode" })).toBe('set_follow_up_mode.mode is required and must be "all" or "one-at-a-time"');
    expect(errorOf({ type: "set_auto_compaction" })).toBe("set_auto_compaction.enabled is required and must be a boolean");
    expect(errorOf({ type: "set_auto_retry" })).toBe("set_auto_retry.enabled is required and must be a boolean");
    expect(errorOf({ type: "bash" })).toBe("bash.command is required and must be a string");
    expect(errorOf({ type: "switch_session" })).toBe("switch_session.sessionPath is required and must be a string");
    expect(errorOf({ type: "fork" })).toBe("fork.entryId is required and must be a string");
    expect(errorOf({ type: "set_session_name" })).toBe("set_session_name.name is required and must be a string");
  });

  it("required fields of the wrong type", () => {
    expect(errorOf({ type: "prompt", message: 5 })).toBe("prompt.message must be a string, not the number 5");
    expect(errorOf({ type: "prompt", message: null })).toBe("prompt.message must be a string, not null");
    expect(errorOf({ type: "prompt", message: ["hi"] })).toBe("prompt.message must be a string, not an array");
    expect(errorOf({ type: "set_model", provider: "p", modelId: {} })).toBe("set_model.modelId must be a string, not an object");
    expect(errorOf({ type: "set_auto_retry", enabled: "true" })).toBe('set_auto_retry.enabled must be a boolean, not the string "true"');
    expect(errorOf({ type: "set_auto_compaction", enabled: 1 })).toBe("set_auto_compaction.enabled must be a boolean, not the number 1");
    expect(errorOf({ type: "bash", command: false })).toBe("bash.command must be a string, not false");
    expect(errorOf({ type: "fork", entryId: 12 })).toBe("fork.entryId must be a string, not the number 12");
  });

  it("enum fields outside their values", () => {
    expect(errorOf({ type: "set_thinking_level", level: "extreme" })).toBe(
      'set_thinking_level.level must be one of "off", "minimal", "low", "medium", "high", "xhigh", "max", not the string "extreme"',
    );
    expect(errorOf({ type: "set_steering_mode", mode: "some" })).toBe('set_steering_mode.mode must be "all" or "one-at-a-time", not the string "some"');
    expect(errorOf({ type: "prompt", message: "x", streamingBehavior: "follow_up" })).toBe('prompt.streamingBehavior must be "steer" or "followUp", not the string "follow_up"');
  });

  it("optional fields of the wrong type (null included)", () => {
    expect(errorOf({ type: "new_session", parentSession: 1 })).toBe("new_session.parentSession must be a string, not the number 1");
    expect(errorOf({ type: "compact", customInstructions: null })).toBe("compact.customInstructions must be a string, not null");
    expect(errorOf({ type: "bash", command: "ls", excludeFromContext: "yes" })).toBe('bash.excludeFromContext must be a boolean, not the string "yes"');
    expect(errorOf({ type: "export_html", outputPath: [] })).toBe("export_html.outputPath must be a string, not an array");
    expect(errorOf({ type: "get_entries", since: 3 })).toBe("get_entries.since must be a string, not the number 3");
  });

  it("malformed images", () => {
    expect(errorOf({ type: "prompt", message: "x", images: null })).toBe('prompt.images must be an array of objects {type: "image", data, mimeType}, not null');
    expect(errorOf({ type: "steer", message: "x", images: {} })).toBe('steer.images must be an array of objects {type: "image", data, mimeType}, not an object');
    expect(errorOf({ type: "prompt", message: "x", images: ["aGVsbG8="] })).toBe('prompt.images[0] must be an object {type: "image", data, mimeType}, not the string "aGVsbG8="');
    expect(errorOf({ type: "prompt", message: "x", images: [{ data: "a", mimeType: "image/png" }] })).toBe('prompt.images[0].type is required and must be "image"');
    expect(
      errorOf({
        type: "follow_up",
        message: "x",
        images: [
          { type: "image", data: "a", mimeType: "image/png" },
          { type: "image", data: 1, mimeType: "image/png" },
        ],
      }),
    ).toBe("follow_up.images[1].data must be a base64 string, not the number 1");
    expect(errorOf({ type: "prompt", message: "x", images: [{ type: "image", data: "a" }] })).toBe("prompt.images[0].mimeType is required and must be a string");
  });

  it("malformed extension UI responses", () => {
    expect(errorOf({ type: "extension_ui_response", value: "a" })).toBe("extension_ui_response.id is required and must be a string (the id of the extension_ui_request being answered)");
    expect(errorOf({ type: "extension_ui_response", id: 3, value: "a" })).toBe("extension_ui_response.id must be a string, not the number 3");
    expect(errorOf({ type: "extension_ui_response", id: "u" })).toBe('extension_ui_response must carry "value" (a string), "confirmed" (a boolean) or "cancelled": true');
    expect(errorOf({ type: "extension_ui_response", id: "u", value: 1 })).toBe("extension_ui_response.value must be a string, not the number 1");
    expect(errorOf({ type: "extension_ui_response", id: "u", confirmed: "yes" })).toBe('extension_ui_response.confirmed must be a boolean, not the string "yes"');
    expect(errorOf({ type: "extension_ui_response", id: "u", cancelled: false })).toBe("extension_ui_response.cancelled must be true, not false");
  });

  it("the inputs pi mis-handles, with the message the schema gives", () => {
    expect(errorOf({ type: "set_steering_mode", mode: "bogus" })).toBe('set_steering_mode.mode must be "all" or "one-at-a-time", not the string "bogus"');
    expect(errorOf({ type: "set_follow_up_mode", mode: "ALL" })).toBe('set_follow_up_mode.mode must be "all" or "one-at-a-time", not the string "ALL"');
    expect(errorOf({ type: "set_thinking_level", level: "ultra" })).toBe('set_thinking_level.level must be one of "off", "minimal", "low", "medium", "high", "xhigh", "max", not the string "ultra"');
    expect(errorOf({ type: "set_thinking_level", level: 3 })).toMatch(/^set_thinking_level\.level must be one of .*, not the number 3$/);
    expect(errorOf({ type: "compact", customInstructions: 5 })).toBe("compact.customInstructions must be a string, not the number 5");
    expect(errorOf({ type: "compact", customInstructions: { focus: "tests" } })).toBe("compact.customInstructions must be a string, not an object");
    expect(errorOf({ type: "compact", customInstructions: ["a", "b"] })).toBe("compact.customInstructions must be a string, not an array");
  });

  it("an id over the limit counted in characters, as JSON Schema counts them", () => {
    expect(validateCommand({ type: "abort", id: "😀".repeat(MAX_COMMAND_ID_LENGTH) }).ok).toBe(true);
    expect(errorOf({ type: "abort", id: "😀".repeat(MAX_COMMAND_ID_LENGTH + 1) })).toBe(`abort.id must be at most ${MAX_COMMAND_ID_LENGTH} characters long (it has ${MAX_COMMAND_ID_LENGTH + 1})`);
    expect(errorOf({ type: "extension_ui_response", id: "u".repeat(MAX_COMMAND_ID_LENGTH + 1), cancelled: true })).toMatch(/^extension_ui_response\.id must be at most/);
  });

  it("a wrong extension UI answer even when another one is right", () => {
    expect(errorOf({ type: "extension_ui_response", id: "u", cancelled: true, value: 3 })).toBe("extension_ui_response.value must be a string, not the number 3");
  });

  it("a long unknown type without echoing all of it", () => {
    const error = errorOf({ type: "z".repeat(1000) });
    expect(error.length).toBeLessThan(80);
    expect(error.startsWith('unknown command type "zzzz')).toBe(true);
  });
});
