import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PI_EVENT_TYPES, RELAY_REQUEST_TYPES, RPC_COMMAND_TYPES, type AssistantMessageEventType, type ExtensionUiMethod, type RelayFrameType } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { RELAY_FRAME_TYPES, type RelayFrameTypesListIsComplete } from "../../src/lib/wire-log/lessons-relay.ts";
import { allLessons, lessonByKey, lessonFor, lessonKeyFor } from "../../src/lib/wire-log/lessons.ts";
import { fixtureEntries, fixtureNames } from "./support.ts";

type AssertTrue<T extends true> = T;
type Exhaustive<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : false;

// Compile-time: the lists below name every member of the protocol's unions.
const relayFramesComplete: RelayFrameTypesListIsComplete = true;
const UI_METHODS = ["select", "confirm", "input", "editor", "notify", "setStatus", "setWidget", "setTitle", "set_editor_text"] as const satisfies readonly ExtensionUiMethod[];
type UiMethodsComplete = AssertTrue<Exhaustive<ExtensionUiMethod, (typeof UI_METHODS)[number]>>;
const STEPS = [
  "start",
  "text_start",
  "text_delta",
  "text_end",
  "thinking_start",
  "thinking_delta",
  "thinking_end",
  "toolcall_start",
  "toolcall_delta",
  "toolcall_end",
  "done",
  "error",
] as const satisfies readonly AssistantMessageEventType[];
type StepsComplete = AssertTrue<Exhaustive<AssistantMessageEventType, (typeof STEPS)[number]>>;
const relayTypes: readonly RelayFrameType[] = RELAY_FRAME_TYPES;

// pi 0.87.1's docs: the version the lessons describe (the contract tests' default pi).
const PI_DOCS = join(import.meta.dirname, "..", "..", "..", "relay", "node_modules", "pi-coding-agent-0.87", "docs");

/** GitHub's heading slugs and explicit <a id> anchors of a markdown page. */
function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(PI_DOCS, page), "utf8");
  const anchors = new Set<string>();
  for (const match of text.matchAll(/^#+\s+(.+)$/gm)) {
    anchors.add(
      match[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\w\- ]/g, "")
        .replace(/ /g, "-"),
    );
  }
  for (const match of text.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(match[1]!);
  return anchors;
}

function sentences(text: string): number {
  return text.split(/(?<=[.!?])\s+(?=\S)/).filter((s) => s.trim().length > 0).length;
}

describe("lesson coverage", () => {
  it("has the compile-time lists in place", () => {
    expect(relayFramesComplete).toBe(true);
    expect(relayTypes.length).toBe(21);
    expect(UI_METHODS.length).toBe(9);
    expect(STEPS.length).toBe(12);
  });

  it.each([...PI_EVENT_TYPES])("explains the event %s", (type) => {
    expect(lessonByKey(`event:${type}`)).toBeDefined();
  });

  it.each([...RPC_COMMAND_TYPES])("explains the command %s and pi's response to it", (type) => {
    expect(lessonByKey(`command:${type}`)?.title).toContain(type);
    expect(lessonByKey(`response:${type}`)?.title).toContain(type);
  });

  it("explains every streaming step, extension UI method, relay frame and relay request", () => {
    for (const step of STEPS) expect(lessonByKey(`delta:${step}`), step).toBeDefined();
    for (const method of UI_METHODS) expect(lessonByKey(`ui:${method}`), method).toBeDefined();
    for (const type of RELAY_FRAME_TYPES) expect(lessonByKey(`relay:${type}`), type).toBeDefined();
    for (const type of RELAY_REQUEST_TYPES) expect(lessonByKey(`request:${type}`), type).toBeDefined();
    for (const key of ["command:extension_ui_response", "response:parse", "response:failed", "line:invalid", "event:unknown", "relay:unknown"]) {
      expect(lessonByKey(key), key).toBeDefined();
    }
  });

  it("counts: 24 events, 12 steps, 9 UI methods, 33 commands and responses, 21 relay frames", () => {
    const keys = [...allLessons().keys()];
    const count = (prefix: string): number => keys.filter((k) => k.startsWith(prefix) && !k.endsWith(":unknown") && !k.endsWith(":invalid")).length;
    expect(count("event:")).toBe(24);
    expect(count("delta:")).toBe(12);
    expect(count("ui:")).toBe(9);
    expect(count("command:")).toBe(34); // 33 + extension_ui_response
    expect(count("response:")).toBe(35); // 33 + parse + failed
    expect(count("relay:")).toBe(21);
  });
});

describe("lesson texts", () => {
  const lessons = [...allLessons().values()];

  it.each(lessons.map((l) => [l.key, l] as const))("%s reads as a lesson", (_key, lesson) => {
    expect(lesson.title.length).toBeGreaterThan(3);
    expect(lesson.summary).toMatch(/[.!?]$/);
    expect(sentences(lesson.summary)).toBe(1);
    expect(lesson.body).toMatch(/[.!?]$/);
    expect(sentences(lesson.body)).toBeGreaterThanOrEqual(2);
    expect(sentences(lesson.body)).toBeLessThanOrEqual(6);
  });

  it("links only to pages and anchors that exist in pi's docs", () => {
    const cache = new Map<string, Set<string>>();
    for (const lesson of lessons) {
      if (lesson.docs === undefined) continue;
      const [page, anchor] = lesson.docs.split("#") as [string, string | undefined];
      expect(existsSync(join(PI_DOCS, page)), `${lesson.key}: ${page}`).toBe(true);
      if (anchor === undefined) continue;
      if (!cache.has(page)) cache.set(page, anchorsOf(page));
      expect(cache.get(page)!.has(anchor), `${lesson.key}: ${lesson.docs}`).toBe(true);
    }
  });

  it("teaches the facts a client gets wrong", () => {
    expect(lessonByKey("response:prompt")!.body).toMatch(/agent_settled/);
    expect(lessonByKey("response:prompt")!.body).toMatch(/handled/);
    expect(lessonByKey("event:agent_end")!.body).toMatch(/agent_settled/);
    expect(lessonByKey("event:message_update")!.body).toMatch(/no accumulated message/);
    expect(lessonByKey("event:message_end")!.summary).toMatch(/authoritative/);
    expect(lessonByKey("delta:toolcall_start")!.body).toMatch(/id and toolName/);
    expect(lessonByKey("event:message_start")!.body).toMatch(/role system/);
    expect(lessonByKey("command:abort")!.body).toMatch(/does not clear the queues/);
    expect(lessonByKey("response:abort")!.summary).toMatch(/idle/);
    expect(lessonByKey("response:get_messages")!.summary).toMatch(/system message first/);
    expect(lessonByKey("response:parse")!.summary).toMatch(/no id/);
    for (const type of ["entry_appended", "session_info_changed", "thinking_level_changed"]) {
      expect(lessonByKey(`event:${type}`)!.summary).toMatch(/beyond pi's documented table/);
    }
    expect(lessonByKey("ui:select")!.body).toMatch(/only after its handler returns/);
  });
});

describe("lessonFor", () => {
  const key = (direction: "in" | "out" | "relay", value: unknown): string => lessonKeyFor({ direction, value });

  it("picks the lesson by direction, type, step, method and outcome", () => {
    expect(key("in", { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x" } })).toBe("delta:text_delta");
    expect(key("in", { type: "message_update", assistantMessageEvent: { type: "toolcall_start" } })).toBe("delta:toolcall_start");
    expect(key("in", { type: "message_update", assistantMessageEvent: { type: "brand_new" } })).toBe("delta:unknown");
    expect(key("in", { type: "message_update" })).toBe("event:message_update");
    expect(key("in", { type: "response", command: "prompt", success: true })).toBe("response:prompt");
    expect(key("in", { type: "response", command: "prompt", success: false, error: "x" })).toBe("response:failed");
    expect(key("in", { type: "response", command: "parse", success: false, error: "x" })).toBe("response:parse");
    expect(key("in", { type: "response", command: "teleport", success: true })).toBe("response:unknown");
    expect(key("in", { type: "extension_ui_request", method: "confirm", id: "1" })).toBe("ui:confirm");
    expect(key("in", { type: "extension_ui_request", method: "hologram", id: "1" })).toBe("ui:unknown");
    expect(key("in", { type: "agent_settled", aborted: true })).toBe("event:agent_settled");
    expect(key("in", { type: "future_event" })).toBe("event:unknown");
    expect(key("in", undefined)).toBe("line:invalid");
    expect(key("in", [1, 2])).toBe("line:invalid");
    expect(key("out", { type: "prompt", message: "hi" })).toBe("command:prompt");
    expect(key("out", { type: "extension_ui_response", id: "1", value: "x" })).toBe("command:extension_ui_response");
    expect(key("out", { type: "pier.restart_pi" })).toBe("request:pier.restart_pi");
    expect(key("out", { type: "pier.fly" })).toBe("request:unknown");
    expect(key("out", { type: "teleport" })).toBe("command:unknown");
    expect(key("out", "junk")).toBe("command:invalid");
    expect(key("relay", { type: "hello" })).toBe("relay:hello");
    expect(key("relay", { type: "stderr", line: "x" })).toBe("relay:stderr");
    expect(key("relay", { type: "beam" })).toBe("relay:unknown");
    expect(key("relay", null)).toBe("relay:unknown");
    // Keys that look like object internals do not reach Object.prototype.
    expect(key("in", { type: "__proto__" })).toBe("event:unknown");
    expect(key("in", { type: "constructor" })).toBe("event:unknown");
  });

  it("finds a specific lesson for every record of every captured transcript", () => {
    for (const name of fixtureNames()) {
      for (const entry of fixtureEntries(name)) {
        const lesson = lessonFor(entry);
        expect(lesson.key, `${name} #${entry.seq}`).not.toMatch(/unknown|invalid/);
      }
    }
  });
});
