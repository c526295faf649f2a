// The wire tap adapter, fed the way the connection feeds it: chunks as they
// arrive, then each record right after the reducer applied it.
import { JsonlDecoder } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { groupOfSeq } from "../../src/lib/wire-log/delta-groups.ts";
import { recordsFor } from "../../src/lib/wire-log/effect-index.ts";
import { createInspectorModels, feedChunk, feedEntry, feedLog, meaningOf, noteTranscript, targetIsCurrent, type InspectorModels } from "../../src/lib/wire-log/inspector-feed.ts";
import { pairOf, runOf } from "../../src/lib/wire-log/pairing.ts";
import { lineOfSeq, renderLine } from "../../src/lib/wire-log/raw-view.ts";
import { listLanes } from "../../src/lib/wire-log/timeline.ts";
import { describeEffect } from "../../src/lib/wire-log/meaning.ts";
import { appendLog, createRecordLog, logEntry, type LogSender, type RecordLog } from "../../src/lib/pi-state/record-log.ts";
import { applyGetMessages, applyRecord } from "../../src/lib/pi-state/reduce-record.ts";
import { createSessionState, resetSessionState, type SessionState } from "../../src/lib/pi-state/session-state.ts";
import { chunked, fixtureText, random } from "./support.ts";

const encoder = new TextEncoder();

/** A stand-in for the connection: decoder, reducer, record log, and the tap calls in its order. */
class Wire {
  readonly log: RecordLog = createRecordLog(5000);
  readonly state: SessionState = createSessionState();
  decoder = new JsonlDecoder();
  models: InspectorModels | null = null;
  at = 1_700_000_000_000;

  attach(): InspectorModels {
    this.models = createInspectorModels(this.log);
    feedLog(this.models);
    return this.models;
  }

  bytes(chunk: Uint8Array): void {
    this.at += 5;
    if (this.models !== null) feedChunk(this.models, chunk, this.at);
    for (const line of this.decoder.push(chunk)) {
      const value = line.kind === "record" ? line.value : undefined;
      const entry = appendLog(this.log, "in", line.raw, value, this.at);
      if (value !== undefined) applyRecord(this.state, value);
      if (this.models !== null) feedEntry(this.models, entry, value, this.state);
    }
  }

  relay(frame: { type: string } & Record<string, unknown>): void {
    const entry = appendLog(this.log, "relay", JSON.stringify(frame), frame, (this.at += 5));
    if (this.models !== null) feedEntry(this.models, entry, frame, this.state);
    if (frame.type === "hello" || frame.type === "child_started") {
      this.decoder = new JsonlDecoder();
      resetSessionState(this.state);
    }
  }

  sent(command: Record<string, unknown>, sender: LogSender = { clientId: "c1", self: true }): number {
    const entry = appendLog(this.log, "out", JSON.stringify(command), command, (this.at += 5), sender);
    if (this.models !== null) feedEntry(this.models, entry, command, this.state);
    return entry.seq;
  }
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe("inspector models from the wire tap", () => {
  it("links every record to the bytes that carried it, whatever the chunking", () => {
    const wire = new Wire();
    const models = wire.attach();
    wire.relay({ type: "hello", clientId: "c1" });
    const all = encoder.encode(fixtureText("text-with-thinking"));
    for (const chunk of chunked(all, random(7), 40)) wire.bytes(chunk);
    let checked = 0;
    for (let seq = wire.log.firstSeq; seq < wire.log.nextSeq; seq++) {
      const entry = logEntry(wire.log, seq)!;
      if (entry.direction !== "in") continue;
      const held = lineOfSeq(models.raw, seq);
      expect(held, entry.type).toBeDefined();
      const text = renderLine(models.raw, held!)
        .tokens.map((t) => t.text)
        .join("");
      expect(text).toBe(`${entry.raw}\n`);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
    expect(models.joinedMidStream).toBe(false);
  });

  it("a text or thinking delta, worded when read, says what describeEffect says from the state it left", () => {
    const records = [
      { type: "message_start", message: { role: "user", content: "hi" } },
      { type: "message_end", message: { role: "user", content: "hi" } },
      { type: "message_start", message: { role: "assistant", content: [], stopReason: "pending" } },
      { type: "message_update", assistantMessageEvent: { type: "thinking_delta", contentIndex: 0, delta: "hmm" } },
      { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 1, delta: "A" } },
      { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 1, delta: "1,234 chars".repeat(150) } },
      { type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "no index" } },
    ];
    const state = createSessionState();
    const expected = records.map((value) => {
      applyRecord(state, value);
      return describeEffect(value, state);
    });
    // The same records through the feed.
    const fed = new Wire();
    const fedModels = fed.attach();
    fed.relay({ type: "hello", clientId: "c1" });
    fed.bytes(encoder.encode(records.map(line).join("")));
    const first = fed.log.nextSeq - records.length;
    records.forEach((_, i) => {
      const meaning = meaningOf(fedModels, first + i)!;
      expect({ text: meaning.text, target: meaning.target }).toEqual(expected[i]);
    });
    const span = recordsFor(fedModels.effects, { kind: "message", index: 1, block: 1 })!;
    expect(span).toMatchObject({ firstSeq: first + 4, lastSeq: first + 5, count: 2 });
    expect(recordsFor(fedModels.effects, { kind: "message", index: 1 })!.count).toBeGreaterThanOrEqual(4);
  });

  it("describes each record from the state it left, and indexes what it changed", () => {
    const wire = new Wire();
    const models = wire.attach();
    wire.relay({ type: "hello", clientId: "c1" });
    wire.bytes(encoder.encode(fixtureText("text-with-thinking")));
    const deltas: number[] = [];
    for (let seq = wire.log.firstSeq; seq < wire.log.nextSeq; seq++) if (logEntry(wire.log, seq)!.detail === "text_delta") deltas.push(seq);
    expect(deltas.length).toBeGreaterThan(0);
    const meaning = meaningOf(models, deltas[0]!)!;
    expect(meaning.text).toMatch(/^Appended \d+ characters? to the answer being written \(message \d+, block \d+\)\.$/);
    expect(targetIsCurrent(models, meaning)).toBe(true);
    const target = meaning.target!;
    expect(target.kind).toBe("message");
    const span = recordsFor(models.effects, target.kind === "message" ? { kind: "message", index: target.index } : target)!;
    expect(span.firstSeq).toBeLessThanOrEqual(deltas[0]!);
    expect(span.lastSeq).toBeGreaterThanOrEqual(deltas.at(-1)!);
  });

  it("pairs a command with its response and closes the run at agent_settled", () => {
    const wire = new Wire();
    const models = wire.attach();
    wire.relay({ type: "hello", clientId: "c1" });
    wire.relay({ type: "replay_end" });
    const prompt = wire.sent({ id: "c1:1", type: "prompt", message: "hi" });
    wire.bytes(encoder.encode(line({ id: "c1:1", type: "response", command: "prompt", success: true }) + line({ type: "agent_start" })));
    wire.bytes(encoder.encode(line({ type: "agent_end", messages: [] }) + line({ type: "agent_settled" })));
    const pair = pairOf(models.pairing, prompt)!;
    expect(pair).toMatchObject({ outcome: "ok", commandType: "prompt", sender: { clientId: "self", name: "this browser" } });
    expect(pair.latencyMs).toBe(5);
    const run = runOf(models.pairing, prompt)!;
    expect(run.endedBy).toBe("settled");
    expect(logEntry(wire.log, run.endSeq!)!.type).toBe("agent_settled");
    expect(listLanes(models.timeline).map((l) => l.id)).toContain("browser:self");
  });

  it("gives another browser's command its sender", () => {
    const wire = new Wire();
    const models = wire.attach();
    wire.relay({ type: "hello", clientId: "c1" });
    const seq = wire.sent({ id: "c2:4", type: "get_state" }, { clientId: "c2", name: "Ada" });
    wire.bytes(encoder.encode(line({ id: "c2:4", type: "response", command: "get_state", success: true, data: {} })));
    expect(pairOf(models.pairing, seq)).toMatchObject({ outcome: "ok", sender: { clientId: "c2", name: "Ada" }, senderInferred: false });
    expect(listLanes(models.timeline).find((l) => l.id === "browser:c2")?.label).toBe("Ada");
  });

  it("groups a message's deltas, and starts bytes and timeline again at each hello", () => {
    const wire = new Wire();
    const models = wire.attach();
    wire.relay({ type: "hello", clientId: "c1" });
    const stream = [
      line({ type: "message_start", message: { role: "assistant", content: [], stopReason: "pending" } }),
      ...["a", "b", "c"].map((delta) => line({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta } })),
      line({ type: "message_end", message: { role: "assistant", content: [{ type: "text", text: "abc" }], stopReason: "stop" } }),
    ].join("");
    wire.bytes(encoder.encode(stream));
    const deltaSeqs = [2, 3, 4].map((i) => wire.log.firstSeq + i);
    const group = groupOfSeq(models.groups, deltaSeqs[0]!)!;
    expect(group).toMatchObject({ count: 3, startSeq: wire.log.firstSeq + 1, endSeq: wire.log.firstSeq + 5 });
    expect(deltaSeqs.map((s) => groupOfSeq(models.groups, s)?.id)).toEqual([group.id, group.id, group.id]);
    const transcript = models.transcript;
    wire.relay({ type: "hello", clientId: "c1b" });
    expect(models.transcript).toBeGreaterThan(transcript);
    expect(models.raw.totalBytes).toBe(0);
    expect(lineOfSeq(models.raw, deltaSeqs[0]!)).toBeUndefined();
    // The replay repeats it: linked from line 1 again.
    wire.bytes(encoder.encode(stream));
    expect(lineOfSeq(models.raw, wire.log.nextSeq - 1)?.lineNo).toBe(5);
  });

  it("loaded mid-stream: earlier records get no meaning, and lines are linked from the first chunk seen", () => {
    const wire = new Wire();
    wire.relay({ type: "hello", clientId: "c1" });
    const prompt = wire.sent({ id: "c1:1", type: "prompt", message: "hi" });
    const first = line({ id: "c1:1", type: "response", command: "prompt", success: true });
    const second = line({ type: "agent_start" });
    const bytes = encoder.encode(first + second);
    // A chunk boundary inside the second record; the inspector loads in between.
    wire.bytes(bytes.subarray(0, first.length + 5));
    const models = wire.attach();
    expect(pairOf(models.pairing, prompt)?.outcome).toBe("ok");
    expect(meaningOf(models, prompt + 1)).toBeUndefined();
    wire.bytes(bytes.subarray(first.length + 5));
    expect(models.joinedMidStream).toBe(true);
    const held = lineOfSeq(models.raw, wire.log.nextSeq - 1)!;
    expect(held.lineNo).toBe(1);
    expect(
      renderLine(models.raw, held)
        .tokens.map((t) => t.text)
        .join(""),
    ).toBe(second.slice(5));
    expect(meaningOf(models, wire.log.nextSeq - 1)?.text).toMatch(/pi starts working/);
  });

  it("keeps links across a session load that brings back the same messages, not across one that does not", () => {
    const wire = new Wire();
    const models = wire.attach();
    wire.relay({ type: "hello", clientId: "c1" });
    const user = { role: "user", content: "hi", timestamp: 1 };
    const answer = { role: "assistant", content: [{ type: "text", text: "yo" }], stopReason: "stop", timestamp: 2 };
    wire.bytes(encoder.encode([user, answer].map((m) => line({ type: "message_start", message: m }) + line({ type: "message_end", message: m })).join("")));
    const transcript = models.transcript;
    applyGetMessages(wire.state, [structuredClone(user), structuredClone(answer)] as never);
    noteTranscript(models, wire.state);
    expect(models.transcript).toBe(transcript);
    applyGetMessages(wire.state, [structuredClone(answer)] as never);
    noteTranscript(models, wire.state);
    expect(models.transcript).toBe(transcript + 1);
    const meaning = meaningOf(models, wire.log.nextSeq - 1)!;
    expect(targetIsCurrent(models, meaning)).toBe(false);
  });
});
