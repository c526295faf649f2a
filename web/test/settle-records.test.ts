import { describe, expect, it } from "vitest";
import { settle, settleRecord } from "../src/lib/relay/settle-records.ts";

const isPlain = (value: unknown) => Object.getPrototypeOf(value) === Object.prototype;

describe("settled records", () => {
  it("a settled object is no longer plain (Svelte leaves it alone) and otherwise unchanged", () => {
    const message = settle({ role: "user", content: "hi", timestamp: 1 });
    expect(isPlain(message)).toBe(false);
    expect(message).toEqual({ role: "user", content: "hi", timestamp: 1 });
    expect(JSON.stringify(message)).toBe('{"role":"user","content":"hi","timestamp":1}');
    expect(String(message)).toBe("[object Object]");
    expect(Object.hasOwn(message, "role")).toBe(true);
    expect(isPlain({ ...message })).toBe(true);
    expect(settle([1, 2])).toEqual([1, 2]);
    expect(settle("text")).toBe("text");
  });

  it("settles finished messages, their usage and tool payloads, but not the live message's deltas", () => {
    const end = JSON.parse('{"type":"message_end","message":{"role":"assistant","content":[],"api":"openai-completions","model":"m","usage":{"input":1}}}');
    settleRecord(end);
    expect(isPlain(end.message)).toBe(false);
    expect(isPlain(end.message.usage)).toBe(false);
    const delta = JSON.parse('{"type":"message_update","usage":{"input":0},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"x"}}');
    settleRecord(delta);
    expect(isPlain(delta.assistantMessageEvent)).toBe(true);
    const tool = JSON.parse('{"type":"tool_execution_end","toolCallId":"c","toolName":"read","result":{"content":[]},"isError":false}');
    settleRecord(tool);
    expect(isPlain(tool.result)).toBe(false);
  });

  it("settles the messages of get_messages and get_entries answers", () => {
    const messages = JSON.parse('{"type":"response","command":"get_messages","success":true,"data":{"messages":[{"role":"user","content":"a","timestamp":1}]}}');
    settleRecord(messages);
    expect(isPlain(messages.data.messages[0])).toBe(false);
    const entries = JSON.parse(
      '{"type":"response","command":"get_entries","success":true,"data":{"leafId":"1","entries":[{"type":"message","id":"1","parentId":null,"timestamp":"t","message":{"role":"user","content":"a","timestamp":1}}]}}',
    );
    settleRecord(entries);
    expect(isPlain(entries.data.entries[0].message)).toBe(false);
  });

  it("shares the strings every message repeats", () => {
    const a = JSON.parse('{"type":"message_end","message":{"role":"assistant","content":[],"api":"openai-completions","model":"demo"}}');
    const b = JSON.parse('{"type":"message_end","message":{"role":"assistant","content":[],"api":"openai-completions","model":"demo"}}');
    settleRecord(a);
    settleRecord(b);
    expect(b.message.api).toBe("openai-completions");
    expect(b.message).toEqual(a.message);
  });
});
