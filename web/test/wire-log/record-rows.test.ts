import { describe, expect, it } from "vitest";
import { createDeltaGroups, forgetBefore, groupOfSeq, noteGroupEntry, type DeltaGroups } from "../../src/lib/wire-log/delta-groups.ts";
import { exportEntry, exportFileName, exportLogLines } from "../../src/lib/wire-log/log-export.ts";
import { buildRecordRows, rowIndexOfSeq, rowSeq, type GroupRow } from "../../src/lib/wire-log/record-rows.ts";
import { appendLog, createRecordLog, RAW_TEXT_LIMIT, type LogDirection } from "../../src/lib/pi-state/record-log.ts";
import { createFilteredLog, filteredSeqs } from "../../src/lib/pi-state/record-log-filter.ts";

/** seq → [direction, type], seqs from 1. */
function groupsOf(items: [LogDirection, string][]): DeltaGroups {
  const groups = createDeltaGroups();
  items.forEach(([direction, type], i) => noteGroupEntry(groups, i + 1, direction, type));
  return groups;
}

const ANSWER: [LogDirection, string][] = [
  ["out", "prompt"], // 1
  ["in", "response"], // 2
  ["in", "message_start"], // 3
  ["in", "message_update"], // 4
  ["in", "message_update"], // 5
  ["out", "get_state"], // 6: arrives in the middle, stays where it was
  ["in", "message_update"], // 7
  ["in", "message_end"], // 8
  ["in", "message_start"], // 9
  ["in", "message_update"], // 10
  ["in", "message_end"], // 11
];

describe("delta groups", () => {
  it("folds the deltas between message_start and message_end, across records of other kinds", () => {
    const groups = groupsOf(ANSWER);
    const first = groupOfSeq(groups, 4)!;
    expect(first).toMatchObject({ startSeq: 3, endSeq: 8, firstSeq: 4, lastSeq: 7, count: 3 });
    expect(groupOfSeq(groups, 7)).toBe(first);
    expect(groupOfSeq(groups, 6)).toBeUndefined();
    expect(groupOfSeq(groups, 10)).toMatchObject({ startSeq: 9, count: 1 });
  });

  it("opens a group for deltas with no message_start, and closes it at a new stream", () => {
    const groups = groupsOf([
      ["in", "message_update"],
      ["relay", "hello"],
      ["in", "message_update"],
    ]);
    expect(groupOfSeq(groups, 1)).toMatchObject({ startSeq: null, endSeq: 2 });
    expect(groupOfSeq(groups, 3)!.id).not.toBe(groupOfSeq(groups, 1)!.id);
  });

  it("forgets what the log dropped", () => {
    const groups = groupsOf(ANSWER);
    forgetBefore(groups, 9);
    expect(groupOfSeq(groups, 4)).toBeUndefined();
    expect(groups.groups.size).toBe(1);
    expect(groupOfSeq(groups, 10)).toBeDefined();
  });
});

describe("record rows", () => {
  const seqs = ANSWER.map((_, i) => i + 1);
  const groups = groupsOf(ANSWER);

  it("shows a message's deltas as one row where the first was", () => {
    const rows = buildRecordRows(seqs, groups, { collapse: true, opened: new Set() });
    expect(rows.map((r) => (typeof r === "number" ? r : `group×${r.count}`))).toEqual([1, 2, 3, "group×3", 6, 8, 9, "group×1", 11]);
    expect(rowIndexOfSeq(rows, 5, groups)).toBe(3);
    expect(rowIndexOfSeq(rows, 6, groups)).toBe(4);
    expect(rowSeq(rows[3]!)).toBe(4);
  });

  it("an opened group shows its deltas in place", () => {
    const id = groupOfSeq(groups, 4)!.id;
    const rows = buildRecordRows(seqs, groups, { collapse: true, opened: new Set([id]) });
    expect(rows.map((r) => (typeof r === "number" ? r : "group"))).toEqual([1, 2, 3, "group", 4, 5, 6, 7, 8, 9, "group", 11]);
    expect((rows[3] as GroupRow).open).toBe(true);
    expect(rowIndexOfSeq(rows, 5, groups)).toBe(5);
  });

  it("counts only the deltas the filter let through, and can show every delta as its own row", () => {
    const rows = buildRecordRows([3, 5, 7, 8], groups, { collapse: true, opened: new Set() });
    expect(rows).toEqual([3, expect.objectContaining({ kind: "group", count: 2, firstSeq: 5, lastSeq: 7 }), 8]);
    const steps = buildRecordRows([4, 5, 7], groups, { collapse: true, opened: new Set(), stepOf: (seq) => (seq === 4 ? "text_start" : "text_delta") });
    expect(steps[0]).toMatchObject({ count: 3, text: 2, other: 1 });
    expect(buildRecordRows(seqs, groups, { collapse: false, opened: new Set() })).toEqual(seqs);
  });
});

describe("record filter", () => {
  it("filters by type, direction and the text on the wire", () => {
    const log = createRecordLog(10);
    appendLog(log, "out", '{"id":"c1:1","type":"prompt","message":"find the needle"}', { type: "prompt" });
    appendLog(log, "in", '{"type":"response","command":"prompt","success":true}', { type: "response", command: "prompt", success: true });
    appendLog(log, "relay", '{"type":"peers","count":2}', { type: "peers", count: 2 });
    const seqs = (filter: Parameters<typeof createFilteredLog>[1]) => filteredSeqs(createFilteredLog(log, filter));
    expect(seqs({ text: "", hideDeltas: false, type: "response" })).toEqual([2]);
    expect(seqs({ text: "", hideDeltas: false, directions: ["out", "relay"] })).toEqual([1, 3]);
    expect(seqs({ text: "", hideDeltas: false, search: "  NEEDLE " })).toEqual([1]);
    expect(seqs({ text: "prompt", hideDeltas: false })).toEqual([1, 2]);
  });
});

describe("JSONL export", () => {
  it("writes one parseable line per entry with time, direction, sender and the record", () => {
    const log = createRecordLog(10);
    appendLog(log, "out", '{"id":"c2:1","type":"abort"}', { id: "c2:1", type: "abort" }, Date.UTC(2026, 0, 2, 3, 4, 5), { clientId: "c2", name: "Ada" });
    appendLog(log, "in", "not json", undefined, Date.UTC(2026, 0, 2, 3, 4, 6));
    // Not what JSON.stringify writes: kept as the exact line.
    appendLog(log, "in", '{ "type": "agent_start" }', { type: "agent_start" }, Date.UTC(2026, 0, 2, 3, 4, 7));
    const value = { type: "response", command: "get_entries", success: true, data: "x".repeat(RAW_TEXT_LIMIT) };
    appendLog(log, "in", JSON.stringify(value), value, Date.UTC(2026, 0, 2, 3, 4, 8));
    const lines = exportLogLines(log);
    expect(lines.every((l) => l.endsWith("\n") && !l.slice(0, -1).includes("\n"))).toBe(true);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed[0]).toEqual({ seq: 1, time: "2026-01-02T03:04:05.000Z", direction: "out", type: "abort", sender: { clientId: "c2", name: "Ada" }, record: { id: "c2:1", type: "abort" } });
    expect(parsed[1]).toMatchObject({ direction: "in", type: "invalid", line: "not json" });
    expect(parsed[2]).toMatchObject({ line: '{ "type": "agent_start" }' });
    expect(parsed[2]).not.toHaveProperty("record");
    expect(parsed[3]!["record"]).toEqual(value);
    expect(exportEntry(log.slots[1]!)).toMatchObject({ seq: 1 });
    expect(exportFileName(Date.UTC(2026, 11, 1, 12, 50, 19))).toBe("pier-protocol-2026-12-01T12-50-19.jsonl");
  });
});
