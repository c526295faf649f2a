// The browser's entry index against a real pi: what it rebuilds from
// get_entries (whole, or caught up with `since`) must be what get_messages
// answers, and where it cannot be sure (a compaction, a retried call) it must
// say so and leave the transcript to get_messages.
import { afterEach, describe, expect, it } from "vitest";
import type { Scenario } from "../../relay/src/demo/scenario.ts";
import { applyEntriesAnswer, compactedHistory, createEntryIndex, lastEntryId, plainConversation, userEntryIdFor, type EntryIndex } from "../src/lib/pi-state/entry-index.ts";
import { FAST, startSession, type PiSession } from "./contract/pi-session.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const text = (t: string) => ({ kind: "text" as const, text: t });
const one = (t: string) => ({ steps: [text(t)] });

async function run(s: PiSession, message: string): Promise<void> {
  const from = s.pi.records.length;
  await s.prompt(message);
  await s.settled(from);
}

async function piMessages(s: PiSession) {
  const messages = (await s.send({ type: "get_messages" })).data.messages as { role: string }[];
  return { conversation: messages.filter((m) => m.role !== "system"), system: messages.find((m) => m.role === "system") };
}

async function catchUp(s: PiSession, index: EntryIndex): Promise<void> {
  const since = lastEntryId(index);
  const answer = await s.send(since === null ? { type: "get_entries" } : { type: "get_entries", since });
  expect(answer.success).toBe(true);
  expect(applyEntriesAnswer(index, answer.data, since)).toBe(true);
}

describe("the entry index against real pi", () => {
  it("rebuilds get_messages from get_entries, whole and caught up with since", async () => {
    const scenario: Scenario = {
      name: "entries",
      pace: FAST,
      rules: [
        {
          when: { text: "read it" },
          turns: [{ steps: [text("Reading."), { kind: "toolCall", name: "read", arguments: { path: "README.md" } }] }, one("It is a greeter.")],
        },
      ],
      fallback: { steps: [{ kind: "reasoning", text: "Thinking about it." }, text("Sure.")] },
    };
    const s = await startSession(scenario, undefined, cleanups);
    await run(s, "hello");
    await run(s, "read it");
    await s.send({ type: "bash", command: "echo from bash" });
    await s.send({ type: "set_session_name", name: "Entries" });

    const index = createEntryIndex();
    await catchUp(s, index);
    const expected = await piMessages(s);
    const plain = plainConversation(index);
    expect(plain).not.toBeNull();
    expect(plain!.messages).toEqual(expected.conversation);
    expect(plain!.systemPrompt).toEqual(expected.system);

    // Later: only the new entries, and the same result as asking for everything.
    const cursor = lastEntryId(index);
    await run(s, "once more");
    await catchUp(s, index);
    expect(lastEntryId(index)).not.toBe(cursor);
    expect(plainConversation(index)!.messages).toEqual((await piMessages(s)).conversation);

    // Every user message of the transcript has its entry id, and pi forks from it.
    const firstUser = plain!.messages.find((m) => m.role === "user")!;
    const entryId = userEntryIdFor(index, firstUser);
    expect(entryId).not.toBeNull();
    const forks = (await s.send({ type: "get_fork_messages" })).data.messages as { entryId: string }[];
    expect(forks.map((f) => f.entryId)).toContain(entryId);
  });

  it("after a compaction it leaves the transcript to get_messages and keeps the compacted messages", async () => {
    const scenario: Scenario = {
      name: "entries-compaction",
      pace: FAST,
      rules: [
        { when: { text: "first" }, turns: [one("First answer. ".repeat(30))] },
        { when: { text: "second" }, turns: [one("Second answer. ".repeat(30))] },
      ],
      fallback: one("## Goal\nSummary of the conversation so far."),
    };
    const s = await startSession(scenario, { compaction: { keepRecentTokens: 50 } }, cleanups);
    await run(s, "first");
    await run(s, "second");
    const index = createEntryIndex();
    await catchUp(s, index);
    const before = plainConversation(index)!.messages;
    expect(await s.send({ type: "compact" })).toMatchObject({ success: true });
    await catchUp(s, index);

    expect(plainConversation(index)).toBeNull();
    const history = compactedHistory(index);
    const context = (await piMessages(s)).conversation;
    expect(history.length).toBeGreaterThan(0);
    // What left the context is exactly the head of what was there before.
    expect(history).toEqual(before.slice(0, history.length));
    expect(context[0]!.role).toBe("compactionSummary");
    expect(context.slice(1)).toEqual(before.slice(history.length));
  });

  it("a cursor from another session is refused by pi, so the browser starts over", async () => {
    const s = await startSession({ name: "entries-switch", pace: FAST, rules: [], fallback: one("Hi.") }, undefined, cleanups);
    await run(s, "hello");
    const index = createEntryIndex();
    await catchUp(s, index);
    const cursor = lastEntryId(index)!;
    expect(await s.send({ type: "new_session" })).toMatchObject({ success: true });
    await run(s, "fresh");
    const answer = await s.send({ type: "get_entries", since: cursor });
    expect(answer).toMatchObject({ success: false });
    expect(String(answer.error)).toContain(cursor);
  });
});
