import { describe, expect, it } from "vitest";
import { createSessionState } from "../src/lib/session/session-state.ts";
import {
  applyGetMessages,
  applyRecord,
  noteCommandSent,
  reduceAll,
} from "../src/lib/session/reduce-record.ts";
import { streamingToolArgs } from "../src/lib/session/assistant-stream.ts";
import type { AssistantMessage } from "../src/lib/pi-types.ts";
import {
  finalAssistant,
  msgEnd,
  msgStart,
  pendingAssistant,
  simpleRun,
  systemPrompt,
  update,
  user,
} from "./records.ts";

const lastAssistant = (messages: unknown[]) => messages.at(-1) as AssistantMessage;

describe("text streaming", () => {
  it("rebuilds text from deltas and ends idle after agent_settled", () => {
    const state = reduceAll(simpleRun("hi", "Hello there"));
    expect(state.status).toBe("idle");
    expect(state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(lastAssistant(state.messages).content).toEqual([{ type: "text", text: "Hello there" }]);
    expect(state.stream).toBeNull();
  });

  it("shows the live text while streaming", () => {
    const records = simpleRun("hi", "Hello there");
    const cut = records.findIndex((r) => (r as { type: string }).type === "message_end" && (r as any).message.role === "assistant");
    const state = reduceAll(records.slice(0, cut - 1)); // before text_end
    expect(state.status).toBe("streaming");
    expect(state.stream).not.toBeNull();
    expect(lastAssistant(state.messages).content).toEqual([{ type: "text", text: "Hello there" }]);
    expect(lastAssistant(state.messages).stopReason).toBe("pending");
  });

  it("keeps two interleaved blocks apart by contentIndex", () => {
    const state = reduceAll([
      msgStart(pendingAssistant()),
      update({ type: "text_start", contentIndex: 0 }),
      update({ type: "text_start", contentIndex: 1 }),
      update({ type: "text_delta", contentIndex: 0, delta: "A1" }),
      update({ type: "text_delta", contentIndex: 1, delta: "B1" }),
      update({ type: "text_delta", contentIndex: 0, delta: "A2" }),
      update({ type: "text_delta", contentIndex: 1, delta: "B2" }),
    ]);
    expect(lastAssistant(state.messages).content).toEqual([
      { type: "text", text: "A1A2" },
      { type: "text", text: "B1B2" },
    ]);
  });

  it("lets text_end replace what the deltas built", () => {
    const state = reduceAll([
      msgStart(pendingAssistant()),
      update({ type: "text_start", contentIndex: 0 }),
      update({ type: "text_delta", contentIndex: 0, delta: "Helo" }),
      update({ type: "text_end", contentIndex: 0, content: "Hello" }),
    ]);
    expect(lastAssistant(state.messages).content).toEqual([{ type: "text", text: "Hello" }]);
  });

  it("lets message_end replace the whole rebuilt message", () => {
    const final = finalAssistant([{ type: "text", text: "authoritative" }]);
    const state = reduceAll([
      msgStart(pendingAssistant()),
      update({ type: "text_delta", contentIndex: 0, delta: "wrong" }),
      update({ type: "text_delta", contentIndex: 1, delta: "extra" }),
      msgEnd(final),
    ]);
    expect(state.messages).toEqual([final]);
    expect(state.stream).toBeNull();
  });

  it("builds a message from deltas when the replay began after message_start", () => {
    const state = reduceAll([update({ type: "text_delta", contentIndex: 0, delta: "mid-stream" })]);
    expect(lastAssistant(state.messages).content).toEqual([{ type: "text", text: "mid-stream" }]);
    expect(state.stream?.messageIndex).toBe(0);
  });
});

describe("thinking and tool calls", () => {
  it("streams thinking next to text", () => {
    const state = reduceAll([
      msgStart(pendingAssistant()),
      update({ type: "thinking_start", contentIndex: 0 }),
      update({ type: "thinking_delta", contentIndex: 0, delta: "Let me " }),
      update({ type: "thinking_delta", contentIndex: 0, delta: "think" }),
      update({ type: "thinking_end", contentIndex: 0, content: "Let me think." }),
      update({ type: "text_start", contentIndex: 1 }),
      update({ type: "text_delta", contentIndex: 1, delta: "Done" }),
    ]);
    expect(lastAssistant(state.messages).content).toEqual([
      { type: "thinking", thinking: "Let me think." },
      { type: "text", text: "Done" },
    ]);
  });

  it("accumulates tool call argument deltas and takes toolcall_end as final", () => {
    const state = reduceAll([
      msgStart(pendingAssistant()),
      update({ type: "toolcall_start", contentIndex: 0, id: "call_1", toolName: "read" }),
      update({ type: "toolcall_delta", contentIndex: 0, delta: '{"path":' }),
      update({ type: "toolcall_delta", contentIndex: 0, delta: '"src/x.ts"}' }),
    ]);
    expect(lastAssistant(state.messages).content[0]).toMatchObject({ type: "toolCall", id: "call_1", name: "read" });
    expect(streamingToolArgs(state, 0)).toBe('{"path":"src/x.ts"}');

    const toolCall = { type: "toolCall", id: "call_1", name: "read", arguments: { path: "src/x.ts" } };
    applyRecord(state, update({ type: "toolcall_end", contentIndex: 0, toolCall }));
    expect(lastAssistant(state.messages).content[0]).toEqual(toolCall);
    expect(streamingToolArgs(state, 0)).toBeUndefined();
  });

  it("tracks tool executions by toolCallId, partial results replacing each other", () => {
    const state = reduceAll([
      { type: "tool_execution_start", toolCallId: "c1", toolName: "bash", args: { command: "ls" } },
      { type: "tool_execution_start", toolCallId: "c2", toolName: "read", args: { path: "a" } },
      { type: "tool_execution_update", toolCallId: "c1", toolName: "bash", args: {}, partialResult: { content: [{ type: "text", text: "a" }] } },
      { type: "tool_execution_update", toolCallId: "c1", toolName: "bash", args: {}, partialResult: { content: [{ type: "text", text: "a\nb" }] } },
      { type: "tool_execution_end", toolCallId: "c2", toolName: "read", result: { content: [] }, isError: true },
    ]);
    expect(state.tools.c1).toMatchObject({ status: "running", partialResult: { content: [{ type: "text", text: "a\nb" }] } });
    expect(state.tools.c2?.status).toBe("failed");
    applyRecord(state, { type: "tool_execution_end", toolCallId: "c1", toolName: "bash", result: { content: [{ type: "text", text: "a\nb\nc" }] }, isError: false });
    expect(state.tools.c1).toMatchObject({ status: "done", result: { content: [{ type: "text", text: "a\nb\nc" }] } });
  });

  it("indexes tool results by toolCallId", () => {
    const result = { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [], isError: false, timestamp: 1 };
    const state = reduceAll([msgStart(user("q")), msgEnd(user("q")), msgStart(result), msgEnd(result)]);
    expect(state.toolResultIndex.c1).toBe(1);
  });
});

describe("run lifecycle", () => {
  it("handles an aborted stream that never sent text_end", () => {
    const aborted = { ...finalAssistant([{ type: "text", text: "partial" }], "aborted"), errorMessage: "Request was aborted" };
    const state = reduceAll([
      { type: "agent_start" },
      msgStart(pendingAssistant()),
      update({ type: "text_start", contentIndex: 0 }),
      update({ type: "text_delta", contentIndex: 0, delta: "partial" }),
      { type: "tool_execution_start", toolCallId: "x", toolName: "bash", args: {} },
      msgEnd(aborted),
      { type: "agent_end", messages: [], willRetry: false },
      { type: "agent_settled" },
    ]);
    expect(state.messages).toEqual([aborted]);
    expect(state.stream).toBeNull();
    expect(state.status).toBe("idle");
    expect(state.tools.x?.status).toBe("failed");
  });

  it("stays streaming after agent_end until agent_settled", () => {
    const state = createSessionState();
    applyRecord(state, { type: "agent_start" });
    applyRecord(state, { type: "agent_end", messages: [], willRetry: true });
    expect(state.status).toBe("streaming");
    applyRecord(state, { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "529" });
    expect(state.retry?.attempt).toBe(1);
    applyRecord(state, { type: "agent_start" });
    applyRecord(state, { type: "auto_retry_end", success: true, attempt: 2 });
    applyRecord(state, { type: "agent_end", messages: [], willRetry: false });
    expect(state.status).toBe("streaming");
    applyRecord(state, { type: "agent_settled" });
    expect(state.status).toBe("idle");
    expect(state.retry).toBeNull();
  });

  it("keeps queue, thinking level and session name from events", () => {
    const state = reduceAll([
      { type: "queue_update", steering: ["a"], followUp: ["b", "c"] },
      { type: "thinking_level_changed", level: "high" },
      { type: "session_info_changed", name: "demo" },
    ]);
    expect(state.queue).toEqual({ steering: ["a"], followUp: ["b", "c"] });
    expect(state.thinkingLevel).toBe("high");
    expect(state.sessionName).toBe("demo");
  });
});

describe("system prompt", () => {
  it("is kept apart from the conversation", () => {
    const state = reduceAll(simpleRun("q", "a"));
    expect(state.systemPrompt).toEqual(systemPrompt);
    expect(state.messages.some((m) => (m.role as string) === "system")).toBe(false);
  });
});

describe("responses", () => {
  const model = { id: "scripted", name: "Scripted demo", provider: "pier-demo", api: "openai-completions" };
  const stateData = {
    model,
    thinkingLevel: "medium",
    isStreaming: false,
    isCompacting: false,
    steeringMode: "one-at-a-time",
    followUpMode: "one-at-a-time",
    sessionId: "s-1",
    autoCompactionEnabled: true,
    messageCount: 0,
    pendingMessageCount: 0,
  };

  it("correlates responses by id in any order", () => {
    const state = createSessionState();
    noteCommandSent(state, "c:1", "prompt");
    noteCommandSent(state, "c:2", "get_state");
    noteCommandSent(state, "c:3", "set_model");
    applyRecord(state, { id: "c:2", type: "response", command: "get_state", success: true, data: stateData });
    applyRecord(state, { id: "c:3", type: "response", command: "set_model", success: false, error: "Model not found: x/y" });
    expect(Object.keys(state.pending)).toEqual(["c:1"]);
    expect(state.model).toEqual(model);
    expect(state.sessionId).toBe("s-1");
    expect(state.thinkingLevel).toBe("medium");
    expect(state.failures).toMatchObject([{ id: "c:3", command: "set_model", error: "Model not found: x/y" }]);
    applyRecord(state, { id: "c:1", type: "response", command: "prompt", success: true });
    expect(state.pending).toEqual({});
  });

  it("ignores other browsers' failures but applies their state answers", () => {
    const state = createSessionState();
    applyRecord(state, { id: "other:1", type: "response", command: "prompt", success: false, error: "busy" });
    applyRecord(state, { id: "other:2", type: "response", command: "get_state", success: true, data: { ...stateData, isStreaming: true } });
    expect(state.failures).toEqual([]);
    expect(state.status).toBe("streaming");
  });

  it("records pi's id-less parse failure", () => {
    const state = createSessionState();
    applyRecord(state, { type: "response", command: "parse", success: false, error: "Failed to parse command: Unexpected token" });
    expect(state.failures).toMatchObject([{ id: null, command: "parse" }]);
  });

  it("rebuilds from get_messages, keeping the message still streaming", () => {
    const state = reduceAll([
      msgStart(pendingAssistant()),
      update({ type: "text_delta", contentIndex: 0, delta: "live" }),
    ]);
    noteCommandSent(state, "c:9", "get_messages");
    const history = [user("q1"), finalAssistant([{ type: "text", text: "a1" }]), user("q2")];
    // pi 0.87.1 answers get_messages with the system message first.
    applyRecord(state, { id: "c:9", type: "response", command: "get_messages", success: true, data: { messages: [systemPrompt, ...history] } });
    expect(state.systemPrompt).toEqual(systemPrompt);
    expect(state.messages.length).toBe(4);
    expect(state.messages.slice(0, 3)).toEqual(history);
    expect(state.stream?.messageIndex).toBe(3);
    applyRecord(state, update({ type: "text_delta", contentIndex: 0, delta: "!" }));
    expect(lastAssistant(state.messages).content).toEqual([{ type: "text", text: "live!" }]);
    applyGetMessages(state, []);
    expect(state.messages.length).toBe(1);
  });

  it("ignores records that are not objects", () => {
    const state = reduceAll([null, 3, "x", [1], { type: "something_new" }]);
    expect(state).toEqual(createSessionState());
  });
});
