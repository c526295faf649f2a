import { describe, expect, it } from "vitest";
import { RPC_COMMAND_TYPES, validateCommand } from "@pier/protocol";
import { commandDescription, commandTemplate } from "@pier/protocol/command-schemas";
import { clientIdOfCommandId } from "../../src/lib/wire-log/wire-entry.ts";
import { historyRows, searchTemplates, type TemplateEntry } from "../../src/lib/inspector/command-catalog.ts";
import { COMMAND_EFFECTS, commandEffect } from "../../src/lib/inspector/command-effects.ts";
import { createIdSource, findTopLevelId, inspectorIds, isInspectorId, prepareForResend, randomTag, replaceTopLevelId, withId } from "../../src/lib/inspector/command-ids.ts";
import { checkCommandText, jsonErrorPosition } from "../../src/lib/inspector/command-text.ts";

const ALL_TYPES = [...RPC_COMMAND_TYPES, "extension_ui_response" as const];

describe("fresh ids", () => {
  it("counts up under one random tag and never looks like a connection id", () => {
    const ids = createIdSource("ab12");
    expect([ids.next(), ids.next()]).toEqual(["inspector-ab12-1", "inspector-ab12-2"]);
    expect(clientIdOfCommandId("inspector-ab12-1")).toBeNull();
    expect(isInspectorId(inspectorIds.next())).toBe(true);
    expect(isInspectorId("c1:4")).toBe(false);
    expect(randomTag()).toMatch(/^[0-9a-z]{4}$/);
    expect(createIdSource().tag).not.toBe(createIdSource().tag + "x");
  });

  it("puts a missing id right after type", () => {
    expect(Object.keys(withId({ type: "prompt", message: "hi" }, "x"))).toEqual(["type", "id", "message"]);
    expect(Object.keys(withId({ message: "hi" }, "x"))).toEqual(["id", "message"]);
    expect(withId({ type: "get_state", id: "old" }, "new")).toEqual({ type: "get_state", id: "new" });
  });

  it("prepares an earlier command for resending with a fresh id, pretty-printed", () => {
    const ids = createIdSource("t");
    const again = prepareForResend('{"type":"prompt","id":"c1:3","message":"hi"}', ids.next);
    expect(again.id).toBe("inspector-t-1");
    expect(JSON.parse(again.text)).toEqual({ type: "prompt", id: "inspector-t-1", message: "hi" });
    expect(again.text).toContain("\n  ");
  });

  it("keeps an extension_ui_response's id (it names the dialog) and text that is not JSON", () => {
    const ids = createIdSource("t");
    const answer = prepareForResend('{"type":"extension_ui_response","id":"dlg-1","confirmed":true}', ids.next);
    expect(answer.id).toBeNull();
    expect(JSON.parse(answer.text).id).toBe("dlg-1");
    expect(prepareForResend("{not json", ids.next)).toEqual({ text: "{not json", id: null });
    expect(prepareForResend("[1,2]", ids.next)).toEqual({ text: "[1,2]", id: null });
  });

  it("finds and replaces the top-level id without touching the rest of the text", () => {
    const text = '{\n  "type": "prompt",\n  "nested": {"id": "inner", "s": "a\\"}"},\n  "id" : "old-1",\n  "message": "x"\n}';
    const at = findTopLevelId(text)!;
    expect(at.value).toBe("old-1");
    expect(text.slice(at.start, at.end)).toBe('"old-1"');
    const replaced = replaceTopLevelId(text, "new-2")!;
    expect(replaced).toBe(text.replace('"old-1"', '"new-2"'));
    expect(findTopLevelId('{"type":"get_state","id":7}')!.value).toBe(7);
    expect(findTopLevelId('{"type":"get_state"}')).toBeNull();
    expect(findTopLevelId('[{"id":"x"}]')).toBeNull();
    expect(JSON.parse(replaceTopLevelId('{"type":"get_state"}', "n")!)).toEqual({ type: "get_state", id: "n" });
    expect(replaceTopLevelId("nope", "n")).toBeNull();
  });
});

describe("side effects", () => {
  it("classifies all 34 record types", () => {
    expect(Object.keys(COMMAND_EFFECTS).sort()).toEqual([...ALL_TYPES].sort());
    for (const type of ALL_TYPES) {
      const effect = commandEffect(type)!;
      expect(effect.level === "none").toBe(effect.note === "");
      if (type.startsWith("get_")) expect(effect.level).toBe("none");
    }
  });

  it("warns about commands that change the session", () => {
    for (const type of ["new_session", "switch_session", "fork", "clone", "abort", "bash", "abort_bash", "compact", "clear_queue"]) {
      expect(commandEffect(type)!.level, type).toBe("session");
    }
    expect(commandEffect("prompt")!.level).toBe("state");
    expect(commandEffect("nonsense")).toBeNull();
    expect(commandEffect(null)).toBeNull();
    expect(commandEffect("toString")).toBeNull();
  });
});

describe("local check", () => {
  it("accepts a valid command and sends it on one line", () => {
    const check = checkCommandText('{\n  "type": "prompt",\n  "id": "x",\n  "message": "a\\nb"\n}', validateCommand);
    expect(check).toEqual({ kind: "valid", line: '{"type":"prompt","id":"x","message":"a\\nb"}', type: "prompt", id: "x" });
  });

  it("words schema errors exactly as the relay does", () => {
    const check = checkCommandText('{"type":"set_steering_mode","mode":"bogus"}', validateCommand);
    expect(check.kind).toBe("invalid");
    const verdict = validateCommand({ type: "set_steering_mode", mode: "bogus" });
    expect(verdict.ok).toBe(false);
    if (check.kind === "invalid" && !verdict.ok) expect(check.error).toBe(verdict.error);
    const unknown = checkCommandText('{"type":"warp"}', validateCommand);
    expect(unknown).toMatchObject({ kind: "invalid", type: "warp", error: 'unknown command type "warp"' });
  });

  it("reports JSON syntax errors like the relay, and sends such text on one line", () => {
    const check = checkCommandText('{\n  "type": "get_state",\n}', validateCommand);
    expect(check.kind).toBe("not-json");
    if (check.kind !== "not-json") return;
    expect(check.error).toMatch(/^the frame is not valid JSON \(/);
    expect(check.line).not.toMatch(/\n/);
    expect(checkCommandText("  \n ", validateCommand).kind).toBe("empty");
  });

  it("refuses a command over the size limit before sending", () => {
    const check = checkCommandText(JSON.stringify({ type: "prompt", message: "é".repeat(40) }), validateCommand, 64);
    expect(check).toMatchObject({ kind: "invalid" });
    if (check.kind === "invalid") expect(check.error).toMatch(/^a command may be at most 64 bytes; this one has \d+$/);
  });

  it("every template is valid once given an id", () => {
    const ids = createIdSource("t");
    for (const type of ALL_TYPES) {
      const template = type === "extension_ui_response" ? commandTemplate(type) : commandTemplate(type, ids.next());
      const check = checkCommandText(JSON.stringify(template, null, 2), validateCommand);
      expect(check.kind, type).toBe("valid");
    }
  });

  it("finds where a JSON error is", () => {
    expect(jsonErrorPosition("{\n  x", "Unexpected token x in JSON at position 4")).toEqual({ line: 2, column: 3 });
    expect(jsonErrorPosition("", "Expected ',' (line 3 column 5)")).toEqual({ line: 3, column: 5 });
    expect(jsonErrorPosition("", "Unexpected end")).toBeNull();
  });
});

describe("catalogue and history", () => {
  const entries: TemplateEntry[] = ALL_TYPES.map((type) => ({ type, description: commandDescription(type) }));

  it("lists all 34 record types, and finds them by type or description words", () => {
    expect(searchTemplates(entries, "")).toHaveLength(34);
    expect(searchTemplates(entries, "new session")[0]!.type).toBe("new_session");
    expect(searchTemplates(entries, "get_state")[0]!.type).toBe("get_state");
    expect(searchTemplates(entries, "abort")[0]!.type).toBe("abort");
    expect(searchTemplates(entries, "abort").map((e) => e.type)).toEqual(expect.arrayContaining(["abort_bash", "abort_retry"]));
    expect(searchTemplates(entries, "shell").map((e) => e.type)).toContain("bash");
    expect(searchTemplates(entries, "zzzz")).toEqual([]);
  });

  it("shows the history newest first, with type, id and a short summary", () => {
    const rows = historyRows([
      { seq: 1, text: '{"type":"get_state","id":"a"}' },
      { seq: 5, text: '{"type":"prompt","id":"b","message":"Hello there"}' },
      { seq: 9, text: "not json\nat all" },
    ]);
    expect(rows.map((r) => r.seq)).toEqual([9, 5, 1]);
    expect(rows[0]).toMatchObject({ type: null, id: null, summary: "not json at all" });
    expect(rows[1]).toMatchObject({ type: "prompt", id: "b", summary: 'message: "Hello there"' });
    expect(rows[2]).toMatchObject({ type: "get_state", summary: "" });
    expect(historyRows([{ seq: 1, text: JSON.stringify({ type: "prompt", message: "x".repeat(200) }) }], 20)[0]!.summary).toHaveLength(20);
  });
});
