import { describe, expect, it } from "vitest";
import { createSessionState } from "../src/lib/pi-state/session-state.ts";
import { applyDecodedLine, applyGetMessages, applyRecord, expirePending, noteCommandSent, reduceAll } from "../src/lib/pi-state/reduce-record.ts";
import { deferLiveText, flushLiveText, streamingToolArgs } from "../src/lib/pi-state/assistant-stream.ts";
import type { AssistantMessage } from "../src/lib/pi-types.ts";
import { compactionResult, contextEdit, errorAssistant, finalAssistant, response, retryEnd, retryStart, msgEnd, msgStart, pendingAssistant, simpleRun, systemPrompt, update, user } from "./records.ts";

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

  it("sends each message's deltas to its own blocks, also when a block or the message is replaced mid-stream", () => {
    const first = finalAssistant([{ type: "text", text: "one" }]);
    const state = reduceAll([
      msgStart(pendingAssistant()),
      update({ type: "text_delta", contentIndex: 0, delta: "on" }),
      msgEnd(first),
      msgStart(pendingAssistant()),
      update({ type: "text_delta", contentIndex: 0, delta: "tw" }),
      update({ type: "toolcall_start", contentIndex: 1, id: "t1", toolName: "read", partial: pendingAssistant() }),
      update({ type: "toolcall_end", contentIndex: 1, toolCall: { type: "toolCall", id: "t1", name: "read", arguments: { path: "a" } } }),
      update({ type: "text_delta", contentIndex: 0, delta: "o" }),
      update({ type: "text_delta", contentIndex: 2, delta: "after the call" }),
    ]);
    expect(state.messages[0]).toEqual(first);
    expect(lastAssistant(state.messages).content).toEqual([
      { type: "text", text: "two" },
      { type: "toolCall", id: "t1", name: "read", arguments: { path: "a" } },
      { type: "text", text: "after the call" },
    ]);
    // A "done" event swaps in pi's message; later deltas grow that one, not the swapped-out rebuild.
    const done = finalAssistant([{ type: "text", text: "two!" }]);
    applyRecord(state, update({ type: "done", reason: "stop", message: done }));
    applyRecord(state, update({ type: "text_delta", contentIndex: 0, delta: "?" }));
    expect(lastAssistant(state.messages).content).toEqual([{ type: "text", text: "two!?" }]);
  });

  it("builds a message from deltas when the replay began after message_start", () => {
    const state = reduceAll([update({ type: "text_delta", contentIndex: 0, delta: "mid-stream" })]);
    expect(lastAssistant(state.messages).content).toEqual([{ type: "text", text: "mid-stream" }]);
    expect(state.stream?.messageIndex).toBe(0);
  });
});

// The page writes a slice's deltas into its $state once (deferLiveText):
// every record is still reduced, and after the flush the state is what
// writing each delta would have made.
describe("deferred live text", () => {
  const deltas = (index: number, ...pieces: string[]) => pieces.map((delta) => update({ type: "text_delta", contentIndex: index, delta }));

  it("writes a batch of text and thinking deltas at the flush, as writing each would have", () => {
    const records = [
      msgStart(pendingAssistant()),
      update({ type: "thinking_start", contentIndex: 0 }),
      update({ type: "thinking_delta", contentIndex: 0, delta: "Let me " }),
      update({ type: "thinking_delta", contentIndex: 0, delta: "think" }),
      update({ type: "text_start", contentIndex: 1 }),
      ...deltas(1, "Hel", "lo", " there"),
    ];
    const deferred = createSessionState();
    deferLiveText(deferred);
    for (const record of records) applyRecord(deferred, record);
    expect(lastAssistant(deferred.messages).content).toEqual([
      { type: "thinking", thinking: "" },
      { type: "text", text: "" },
    ]);
    flushLiveText(deferred);
    expect(deferred.messages).toEqual(reduceAll(records).messages);
    // More deltas, another flush: the text goes on from where it was.
    for (const record of deltas(1, "!", "?")) applyRecord(deferred, record);
    flushLiveText(deferred);
    expect(lastAssistant(deferred.messages).content[1]).toEqual({ type: "text", text: "Hello there!?" });
  });

  it("text_end and message_end are written at once, and deltas left for a flush do not overwrite them", () => {
    const state = createSessionState();
    deferLiveText(state);
    for (const record of [msgStart(pendingAssistant()), update({ type: "text_start", contentIndex: 0 }), ...deltas(0, "Helo")]) applyRecord(state, record);
    applyRecord(state, update({ type: "text_end", contentIndex: 0, content: "Hello" }));
    expect(lastAssistant(state.messages).content).toEqual([{ type: "text", text: "Hello" }]);
    applyRecord(state, deltas(0, " again")[0]!);
    applyRecord(state, msgEnd(finalAssistant([{ type: "text", text: "Final" }])));
    flushLiveText(state);
    expect(lastAssistant(state.messages).content).toEqual([{ type: "text", text: "Final" }]);
  });

  it("a new message's start writes what the last one's deltas brought first", () => {
    const state = createSessionState();
    deferLiveText(state);
    for (const record of [msgStart(pendingAssistant()), ...deltas(0, "first")]) applyRecord(state, record);
    // A truncated stream: another answer starts without the first's end.
    for (const record of [msgStart(pendingAssistant()), ...deltas(0, "second")]) applyRecord(state, record);
    flushLiveText(state);
    const texts = state.messages.map((m) => (m as AssistantMessage).content);
    expect(texts).toEqual([[{ type: "text", text: "first" }], [{ type: "text", text: "second" }]]);
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

  it("takes pi's placeholder model (reported when none is configured) for no model", () => {
    const state = createSessionState();
    const placeholder = { id: "unknown", name: "unknown", api: "unknown", provider: "unknown", baseUrl: "", reasoning: false, input: [], contextWindow: 0, maxTokens: 0 };
    applyRecord(state, { id: "c:1", type: "response", command: "get_state", success: true, data: { ...stateData, model: placeholder } });
    expect(state.model).toBeNull();
    // A real model named "unknown" by some provider is still a model.
    applyRecord(state, { id: "c:2", type: "response", command: "get_state", success: true, data: { ...stateData, model: { ...placeholder, provider: "ollama" } } });
    expect(state.model).toMatchObject({ id: "unknown", provider: "ollama" });
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
    const state = reduceAll([msgStart(pendingAssistant()), update({ type: "text_delta", contentIndex: 0, delta: "live" })]);
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

describe("turns and the run", () => {
  it("tracks the turn in progress and counts low-level runs and settles", () => {
    const records = simpleRun("hi", "Hello");
    const mid = reduceAll(records.slice(0, 5));
    expect(mid.turn).toMatchObject({ index: 0 });
    expect(mid.run).toMatchObject({ agentRunning: true, agentRuns: 1, settledCount: 0 });
    const done = reduceAll(records);
    expect(done.turn).toBeNull();
    expect(done.run).toMatchObject({ agentRunning: false, agentRuns: 1, settledCount: 1, turns: 1, lastEndWillRetry: false });
  });
});

describe("messages of every role", () => {
  it("keeps custom, compactionSummary, branchSummary and bashExecution messages in order", () => {
    const custom = { role: "custom", customType: "note", content: "hi", display: true, timestamp: 1 };
    const compaction = { role: "compactionSummary", summary: "s", tokensBefore: 10, timestamp: 2 };
    const branch = { role: "branchSummary", summary: "b", fromId: "x", timestamp: 3 };
    const bash = { role: "bashExecution", command: "ls", output: "a\n", exitCode: 0, cancelled: false, truncated: false, timestamp: 4 };
    const state = reduceAll([custom, compaction, branch, bash].flatMap((m) => [msgStart(m), msgEnd(m)]));
    expect(state.messages).toEqual([custom, compaction, branch, bash]);
    expect(state.openMessageIndex).toBeNull();
  });
});

describe("auto-retry", () => {
  it("drops the failed message pi removes from its context, keeping it on a marker", () => {
    const failed = errorAssistant("529 overloaded");
    const state = reduceAll([
      { type: "agent_start" },
      msgStart(user("q")),
      msgEnd(user("q")),
      msgStart(failed),
      msgEnd(failed),
      { type: "agent_end", messages: [], willRetry: true },
      retryStart(1, 2000),
      contextEdit("e1"),
    ]);
    expect(state.messages.map((m) => m.role)).toEqual(["user"]);
    expect(state.status).toBe("streaming");
    expect(state.run.lastEndWillRetry).toBe(true);
    expect(state.retry).toMatchObject({ attempt: 1, maxAttempts: 3, delayMs: 2000, phase: "waiting" });
    expect(typeof state.retry!.at).toBe("number");
    expect(state.markers).toEqual([expect.objectContaining({ kind: "retry", beforeIndex: 1, attempt: 1, failedMessage: failed })]);
    expect(state.entries).toHaveLength(1);

    applyRecord(state, { type: "agent_start" });
    expect(state.retry!.phase).toBe("retrying");
    for (const r of simpleRun("", "Recovered").slice(6, 12)) applyRecord(state, r);
    applyRecord(state, retryEnd(1, true));
    expect(state.retry).toBeNull();
    expect(state.markers.at(-1)).toMatchObject({ kind: "retryEnd", success: true, beforeIndex: 2 });
    expect(state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("ends a retry cancelled with abort_retry at agent_settled, with no closing agent_end", () => {
    const state = reduceAll([
      { type: "agent_start" },
      msgStart(errorAssistant("529")),
      msgEnd(errorAssistant("529")),
      { type: "agent_end", messages: [], willRetry: true },
      retryStart(1, 5000),
      retryEnd(1, false, "Retry cancelled"),
      { type: "agent_settled" },
    ]);
    expect(state.status).toBe("idle");
    expect(state.retry).toBeNull();
    expect(state.markers.at(-1)).toMatchObject({ kind: "retryEnd", success: false, finalError: "Retry cancelled" });
    expect(state.messages).toEqual([]);
  });

  it("keeps the last failure when retries are exhausted (no auto_retry_start)", () => {
    const state = reduceAll([{ type: "agent_start" }, msgStart(errorAssistant("500")), msgEnd(errorAssistant("500")), retryEnd(3, false, "500"), { type: "agent_settled" }]);
    expect(state.messages).toEqual([errorAssistant("500")]);
  });
});

describe("compaction", () => {
  it("tracks a successful compaction, marks where it happened and asks for get_messages", () => {
    const state = reduceAll([...simpleRun("hi", "Hello"), { type: "compaction_start", reason: "manual" }]);
    expect(state.compaction).toMatchObject({ active: true, reason: "manual", outcome: null });
    expect(state.isCompacting).toBe(true);
    applyRecord(state, { type: "compaction_end", reason: "manual", result: compactionResult(), aborted: false, willRetry: false });
    expect(state.compaction).toMatchObject({ active: false, outcome: "done", summary: "## Goal\nsummary", tokensBefore: 975, estimatedTokensAfter: 300 });
    expect(state.isCompacting).toBe(false);
    expect(state.markers).toEqual([expect.objectContaining({ kind: "compaction", reason: "manual", outcome: "done", beforeIndex: 2 })]);
    expect(state.needsMessages).toBe(true);

    noteCommandSent(state, "m1", "get_messages");
    const summary = { role: "compactionSummary", summary: "## Goal\nsummary", tokensBefore: 975, timestamp: 5 };
    const kept = finalAssistant([{ type: "text", text: "Hello" }]);
    applyRecord(state, response("get_messages", "m1", { messages: [systemPrompt, summary, kept] }));
    expect(state.messages).toEqual([summary, kept]);
    expect(state.needsMessages).toBe(false);
    expect(state.markers[0]!.beforeIndex).toBe(1);
  });

  it("tells an aborted compaction from a failed one, and keeps overflow's willRetry", () => {
    const aborted = reduceAll([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", reason: "threshold", aborted: true, willRetry: false },
    ]);
    expect(aborted.compaction).toMatchObject({ outcome: "aborted", errorMessage: null, reason: "threshold" });
    expect(aborted.needsMessages).toBe(false);
    const failed = reduceAll([
      { type: "compaction_start", reason: "overflow" },
      { type: "compaction_end", reason: "overflow", aborted: false, willRetry: false, errorMessage: "no model" },
    ]);
    expect(failed.compaction).toMatchObject({ outcome: "failed", errorMessage: "no model" });
    expect(failed.markers[0]).toMatchObject({ kind: "compaction", outcome: "failed", errorMessage: "no model" });
    const overflow = reduceAll([
      { type: "compaction_start", reason: "overflow" },
      { type: "compaction_end", reason: "overflow", result: compactionResult(), aborted: false, willRetry: true },
    ]);
    expect(overflow.compaction).toMatchObject({ outcome: "done", willRetry: true });
  });

  it("follows summarization retries (scheduled, attempt, finished)", () => {
    const state = reduceAll([
      { type: "compaction_start", reason: "threshold" },
      { type: "summarization_retry_scheduled", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "terminated" },
    ]);
    expect(state.summarizationRetry).toMatchObject({ attempt: 1, delayMs: 2000, errorMessage: "terminated", source: null });
    expect(state.markers.at(-1)).toMatchObject({ kind: "summarizationRetry", attempt: 1 });
    applyRecord(state, { type: "summarization_retry_attempt_start", source: "compaction", reason: "threshold" });
    expect(state.summarizationRetry).toMatchObject({ source: "compaction", reason: "threshold" });
    expect(state.summarizationRetry!.attemptStartedAt).not.toBeNull();
    applyRecord(state, { type: "summarization_retry_finished" });
    expect(state.summarizationRetry).toBeNull();

    applyRecord(state, { type: "summarization_retry_attempt_start", source: "branchSummary" });
    expect(state.summarizationRetry).toMatchObject({ source: "branchSummary", reason: null });
  });
});

describe("RPC bash", () => {
  it("streams output by command id, then adds a provisional bashExecution and asks for get_messages", () => {
    const state = createSessionState();
    noteCommandSent(state, "b1", "bash", 0, { type: "bash", command: "echo hi", excludeFromContext: true });
    applyRecord(state, { type: "bash_execution_update", id: "b1", delta: "h" });
    applyRecord(state, { type: "bash_execution_update", id: "b1", delta: "i\n" });
    expect(state.bashRuns.b1).toMatchObject({ command: "echo hi", output: "hi\n", status: "running" });
    applyRecord(state, response("bash", "b1", { output: "hi\n", exitCode: 0, cancelled: false, truncated: false }));
    expect(state.bashRuns.b1).toMatchObject({ status: "done", exitCode: 0 });
    expect(state.messages).toEqual([expect.objectContaining({ role: "bashExecution", command: "echo hi", output: "hi\n", exitCode: 0, excludeFromContext: true })]);
    expect(state.needsMessages).toBe(true);
    expect(state.pending).toEqual({});
  });

  it("does not add the message while a run streams (pi holds it back)", () => {
    const state = reduceAll([{ type: "agent_start" }, response("bash", "other", { output: "", exitCode: 0, cancelled: false, truncated: false })]);
    expect(state.messages).toEqual([]);
    expect(state.needsMessages).toBe(true);
  });
});

describe("pending commands", () => {
  it("times out unanswered commands, marks slow ones overdue, and still takes a late answer", () => {
    const state = createSessionState();
    noteCommandSent(state, "s1", "get_state", 1000);
    noteCommandSent(state, "p1", "prompt", 1000);
    noteCommandSent(state, "c1", "compact", 1000);
    noteCommandSent(state, "n1", "get_messages", 9000);
    expect(expirePending(state, 11_000, 10_000)).toBe(1);
    expect(Object.keys(state.pending).sort()).toEqual(["c1", "n1", "p1"]);
    expect(state.pending.p1!.overdue).toBe(true);
    expect(state.pending.n1!.overdue).toBeUndefined();
    expect(state.timedOut).toEqual([{ id: "s1", type: "get_state", sentAt: 1000, expiredAt: 11_000 }]);

    applyRecord(state, response("get_state", "s1", undefined, false, "late and wrong"));
    expect(state.timedOut).toEqual([]);
    expect(state.failures.at(-1)).toMatchObject({ id: "s1", error: "late and wrong" });
    applyRecord(state, response("prompt", "p1"));
    expect(state.pending.p1).toBeUndefined();
  });

  it("keeps the texts clear_queue returns", () => {
    const state = reduceAll([{ type: "queue_update", steering: ["a"], followUp: ["b"] }, response("clear_queue", "q", { steering: ["a"], followUp: ["b"] })]);
    expect(state.queue).toEqual({ steering: [], followUp: [] });
    expect(state.clearedQueue).toEqual({ steering: ["a"], followUp: ["b"] });
  });
});

describe("session events", () => {
  it("keeps extension errors, appended entries, session name and thinking level", () => {
    const state = reduceAll([
      { type: "extension_error", extensionPath: "/x.ts", event: "tool_call", error: "boom" },
      { type: "entry_appended", entry: { type: "custom", id: "e", parentId: null, timestamp: "t", customType: "k" } },
      { type: "session_info_changed", name: "work" },
      { type: "thinking_level_changed", level: "high" },
    ]);
    expect(state.extensionErrors).toEqual([expect.objectContaining({ extensionPath: "/x.ts", event: "tool_call", error: "boom" })]);
    expect(state.entries).toHaveLength(1);
    expect(state.sessionName).toBe("work");
    expect(state.thinkingLevel).toBe("high");
    applyRecord(state, { type: "session_info_changed" });
    expect(state.sessionName).toBeNull();
  });

  it("records lines that are not JSON", () => {
    const state = createSessionState();
    applyDecodedLine(state, { kind: "invalid", raw: "oops", error: "Unexpected token" } as never);
    expect(state.invalidLines).toEqual([expect.objectContaining({ raw: "oops" })]);
  });
});
