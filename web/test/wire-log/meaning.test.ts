import { describe, expect, it } from "vitest";
import { clearEffects, createEffectIndex, noteEffect, recordsFor, targetKey } from "../../src/lib/wire-log/effect-index.ts";
import { describeEffect, firstLine, grouped, type Effect } from "../../src/lib/wire-log/meaning.ts";
import { applyRecord, noteCommandSent } from "../../src/lib/pi-state/reduce-record.ts";
import { createSessionState, type SessionState } from "../../src/lib/pi-state/session-state.ts";
import { fixtureLines, fixtureNames } from "./support.ts";

type Rec = Record<string, any>;

/** Reduce a fixture record by record, describing each with the state after it. */
function describeAll(name: string): { record: Rec; effect: Effect; targetExists: boolean }[] {
  const state = createSessionState();
  const out: { record: Rec; effect: Effect; targetExists: boolean }[] = [];
  for (const line of fixtureLines(name)) {
    const record = JSON.parse(line) as Rec;
    if (record.type === "response" && record.command === "get_messages" && typeof record.id === "string") noteCommandSent(state, record.id, "get_messages", 0);
    applyRecord(state, record);
    const effect = describeEffect(record, state);
    // Checked now: the state goes on changing.
    const target = effect.target;
    let targetExists = true;
    if (target?.kind === "message") {
      const message = state.messages[target.index] as { content?: unknown } | undefined;
      targetExists = message !== undefined && (target.block === undefined || (Array.isArray(message.content) && target.block < message.content.length));
    } else if (target?.kind === "tool") targetExists = state.tools[target.toolCallId] !== undefined;
    else if (target?.kind === "marker") targetExists = state.markers.some((m) => m.seq === target.seq);
    out.push({ record, effect, targetExists });
  }
  return out;
}

const find = (all: ReturnType<typeof describeAll>, test: (r: Rec) => boolean) => all.filter((x) => test(x.record));

describe("describeEffect on captured transcripts", () => {
  it.each(fixtureNames())("describes every record of %s, targeting what exists", (name) => {
    for (const { record, effect, targetExists } of describeAll(name)) {
      expect(effect.text.length, record.type).toBeGreaterThan(5);
      expect(effect.text).not.toMatch(/undefined|NaN|\[object/);
      expect(effect.text).not.toMatch(/Pier does not know|could not describe/);
      expect(targetExists, `${record.type}: ${effect.text}`).toBe(true);
    }
  });

  it("says what a text delta appended, and where", () => {
    const all = describeAll("text-with-thinking");
    const [first] = find(all, (r) => r.assistantMessageEvent?.type === "text_delta");
    const delta = first!.record.assistantMessageEvent.delta as string;
    expect(first!.effect.text).toMatch(new RegExp(`^Appended ${delta.length} characters? to the answer being written \\(message \\d+, block \\d+\\)\\.$`));
    expect(first!.effect.target).toEqual({ kind: "message", index: expect.any(Number), block: first!.record.assistantMessageEvent.contentIndex });
    const [thinking] = find(all, (r) => r.assistantMessageEvent?.type === "thinking_delta");
    expect(thinking!.effect.text).toMatch(/to the thinking \(message \d+, block 1\)/);
  });

  it("points a streaming step at the live message (the reducer's stream cursor)", () => {
    const state = createSessionState();
    applyRecord(state, { type: "message_start", message: { role: "user", content: "hi", timestamp: 0 } });
    applyRecord(state, { type: "message_end", message: { role: "user", content: "hi", timestamp: 0 } });
    applyRecord(state, { type: "message_start", message: { role: "assistant", content: [], stopReason: "pending" } });
    const record = { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 2, delta: "Hello, world" } };
    applyRecord(state, record);
    expect(describeEffect(record, state)).toEqual({
      text: "Appended 12 characters to the answer being written (message 2, block 3).",
      target: { kind: "message", index: 1, block: 2 },
    });
  });

  it("names tool calls being written and finished", () => {
    const all = describeAll("file-tools");
    const [start] = find(all, (r) => r.assistantMessageEvent?.type === "toolcall_start");
    expect(start!.effect.text).toMatch(/^pi started writing a call to write \(message \d+, block \d+\)\.$/);
    const [delta] = find(all, (r) => r.assistantMessageEvent?.type === "toolcall_delta");
    expect(delta!.effect.text).toMatch(/of arguments for write/);
    const ends = find(all, (r) => r.type === "tool_execution_end");
    expect(ends[0]!.effect).toEqual({ text: expect.stringMatching(/^Tool write \(call_1_0\) finished\.$/), target: { kind: "tool", toolCallId: "call_1_0" } });
    const failed = ends.find((x) => x.record.isError)!;
    expect(failed.effect.text).toMatch(/^Tool edit \(call_2_0\) failed: Could not find the exact text/);
  });

  it("reads an exit code and a duration when pi gives them (pi 1.6 nested calls)", () => {
    const all = describeAll("pi-1.6.0/nested-tools");
    const nestedBash = find(all, (r) => r.type === "tool_execution_end" && r.toolName === "bash")[0]!;
    expect(nestedBash.effect.text).toMatch(/^Tool bash \(call_1_0\/1, called by nested_probe\) finished in 318 ms, exit 0\.$/);
    const start = find(all, (r) => r.type === "tool_execution_start" && r.parentToolCallId)[0]!;
    expect(start.effect.target).toEqual({ kind: "tool", toolCallId: "call_1_0/1" });
  });

  it("summarises a final assistant message", () => {
    const all = describeAll("bash-tool-streamed");
    const end = find(all, (r) => r.type === "message_end" && r.message.role === "assistant")[0]!;
    expect(end.effect.text).toMatch(/^Message \d+ is final: \d+ blocks?, [\d,]+ tokens, stop: toolUse\.$/);
    expect(end.effect.target).toEqual({ kind: "message", index: expect.any(Number) });
    const result = find(all, (r) => r.type === "message_end" && r.message.role === "toolResult")[0]!;
    expect(result.effect.text).toMatch(/is final: the result of bash\./);
  });

  it("explains the run's end, with 1.6's aborted flag", () => {
    const settled = find(describeAll("pi-1.6.0/handled-and-aborted"), (r) => r.type === "agent_settled");
    expect(settled[0]!.effect.text).toBe("The run is over: pi will not continue on its own. It was aborted.");
    const old = find(describeAll("text-with-thinking"), (r) => r.type === "agent_settled");
    expect(old[0]!.effect.text).toBe("The run is over: pi will not continue on its own.");
  });

  it("explains prompt responses by disposition", () => {
    const all = describeAll("pi-1.6.0/handled-and-aborted");
    const prompts = find(all, (r) => r.type === "response" && r.command === "prompt").map((x) => x.effect.text);
    expect(prompts).toContain("An extension handled the prompt: no run starts for it.");
    expect(prompts).toContain("pi accepted the prompt; a run starts.");
    const steers = find(all, (r) => r.type === "response" && r.command === "steer").map((x) => x.effect.text);
    expect(steers).toEqual(["An extension handled the steering message: nothing was queued.", "pi queued the steering message."]);
    const old = describeAll("steer-follow-up-clear-queue");
    expect(find(old, (r) => r.command === "prompt")[0]!.effect.text).toBe("pi accepted the prompt; a run starts.");
    expect(find(old, (r) => r.command === "clear_queue")[0]!.effect.text).toBe("pi cleared the queue and returned 1 steering and 1 follow-up texts.");
  });

  it("counts the queue", () => {
    const all = describeAll("steer-follow-up-clear-queue");
    expect(find(all, (r) => r.type === "queue_update").map((x) => x.effect.text)).toContain("2 messages queued (1 steering, 1 follow-up).");
  });

  it("explains retries and compaction, pointing at their markers", () => {
    const all = describeAll("auto-retry");
    const [retry] = find(all, (r) => r.type === "auto_retry_start");
    expect(retry!.effect.text).toMatch(/^The model call failed \(529: .*\); pi retries in 20 ms \(attempt 1 of 3\)\.$/);
    expect(retry!.effect.target).toEqual({ kind: "marker", seq: expect.any(Number) });
    const [end] = find(all, (r) => r.type === "auto_retry_end");
    expect(end!.effect.text).toBe("Retrying worked on attempt 3.");
    const [edit] = find(all, (r) => r.type === "entry_appended");
    expect(edit!.effect.text).toMatch(/removed a message from the model's context/);
    const compaction = find(describeAll("manual-compaction"), (r) => r.type === "compaction_end")[0]!;
    expect(compaction.effect.text).toMatch(/^Compaction done: [\d,]+ tokens → about [\d,]+\./);
    expect(compaction.effect.target).toEqual({ kind: "marker", seq: expect.any(Number) });
  });

  it("describes extension UI requests", () => {
    const state = createSessionState();
    expect(describeEffect({ type: "extension_ui_request", id: "1", method: "select", title: "Allow rm -rf?", options: ["Allow", "Block", "Ask"] }, state).text).toBe(
      "An extension asks: Allow rm -rf? (select, 3 options).",
    );
    expect(describeEffect({ type: "extension_ui_request", id: "1", method: "notify", message: "done\nmore" }, state).text).toBe("An extension says: done…");
    expect(describeEffect({ type: "extension_ui_request", id: "1", method: "setStatus", statusKey: "k" }, state).text).toBe('An extension cleared its status "k".');
  });

  it("says something neutral about anything unknown, and never throws", () => {
    const state = createSessionState();
    expect(describeEffect({ type: "warp_drive" }, state).text).toBe('A "warp_drive" record, which Pier does not know: nothing changed.');
    const junk: unknown[] = [
      undefined,
      null,
      7,
      "text",
      [],
      {},
      { type: 5 },
      { type: "message_update" },
      { type: "message_update", assistantMessageEvent: 5 },
      { type: "message_update", assistantMessageEvent: { type: "text_delta", delta: 5, contentIndex: "x" } },
      { type: "message_end", message: "x" },
      { type: "tool_execution_end", result: { content: "nope" }, isError: true },
      { type: "response", command: "bash", success: true, data: [] },
      { type: "response", command: "get_state", success: true, data: { model: 5 } },
      { type: "queue_update", steering: "x" },
      { type: "auto_retry_start" },
      { type: "entry_appended", entry: null },
      { type: "extension_ui_request", method: "select", options: "x" },
    ];
    const broken = { ...createSessionState(), messages: undefined, stream: { messageIndex: 99, toolArgsText: {} }, tools: null, markers: null } as unknown as SessionState;
    for (const value of junk) {
      for (const s of [state, broken]) {
        const effect = describeEffect(value, s);
        expect(typeof effect.text).toBe("string");
        expect(effect.text.length).toBeGreaterThan(0);
      }
    }
  });
});

describe("wording helpers", () => {
  it("groups thousands and cuts long first lines", () => {
    expect(grouped(0)).toBe("0");
    expect(grouped(999)).toBe("999");
    expect(grouped(1240)).toBe("1,240");
    expect(grouped(1234567)).toBe("1,234,567");
    expect(grouped(-20000)).toBe("-20,000");
    expect(firstLine("short")).toBe("short");
    expect(firstLine("a\nb")).toBe("a…");
    expect(firstLine("x".repeat(100), 10)).toBe(`${"x".repeat(9)}…`);
  });
});

describe("from a transcript element back to its records (effect-index)", () => {
  it("remembers the first and last record that changed each message, block and tool", () => {
    const index = createEffectIndex();
    const state = createSessionState();
    const seqs: { seq: number; record: Rec }[] = [];
    fixtureLines("file-tools").forEach((line, i) => {
      const record = JSON.parse(line) as Rec;
      applyRecord(state, record);
      noteEffect(index, i + 1, describeEffect(record, state).target);
      seqs.push({ seq: i + 1, record });
    });
    const toolId = seqs.find((x) => x.record.type === "tool_execution_start")!.record.toolCallId as string;
    const tool = recordsFor(index, { kind: "tool", toolCallId: toolId })!;
    expect(seqs[tool.firstSeq - 1]!.record.type).toBe("tool_execution_start");
    expect(seqs[tool.lastSeq - 1]!.record.type).toBe("tool_execution_end");
    const firstAssistant = seqs.find((x) => x.record.type === "message_start" && x.record.message.role === "assistant")!;
    const message = [...index.spans.values()].find((s) => s.firstSeq === firstAssistant.seq && /^message:\d+$/.test(s.key))!;
    expect(seqs[message.lastSeq - 1]!.record.type).toBe("message_end");
    expect(message.count).toBeGreaterThan(2);
    expect(recordsFor(index, { kind: "message", index: Number(message.key.split(":")[1]), block: 0 })!.count).toBeLessThan(message.count);
  });

  it("forgets the least recently touched targets beyond its bound", () => {
    const index = createEffectIndex(3);
    for (let i = 0; i < 10; i++) noteEffect(index, i, { kind: "tool", toolCallId: `t${i}` });
    noteEffect(index, 10, { kind: "tool", toolCallId: "t7" });
    noteEffect(index, 11, { kind: "tool", toolCallId: "t10" });
    expect([...index.spans.keys()]).toEqual(["tool:t9", "tool:t7", "tool:t10"]);
    expect(targetKey({ kind: "message", index: 7, block: 2 })).toBe("message:7:2");
    clearEffects(index);
    expect(index.spans.size).toBe(0);
  });
});
