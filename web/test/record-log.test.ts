import { describe, expect, it } from "vitest";
import { appendLog, clearLog, createRecordLog, droppedCount, entryText, entryValue, logEntry, logSize, RAW_TEXT_LIMIT } from "../src/lib/pi-state/record-log.ts";
import { createFilteredLog, filteredCount, filteredSeqs, syncFilteredLog } from "../src/lib/pi-state/record-log-filter.ts";

const delta = { type: "message_update", assistantMessageEvent: { type: "text_delta" } };

describe("record log", () => {
  it("describes records and stays bounded, with stable seqs", () => {
    const log = createRecordLog(3);
    for (let i = 0; i < 5; i++) appendLog(log, "in", "{}", delta, i);
    expect(logSize(log)).toBe(3);
    expect(droppedCount(log)).toBe(2);
    expect([3, 4, 5].map((seq) => logEntry(log, seq)?.seq)).toEqual([3, 4, 5]);
    expect(logEntry(log, 2)).toBeUndefined();
    expect(logEntry(log, 6)).toBeUndefined();
    expect(logEntry(log, 3)).toMatchObject({ direction: "in", type: "message_update", detail: "text_delta", time: 2 });
    appendLog(log, "in", "oops", undefined, 9);
    expect(logEntry(log, 6)).toMatchObject({ type: "invalid", raw: "oops" });
    expect(entryValue(logEntry(log, 6)!)).toBeUndefined();
    appendLog(log, "in", "{}", { type: "response", command: "abort", success: false }, 9);
    expect(logEntry(log, 7)?.detail).toBe("abort ✗");
  });

  it("keeps a long record parsed instead of as text, and gives its text back", () => {
    const log = createRecordLog(4);
    const value = { type: "response", command: "get_entries", success: true, data: { text: "x".repeat(RAW_TEXT_LIMIT) } };
    const raw = JSON.stringify(value);
    const entry = appendLog(log, "in", raw, value);
    expect(entry.raw).toBeNull();
    expect(entry.value).toBe(value);
    expect(entry.length).toBe(raw.length);
    expect(entryText(entry)).toBe(raw);
    expect(entryValue(entry)).toBe(value);
    const short = appendLog(log, "in", '{"type":"agent_start"}', { type: "agent_start" });
    expect(short.value).toBeUndefined();
    expect(entryValue(short)).toEqual({ type: "agent_start" });
  });

  it("holds at most its byte budget, but always the newest entry", () => {
    const log = createRecordLog(10, 100);
    for (let i = 0; i < 4; i++) appendLog(log, "in", "x".repeat(30), { type: "agent_start" });
    // 4 × 30 > 100: the oldest went.
    expect(logSize(log)).toBe(3);
    expect(log.chars).toBe(90);
    appendLog(log, "in", "y".repeat(150), { type: "response" });
    expect(logSize(log)).toBe(1);
    expect(logEntry(log, 5)?.length).toBe(150);
    appendLog(log, "in", "z", { type: "agent_end" });
    expect(logSize(log)).toBe(1);
    expect(droppedCount(log)).toBe(5);
  });

  it("clears without reusing seqs", () => {
    const log = createRecordLog(4);
    appendLog(log, "out", "{}", { type: "prompt" });
    appendLog(log, "out", "{}", { type: "abort" });
    clearLog(log);
    expect(logSize(log)).toBe(0);
    expect(droppedCount(log)).toBe(2);
    expect(appendLog(log, "relay", "{}", { type: "hello" }).seq).toBe(3);
  });
});

describe("filtered record log", () => {
  it("tests each entry once, follows the ring, and matches type or detail", () => {
    const log = createRecordLog(5);
    appendLog(log, "in", "{}", delta);
    appendLog(log, "in", "{}", { type: "response", command: "get_state", success: true });
    const view = createFilteredLog(log, { text: " STATE ", hideDeltas: false });
    expect(filteredSeqs(view)).toEqual([2]);
    expect(syncFilteredLog(view, log)).toBe(false);
    for (let i = 0; i < 4; i++) appendLog(log, "in", "{}", delta);
    appendLog(log, "in", "{}", { type: "response", command: "get_state", success: true });
    expect(syncFilteredLog(view, log)).toBe(true);
    // seq 2 fell out of the ring (capacity 5: seqs 3…7 remain).
    expect(filteredSeqs(view)).toEqual([7]);
    expect(filteredCount(view)).toBe(1);
  });

  it("hides deltas", () => {
    const log = createRecordLog(10);
    appendLog(log, "in", "{}", delta);
    appendLog(log, "in", "{}", { type: "message_end", message: { role: "assistant" } });
    expect(filteredSeqs(createFilteredLog(log, { text: "", hideDeltas: true }))).toEqual([2]);
    expect(filteredSeqs(createFilteredLog(log, { text: "", hideDeltas: false }))).toEqual([1, 2]);
  });

  it("stays bounded over a long stream", () => {
    const log = createRecordLog(100);
    const view = createFilteredLog(log, { text: "", hideDeltas: false });
    for (let i = 0; i < 10_000; i++) {
      appendLog(log, "in", "{}", delta);
      if (i % 7 === 0) syncFilteredLog(view, log);
    }
    syncFilteredLog(view, log);
    expect(filteredCount(view)).toBe(100);
    expect(filteredSeqs(view)[0]).toBe(9901);
    expect(view.seqs.length).toBeLessThan(2 * 1024 + 200);
  });
});
