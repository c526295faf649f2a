import { describe, expect, it } from "vitest";
import {
  activePath,
  applyEntriesAnswer,
  checkedEntries,
  compactedHistory,
  createEntryIndex,
  lastEntryId,
  plainConversation,
  resetEntryIndex,
  userEntryIdFor,
} from "../src/lib/pi-state/entry-index.ts";

const at = "2026-12-01T10:00:00.000Z";
let clock = 1000;
const user = (id: string, parentId: string | null, text: string) => ({
  type: "message",
  id,
  parentId,
  timestamp: at,
  message: { role: "user", content: text, timestamp: ++clock },
});
const assistant = (id: string, parentId: string | null, text: string) => ({
  type: "message",
  id,
  parentId,
  timestamp: at,
  message: { role: "assistant", content: [{ type: "text", text }], timestamp: ++clock },
});
const system = (id: string, parentId: string | null, sections: Record<string, string | null>) => ({
  type: "message",
  id,
  parentId,
  timestamp: at,
  message: { role: "system", content: "", sections, timestamp: ++clock },
});
const model = (id: string, parentId: string | null) => ({ type: "model_change", id, parentId, timestamp: at, provider: "p", modelId: "m" });

function loaded(entries: unknown[], leafId: string | null) {
  const index = createEntryIndex();
  expect(applyEntriesAnswer(index, { entries, leafId }, null)).toBe(true);
  return index;
}

describe("entry index", () => {
  it("rebuilds a plain conversation (system prompt apart, patches applied) from the active branch", () => {
    const index = loaded(
      [model("m", null), system("s1", "m", { a: "A", b: "B" }), user("u1", "s1", "hi"), assistant("a1", "u1", "hello"), system("s2", "a1", { b: null, c: "C" }), user("u2", "s2", "more")],
      "u2",
    );
    const plain = plainConversation(index)!;
    expect(plain.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(plain.systemPrompt?.sections).toEqual({ a: "A", c: "C" });
  });

  it("follows the leaf, not the append order: an abandoned branch is not in the conversation", () => {
    const index = loaded([user("u1", null, "one"), assistant("a1", "u1", "A"), user("u2", "a1", "left"), user("u3", "a1", "right")], "u3");
    expect(activePath(index).map((e) => e.id)).toEqual(["u1", "a1", "u3"]);
    expect(plainConversation(index)!.messages.map((m) => (m as { content: unknown }).content)).toEqual(["one", [{ type: "text", text: "A" }], "right"]);
  });

  it("leaves contexts it cannot compute to pi", () => {
    for (const entry of [
      { type: "compaction", id: "c", parentId: "a1", timestamp: at, summary: "s", firstKeptEntryId: "a1", tokensBefore: 1 },
      { type: "branch_summary", id: "c", parentId: "a1", timestamp: at, fromId: "x", summary: "s" },
      { type: "context_edit", id: "c", parentId: "a1", timestamp: at, targetId: "a1", replacement: null },
      { type: "custom_message", id: "c", parentId: "a1", timestamp: at, customType: "x", content: "c", display: true },
      { type: "something_new", id: "c", parentId: "a1", timestamp: at },
    ]) {
      expect(plainConversation(loaded([user("u1", null, "one"), assistant("a1", "u1", "A"), entry], "c"))).toBeNull();
    }
    // A leaf we do not hold is not a conversation we can vouch for.
    expect(plainConversation(loaded([user("u1", null, "one")], "missing"))).toBeNull();
  });

  it("catches up with `since`, and refuses an answer that does not continue what it has", () => {
    const index = loaded([user("u1", null, "one")], "u1");
    expect(lastEntryId(index)).toBe("u1");
    expect(applyEntriesAnswer(index, { entries: [assistant("a1", "u1", "A")], leafId: "a1" }, "u1")).toBe(true);
    expect(plainConversation(index)!.messages).toHaveLength(2);
    // Two catch-ups from one cursor can cross: what is already held is skipped.
    expect(applyEntriesAnswer(index, { entries: [assistant("a1", "u1", "A"), user("u2", "a1", "B")], leafId: "u2" }, "u1")).toBe(true);
    expect(index.entries.map((e) => e.id)).toEqual(["u1", "a1", "u2"]);
    expect(applyEntriesAnswer(index, { entries: [user("u9", "zz", "x")], leafId: "u9" }, "gone")).toBe(false);
    expect(index.entries.map((e) => e.id)).toEqual(["u1", "a1", "u2"]);
  });

  it("walks long sessions and their branches (entries in append order, no map by id)", () => {
    const trunk: object[] = [user("e0", null, "0")];
    for (let i = 1; i < 10_000; i++) trunk.push(i % 2 ? assistant(`e${i}`, `e${i - 1}`, `${i}`) : user(`e${i}`, `e${i - 1}`, `${i}`));
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `e${i}`);
    const index = loaded([...trunk, user("b1", "e10", "branch"), assistant("b2", "b1", "B")], "b2");
    expect(activePath(index).map((e) => e.id)).toEqual([...ids(11), "b1", "b2"]);
    expect(plainConversation(index)!.messages).toHaveLength(13);
    // A catch-up whose entry hangs off an old one (the tree was navigated).
    expect(applyEntriesAnswer(index, { entries: [user("c1", "e5000", "c")], leafId: "c1" }, "b2")).toBe(true);
    expect(lastEntryId(index)).toBe("c1");
    expect(activePath(index).map((e) => e.id)).toEqual([...ids(5001), "c1"]);
    // The leaf moved back into the trunk, without new entries.
    expect(applyEntriesAnswer(index, { entries: [], leafId: "e9999" }, "c1")).toBe(true);
    expect(activePath(index)).toHaveLength(10_000);
    // Walked once per change: asked again, the same path; after any change, the new one.
    expect(activePath(index)).toBe(activePath(index));
    const before = activePath(index);
    expect(applyEntriesAnswer(index, { entries: [user("d1", "e9999", "d")], leafId: "d1" }, "c1")).toBe(true);
    expect(activePath(index)).not.toBe(before);
    expect(activePath(index).map((e) => e.id)).toEqual([...ids(10_000), "d1"]);
    resetEntryIndex(index, null);
    expect(activePath(index)).toEqual([]);
  });

  it("survives junk from pi", () => {
    const index = createEntryIndex();
    for (const junk of [null, 7, { entries: "x", leafId: null }, { entries: [], leafId: 5 }, {}]) {
      expect(applyEntriesAnswer(index, junk, null)).toBe(false);
    }
    expect(applyEntriesAnswer(index, { entries: [null, 3, { id: 1 }, { id: "ok", type: "label", parentId: null, timestamp: at }], leafId: "ok" }, null)).toBe(true);
    expect(index.entries.map((e) => e.id)).toEqual(["ok"]);
    // A cycle in parent links does not hang.
    applyEntriesAnswer(
      index,
      {
        entries: [
          { id: "x", type: "label", parentId: "y", timestamp: at },
          { id: "y", type: "label", parentId: "x", timestamp: at },
        ],
        leafId: "x",
      },
      null,
    );
    expect(activePath(index).map((e) => e.id)).toEqual(["y", "x"]);
  });

  it("takes a whole session checked off the page's thread (record-slices.ts) as it would have checked it itself", () => {
    const session = [system("s", null, { a: "A" }), user("u1", "s", "one"), assistant("a1", "u1", "two"), model("m", "a1"), user("u2", "m", "three"), assistant("b1", "u1", "branch")];
    const entries = () => structuredClone(session);
    const answer = { entries: entries(), leafId: "u2" };
    expect(checkedEntries(answer.entries)).toBe(true);
    const fast = createEntryIndex();
    expect(applyEntriesAnswer(fast, answer, null, true)).toBe(true);
    const slow = loaded(entries(), "u2");
    expect(fast.entries).toEqual(slow.entries);
    expect(fast.leafId).toBe("u2");
    expect(fast.version).toBe(1);
    expect(plainConversation(fast)).toEqual(plainConversation(slow));
    // A parent id is the parent's own string now, as applyEntriesAnswer makes it.
    expect(fast.entries[2]!.parentId).toBe(fast.entries[1]!.id);
    // The answer (which the inspector shows) does not grow with the index.
    expect(applyEntriesAnswer(fast, { entries: [user("u3", "u2", "four")], leafId: "u3" }, "b1")).toBe(true);
    expect(answer.entries).toHaveLength(6);
    expect(lastEntryId(fast)).toBe("u3");
    // What it would not take: an id twice, or something that is not an entry.
    expect(checkedEntries([...entries(), user("u1", "s", "again")])).toBe(false);
    expect(checkedEntries([...entries(), { id: 3 }])).toBe(false);
  });

  it("keeps what a compaction took out of the model's context", () => {
    const index = loaded(
      [
        system("s", null, { a: "A" }),
        user("u1", "s", "old question"),
        assistant("a1", "u1", "old answer"),
        user("u2", "a1", "kept question"),
        { type: "compaction", id: "c1", parentId: "u2", timestamp: at, summary: "sum", firstKeptEntryId: "u2", tokensBefore: 10 },
        assistant("a2", "c1", "new"),
      ],
      "a2",
    );
    expect(compactedHistory(index).map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(compactedHistory(loaded([user("u1", null, "x")], "u1"))).toEqual([]);
  });

  it("finds the entry of a user message by its timestamp, on the active branch only", () => {
    const first = user("u1", null, "one");
    const index = loaded([first, assistant("a1", "u1", "A")], "a1");
    expect(userEntryIdFor(index, first.message)).toBe("u1");
    expect(userEntryIdFor(index, { role: "user", timestamp: 1 })).toBeNull();
    expect(userEntryIdFor(index, { role: "assistant", timestamp: first.message.timestamp })).toBeNull();
    resetEntryIndex(index, "other");
    expect(index.sessionId).toBe("other");
    expect(userEntryIdFor(index, first.message)).toBeNull();
  });
});
