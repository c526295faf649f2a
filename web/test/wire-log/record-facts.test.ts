// The words beside and under a record: badges in the list, the pair and run
// sentences in the details, where a transcript target is shown.
import { describe, expect, it } from "vitest";
import { applyPairing, createPairing, pairOf, pairByKey, runOf } from "../../src/lib/wire-log/pairing.ts";
import { docsPlace, formatLatency, recordBadges } from "../../src/lib/wire-log/record-badges.ts";
import { pairStory, runStory } from "../../src/lib/wire-log/record-story.ts";
import { targetWords } from "../../src/lib/wire-log/target-words.ts";
import { loadInspectorOpen, loadInspectorTab } from "../../src/lib/inspector/inspector-prefs.ts";
import { rowOfTarget, shownTarget } from "../../src/lib/transcript/reveal-target.ts";
import { transcriptRows } from "../../src/lib/transcript/transcript-rows.ts";
import type { ConversationMessage } from "../../src/lib/pi-types.ts";
import { appendLog, createRecordLog, type LogSender } from "../../src/lib/pi-state/record-log.ts";
import type { WireEntry } from "../../src/lib/wire-log/wire-entry.ts";

/** Feeds log entries and the pairing model together, as the inspector does. */
function wire() {
  const log = createRecordLog(100);
  const pairing = createPairing();
  let at = 1_000;
  const add = (direction: "in" | "out" | "relay", value: Record<string, unknown>, sender?: LogSender) => {
    const entry = appendLog(log, direction, JSON.stringify(value), value, (at += 40), sender);
    const w: WireEntry = { seq: entry.seq, at: entry.time, direction, raw: JSON.stringify(value), value };
    if (sender !== undefined) w.sender = sender.self === true ? { clientId: "self", name: "this browser" } : { clientId: sender.clientId, ...(sender.name ? { name: sender.name } : {}) };
    applyPairing(pairing, w);
    return entry;
  };
  return { log, pairing, add };
}

describe("record badges and stories", () => {
  it("a prompt: latency, the run it started, and the run's end", () => {
    const { pairing, add } = wire();
    const prompt = add("out", { id: "c1:1", type: "prompt", message: "hi" }, { clientId: "c1", self: true });
    const response = add("in", { id: "c1:1", type: "response", command: "prompt", success: true });
    add("in", { type: "agent_start" });
    const settled = add("in", { type: "agent_settled" });
    expect(recordBadges(pairing, prompt)).toMatchObject({ sender: null, latency: "40 ms", outcome: "ok", run: "run 1" });
    expect(recordBadges(pairing, response).latency).toBe("40 ms");
    expect(recordBadges(pairing, settled)).toMatchObject({ latency: null, run: "run 1 ends" });
    const pair = pairOf(pairing, prompt.seq)!;
    expect(pairStory(pair, 0)).toBe("prompt (id c1:1) from this browser: pi answered success in 40 ms. (success means accepted; the work ends at agent_settled.)");
    const run = runOf(pairing, settled.seq)!;
    expect(runStory(run, pairByKey(pairing, run.startedBy!))).toBe("Started when pi accepted prompt from this browser; over at agent_settled after 80 ms.");
  });

  it("another browser's command carries its sender; a refused one says so", () => {
    const { pairing, add } = wire();
    const theirs = add("out", { id: "c2:9", type: "abort" }, { clientId: "c2", name: "Ada" });
    expect(recordBadges(pairing, theirs)).toMatchObject({ sender: "Ada", latency: "…", outcome: "pending" });
    const mine = add("out", { id: "c1:2", type: "set_model", provider: "x", modelId: "y" }, { clientId: "c1", self: true });
    add("relay", { type: "error", code: "invalid_command", message: "no such model", command: { type: "set_model", id: "c1:2" } });
    expect(recordBadges(pairing, mine)).toMatchObject({ latency: "refused", outcome: "refused" });
    expect(pairStory(pairOf(pairing, mine.seq)!, 0)).toMatch(/the relay refused it, so pi never saw it \(invalid_command: no such model\)/);
  });

  it("formats latencies and names pi's docs", () => {
    expect([formatLatency(12.4), formatLatency(1234), formatLatency(61_000)]).toEqual(["12 ms", "1.23 s", "61.0 s"]);
    expect(docsPlace("json.md#agent-and-turn-events")).toEqual({ file: "docs/json.md", section: "Agent and turn events" });
    expect(docsPlace("rpc.md")).toEqual({ file: "docs/rpc.md", section: null });
    expect(targetWords({ kind: "message", index: 6, block: 0 })).toBe("block 1 of message 7");
  });
});

describe("where the transcript shows a target", () => {
  const messages = [
    { role: "user", content: "hi", timestamp: 1 },
    { role: "assistant", content: [{ type: "toolCall", id: "t1", name: "bash", arguments: {} }], stopReason: "toolUse", timestamp: 2 },
    { role: "toolResult", toolCallId: "t1", toolName: "bash", content: [], isError: false, timestamp: 3 },
    { role: "assistant", content: [{ type: "text", text: "done" }], stopReason: "stop", timestamp: 4 },
  ] as unknown as ConversationMessage[];
  const rows = transcriptRows(null, messages, []);

  it("a message by its row, a tool result and a tool call by their answer's row", () => {
    expect(rowOfTarget(rows, messages, { kind: "message", index: 3, block: 0 })).toBe(2);
    expect(rowOfTarget(rows, messages, { kind: "tool", toolCallId: "t1" })).toBe(1);
    expect(shownTarget({ kind: "message", index: 2 }, messages)).toEqual({ kind: "tool", toolCallId: "t1" });
    expect(rowOfTarget(rows, messages, { kind: "message", index: 2 })).toBe(1);
    expect(rowOfTarget(rows, messages, { kind: "tool", toolCallId: "nope" })).toBe(-1);
  });
});

describe("inspector preferences", () => {
  it("are closed, on the records tab, where nothing was stored", () => {
    expect(loadInspectorOpen()).toBe(false);
    expect(loadInspectorTab()).toBe("records");
  });
});
