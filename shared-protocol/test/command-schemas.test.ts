import Schema from "typebox/schema";
import { describe, expect, it } from "vitest";
import { validateCommand } from "../src/command-guard.ts";
import {
  COMMAND_JSON_SCHEMA_DIALECT,
  COMMAND_SCHEMAS,
  commandDescription,
  commandJsonSchema,
  commandSchema,
  commandTemplate,
  type AcceptedCommandType,
  type SchemaShape,
} from "../src/pi/command-schemas.ts";
import { RPC_COMMAND_TYPES } from "../src/pi/commands.ts";

const ACCEPTED: AcceptedCommandType[] = [...RPC_COMMAND_TYPES, "extension_ui_response"];

const schemaOf = (type: AcceptedCommandType) => commandSchema(type) as SchemaShape;

/** TypeBox's own JSON Schema validator, run on the exported plain JSON: the oracle for validateCommand. */
const union = Schema.Compile(commandJsonSchema());

describe("the command schemas", () => {
  it("exist for exactly the 33 command types, in RPC_COMMAND_TYPES order", () => {
    expect(Object.keys(COMMAND_SCHEMAS)).toEqual([...RPC_COMMAND_TYPES]);
  });

  it.each(ACCEPTED)("%s has a description, a template that validates, and descriptions on its fields", (type) => {
    expect(commandDescription(type).length).toBeGreaterThan(15);
    const template = commandTemplate(type, "req-1");
    expect(Object.keys(template).slice(0, 2)).toEqual(["type", "id"]);
    expect(template).toMatchObject({ type, id: "req-1" });
    expect(validateCommand(template)).toEqual({ ok: true, command: template });
    expect(union.Check(template)).toBe(true);
    expect(Schema.Check(commandJsonSchema(type), template)).toBe(true);
    for (const [name, field] of Object.entries(schemaOf(type).properties ?? {})) {
      expect(field.description, `${type}.${name}`).toEqual(expect.any(String));
    }
  });

  it("give templates without an id for commands, and a fresh object each time", () => {
    const a = commandTemplate("set_model");
    expect(a).toEqual({ type: "set_model", provider: "anthropic", modelId: "claude-sonnet-4-20250514" });
    (a as { provider: string }).provider = "changed";
    expect(commandTemplate("set_model").provider).toBe("anthropic");
    expect(commandTemplate("set_thinking_level")).toEqual({ type: "set_thinking_level", level: "high" });
    expect(commandTemplate("abort")).toEqual({ type: "abort" });
    // An extension_ui_response needs the id of the dialog it answers.
    expect(commandTemplate("extension_ui_response", "u1")).toEqual({ type: "extension_ui_response", id: "u1", value: "Option A" });
  });

  it("use only the keywords command-guard's walker understands", () => {
    const validation = new Set(["type", "properties", "required", "items", "enum", "const", "maxLength", "anyOf"]);
    const annotations = new Set(["title", "description", "examples", "default", "contentEncoding", "enumDescriptions"]);
    const types = new Set(["string", "boolean", "object", "array"]);
    const visit = (schema: Record<string, unknown>, where: string): void => {
      for (const key of Object.keys(schema)) expect(validation.has(key) || annotations.has(key), `${where}: ${key}`).toBe(true);
      if (schema["type"] !== undefined) expect(types.has(schema["type"] as string), `${where}: type ${String(schema["type"])}`).toBe(true);
      for (const [name, child] of Object.entries((schema["properties"] ?? {}) as Record<string, Record<string, unknown>>)) visit(child, `${where}.${name}`);
      if (schema["items"]) visit(schema["items"] as Record<string, unknown>, `${where}[]`);
      for (const branch of (schema["anyOf"] ?? []) as Record<string, unknown>[]) visit(branch, `${where}|`);
    };
    for (const type of ACCEPTED) visit(JSON.parse(JSON.stringify(commandSchema(type))), type);
  });
});

describe("commandJsonSchema", () => {
  it("is plain JSON: it survives a JSON round trip unchanged and holds no TypeBox markers", () => {
    for (const schema of [commandJsonSchema(), ...ACCEPTED.map((type) => commandJsonSchema(type))]) {
      expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
      const keys = (value: unknown): string[] =>
        typeof value === "object" && value !== null ? Reflect.ownKeys(value).flatMap((key) => [String(key), ...keys((value as Record<PropertyKey, unknown>)[key])]) : [];
      expect(keys(schema).filter((key) => key.startsWith("~") || key.startsWith("Symbol("))).toEqual([]);
      expect(schema["$schema"]).toBe(COMMAND_JSON_SCHEMA_DIALECT);
    }
  });

  it("is a fresh copy each call", () => {
    const first = commandJsonSchema() as { oneOf: unknown[] };
    first.oneOf.length = 0;
    expect((commandJsonSchema() as { oneOf: unknown[] }).oneOf).toHaveLength(34);
  });

  it("is a oneOf of the 34 accepted records, discriminated by type, with a hint for each type and a snippet per command", () => {
    const schema = commandJsonSchema() as {
      oneOf: { properties: { type: { const: string; description: string } } }[];
      properties: { type: { enum: string[]; enumDescriptions: string[] } };
      defaultSnippets: { label: string; description: string; body: object }[];
    };
    expect(schema.oneOf.map((branch) => branch.properties.type.const)).toEqual(ACCEPTED);
    expect(schema.oneOf.map((branch) => branch.properties.type.description)).toEqual(ACCEPTED.map(commandDescription));
    expect(schema.properties.type.enum).toEqual(ACCEPTED);
    expect(schema.properties.type.enumDescriptions).toEqual(ACCEPTED.map(commandDescription));
    expect(schema.defaultSnippets.map((snippet) => snippet.label)).toEqual(ACCEPTED);
    // Templates are offered once, as labelled snippets, not again as each branch's examples.
    expect(schema.oneOf.filter((branch) => "examples" in branch)).toEqual([]);
    expect(commandJsonSchema("prompt")["examples"]).toEqual([{ type: "prompt", message: "Hello, world!" }]);
    for (const snippet of schema.defaultSnippets) expect(union.Check(snippet.body), snippet.label).toBe(true);
  });

  it("refuses, as a JSON Schema validator runs it, what validateCommand refuses", () => {
    for (const bad of [
      { type: "set_steering_mode", mode: "bogus" },
      { type: "set_thinking_level", level: "extreme" },
      { type: "compact", customInstructions: 5 },
      { type: "prompt" },
      { type: "bogus" },
      { type: "get_state", id: "x".repeat(257) },
      { type: "extension_ui_response", id: "u" },
      { message: "no type" },
    ]) {
      expect(union.Check(bad), JSON.stringify(bad)).toBe(false);
      expect(validateCommand(bad).ok).toBe(false);
    }
  });
});

describe("validateCommand agrees with TypeBox's JSON Schema validator", () => {
  // Every field of every record: removed, or replaced by each JSON kind and
  // by near misses; plus the template, an extra field and no id.
  const replacements: unknown[] = [
    null,
    0,
    5,
    "",
    "bogus",
    "all",
    "high",
    "steer",
    true,
    false,
    [],
    {},
    ["x"],
    [{}],
    [{ type: "image", data: "aGk=", mimeType: "image/png" }],
    [{ type: "image", data: 1, mimeType: "image/png" }],
    [{ type: "picture", data: "aGk=", mimeType: "image/png" }],
    "😀".repeat(256),
    "😀".repeat(257),
  ];
  const cases: unknown[] = [null, 1, "get_state", [], [{ type: "get_state" }], {}, { type: 1 }, { type: "nope" }, { type: "__proto__" }];
  for (const type of ACCEPTED) {
    const template = commandTemplate(type, "req-1") as Record<string, unknown>;
    const { id: _id, ...withoutId } = template;
    cases.push(template, withoutId, { ...template, futureField: { nested: [1] } });
    for (const name of Object.keys(schemaOf(type).properties ?? {})) {
      if (name === "type") continue;
      const { [name]: _removed, ...rest } = template;
      cases.push(rest);
      for (const value of replacements) cases.push({ ...template, [name]: value });
    }
  }

  it(`on ${cases.length} generated records`, () => {
    let refused = 0;
    for (const value of cases) {
      const verdict = validateCommand(value);
      expect(verdict.ok, JSON.stringify(value).slice(0, 200)).toBe(union.Check(value));
      if (!verdict.ok) {
        refused++;
        expect(verdict.error).toMatch(/^(a command|unknown command type|[a-z_]+(\.|\[| must))/);
      }
    }
    // Both outcomes are well represented, so the agreement means something.
    expect(refused).toBeGreaterThan(cases.length / 2);
    expect(refused).toBeLessThan(cases.length);
  });
});
