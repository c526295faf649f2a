// Extension custom entries (pi.appendEntry) in the transcript: which entries
// are an extension's, where a live one goes, where a saved one goes (from
// pi's entries, after a reload or a switch), and its data as bounded JSON.
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "@pier/protocol";
import { branchCustomEntries, shownCustomEntry, withBranchEntries } from "../src/lib/pi-state/custom-entries.ts";
import { applyRecord } from "../src/lib/pi-state/reduce-record.ts";
import { createSessionState } from "../src/lib/pi-state/session-state.ts";
import type { ConversationMessage } from "../src/lib/pi-types.ts";
import { transcriptRows, rowKey } from "../src/lib/transcript/transcript-rows.ts";
import { boundedJson } from "../src/lib/transcript/bounded-json.ts";
import { describeEffect } from "../src/lib/wire-log/meaning.ts";

const T = "2026-12-06T09:00:00.000Z";
const custom = (id: string, customType: string, data: unknown, parentId: string | null = null) => ({ type: "custom", id, parentId, timestamp: T, customType, data }) as unknown as SessionEntry;
const messageEntry = (id: string, role: string, timestamp: number, parentId: string | null = null) =>
  ({ type: "message", id, parentId, timestamp: T, message: { role, content: "x", timestamp } }) as unknown as SessionEntry;
const user = (timestamp: number) => ({ role: "user", content: "u", timestamp }) as ConversationMessage;
const assistant = (timestamp: number) => ({ role: "assistant", content: [{ type: "text", text: "a" }], stopReason: "stop", timestamp }) as unknown as ConversationMessage;

describe("which entries are an extension's custom entries", () => {
  it("takes type custom with a customType, and nothing of pi's own", () => {
    expect(shownCustomEntry(custom("e1", "todo", { n: 1 }))).toEqual({ entryId: "e1", customType: "todo", data: { n: 1 } });
    // pi's virtual-model router keeps its state in a custom entry of its own namespace.
    expect(shownCustomEntry(custom("e2", "pi.virtual-model-state", {}))).toBeNull();
    for (const type of ["context_edit", "label", "model_change", "thinking_level_change", "session_info", "usage", "custom_message", "message"]) {
      expect(shownCustomEntry({ type, id: "x", parentId: null, timestamp: T, customType: "todo" })).toBeNull();
    }
    expect(shownCustomEntry({ type: "custom", id: "x" })).toBeNull();
    expect(shownCustomEntry(null)).toBeNull();
    expect(shownCustomEntry("custom")).toBeNull();
  });
});

describe("a live entry_appended", () => {
  it("becomes a marker where pi appended it; context edits and pi's own entries do not", () => {
    const state = createSessionState();
    applyRecord(state, { type: "message_start", message: user(1) });
    applyRecord(state, { type: "message_end", message: user(1) });
    applyRecord(state, { type: "entry_appended", entry: { type: "context_edit", id: "c", parentId: null, timestamp: T, targetId: "x", replacement: null } });
    applyRecord(state, { type: "entry_appended", entry: custom("p", "pi.virtual-model-state", {}) });
    applyRecord(state, { type: "entry_appended", entry: custom("e1", "todo", { items: ["a"] }) });
    expect(state.entries).toHaveLength(3);
    expect(state.markers).toEqual([expect.objectContaining({ kind: "customEntry", entryId: "e1", customType: "todo", data: { items: ["a"] }, beforeIndex: 1 })]);
    const rows = transcriptRows(null, state.messages, state.markers);
    expect(rows.map(rowKey)).toEqual(["message:0", `marker:${state.markers[0]!.seq}`]);
  });

  it("is described in the inspector by its customType, pointing at its row", () => {
    const state = createSessionState();
    applyRecord(state, { type: "entry_appended", entry: custom("e1", "todo", {}) });
    const effect = describeEffect({ type: "entry_appended", entry: custom("e1", "todo", {}) }, state);
    expect(effect.text).toBe('An extension saved a custom entry "todo" (pi.appendEntry): kept in the session, not sent to the model; the transcript shows it collapsed.');
    expect(effect.target).toEqual({ kind: "marker", seq: state.markers[0]!.seq });
    expect(describeEffect({ type: "entry_appended", entry: custom("p", "pi.virtual-model-state", {}) }, createSessionState()).text).toMatch(/^pi stored its own data/);
  });

  it("a custom message's records name its customType and say whether it is shown", () => {
    const state = createSessionState();
    const message = { role: "custom", customType: "report", content: "# Hi", display: true, timestamp: 5 };
    applyRecord(state, { type: "message_start", message });
    expect(describeEffect({ type: "message_start", message }, state)).toEqual({
      text: 'An extension\'s message "report" (pi.sendMessage; shown in the transcript; the model reads it) joins the conversation as message 1.',
      target: { kind: "message", index: 0 },
    });
    const hidden = { ...message, display: false, timestamp: 6 };
    applyRecord(state, { type: "message_start", message: hidden });
    applyRecord(state, { type: "message_end", message: hidden });
    const end = describeEffect({ type: "message_end", message: hidden }, state);
    expect(end.text).toMatch(/^Message 2 is final: an extension's message "report" \(pi.sendMessage; display: false, so not shown in the transcript/);
    expect(end.target).toBeNull();
  });
});

describe("saved entries on the active branch", () => {
  const path = [
    messageEntry("m1", "user", 10),
    custom("e1", "todo", { n: 1 }, "m1"),
    messageEntry("m2", "assistant", 20, "e1"),
    messageEntry("m3", "user", 30, "m2"),
    custom("e2", "todo", { n: 2 }, "m3"),
    custom("e3", "pi.virtual-model-state", {}, "e2"),
    messageEntry("m4", "assistant", 40, "e3"),
  ];

  it("keeps nothing for a branch without custom entries", () => {
    expect(branchCustomEntries([messageEntry("m1", "user", 1)])).toEqual([]);
  });

  it("are placed after the message they followed, and the stream's own markers win", () => {
    const branch = branchCustomEntries(path);
    expect(branch.filter((item) => item.kind === "entry").map((item) => (item as { entryId: string }).entryId)).toEqual(["e1", "e2"]);
    const messages = [user(10), assistant(20), user(30), assistant(40)];
    const markers = withBranchEntries([], messages, branch);
    expect(markers).toEqual([
      expect.objectContaining({ kind: "customEntry", entryId: "e1", beforeIndex: 1, seq: -1 }),
      expect.objectContaining({ kind: "customEntry", entryId: "e2", beforeIndex: 3, seq: -2 }),
    ]);
    expect(transcriptRows(null, messages, markers).map(rowKey)).toEqual(["message:0", "marker:-1", "message:1", "message:2", "marker:-2", "message:3"]);
    // A marker the stream made for e2 (live, or from the relay's replay) is kept as it is; only e1 is added.
    const live = { kind: "customEntry", seq: 7, beforeIndex: 3, at: 1, entryId: "e2", customType: "todo", data: { n: 2 } } as const;
    expect(withBranchEntries([live], messages, branch).map((m) => m.seq)).toEqual([7, -1]);
    // All of them already there: the same array, no new work for the rows.
    const all = [live, { ...live, seq: 8, entryId: "e1" }];
    expect(withBranchEntries(all, messages, branch)).toBe(all);
  });

  it("a message the transcript no longer holds keeps the place of the one before it", () => {
    // m2 (a failed attempt pi dropped, or compacted away) is not in the transcript.
    const markers = withBranchEntries([], [user(10), user(30), assistant(40)], branchCustomEntries(path));
    expect(markers.map((m) => m.beforeIndex)).toEqual([1, 2]);
    // Nothing found at all: at the top.
    expect(withBranchEntries([], [], branchCustomEntries(path)).map((m) => m.beforeIndex)).toEqual([0, 0]);
  });

  it("a custom message entry is matched by pi's timestamp, as get_messages gives it", () => {
    const branch = branchCustomEntries([
      { type: "custom_message", id: "cm", parentId: null, timestamp: T, customType: "report", content: "x", display: true } as unknown as SessionEntry,
      custom("e1", "todo", {}, "cm"),
    ]);
    const markers = withBranchEntries([], [user(1), { role: "custom", customType: "report", content: "x", display: true, timestamp: Date.parse(T) } as unknown as ConversationMessage], branch);
    expect(markers[0]!.beforeIndex).toBe(2);
  });
});

describe("an entry's data as JSON", () => {
  it("is pretty-printed like JSON.stringify", () => {
    const data = { title: "<img src=x onerror=alert(1)>", list: [1, "two", null, true, { deep: [] }], empty: {}, skip: undefined };
    expect(boundedJson(data)).toEqual({ text: JSON.stringify(data, null, 2), cut: false });
    expect(boundedJson("just text").text).toBe('"just text"');
    expect(boundedJson(undefined).text).toBe("(no data)");
  });

  it("stops at the bound on huge data, quickly, and survives cycles", () => {
    const huge = { rows: Array.from({ length: 200_000 }, (_, i) => ({ i, text: "x".repeat(50) })) };
    const started = performance.now();
    const out = boundedJson(huge, 5000);
    expect(performance.now() - started).toBeLessThan(200);
    expect(out.cut).toBe(true);
    expect(out.text.length).toBe(5000);
    expect(boundedJson({ s: "y".repeat(1_000_000) }, 100)).toMatchObject({ cut: true });
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic["self"] = cyclic;
    expect(boundedJson(cyclic).text).toBe('{\n  "a": 1,\n  "self": "…"\n}');
  });
});
