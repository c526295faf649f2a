import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SessionLoader, ENTRIES_RETRY_MS } from "../../src/lib/relay/session-loader.ts";
import type { OutgoingCommand } from "../../src/lib/relay/outgoing.ts";
import { createSessionState } from "../../src/lib/pi-state/session-state.ts";
import type { RpcResponse } from "../../src/lib/pi-types.ts";

const at = "2026-12-01T10:00:00.000Z";
const user = (id: string, parentId: string | null, text: string) => ({ type: "message", id, parentId, timestamp: at, message: { role: "user", content: text, timestamp: 1 } });
const assistant = (id: string, parentId: string | null, text: string) => ({
  type: "message",
  id,
  parentId,
  timestamp: at,
  message: { role: "assistant", content: [{ type: "text", text }], timestamp: 2 },
});
const compaction = (id: string, parentId: string, firstKeptEntryId: string) => ({ type: "compaction", id, parentId, timestamp: at, summary: "s", firstKeptEntryId, tokensBefore: 10 });
const entriesAnswer = (entries: unknown[], leafId: string | null): RpcResponse => ({ type: "response", command: "get_entries", success: true, data: { entries, leafId } }) as RpcResponse;

/** A loader whose sends are recorded (ids n1, n2…) and whose calls the test answers. */
function setup(options: { offline?: boolean } = {}) {
  const link = { offline: options.offline ?? false };
  const sent: { id: string; command: OutgoingCommand }[] = [];
  const calls: { command: OutgoingCommand; answer: (r: RpcResponse) => void }[] = [];
  const session = createSessionState();
  let changes = 0;
  const loading: boolean[] = [];
  const loader = new SessionLoader({
    send: (command) => {
      if (link.offline) return null;
      const id = `n${sent.length + 1}`;
      sent.push({ id, command });
      return id;
    },
    call: (command) => new Promise((answer) => calls.push({ command, answer })),
    session: () => session,
    onEntriesChanged: () => changes++,
    onLoadingChanged: (now) => loading.push(now),
  });
  /** pi answers the last request sent. */
  const answerLast = (response: RpcResponse) => {
    const request = loader.take(sent.at(-1)!.id);
    expect(request).toBeDefined();
    loader.answer(request!, response);
  };
  return { loader, sent, calls, session, answerLast, link, changes: () => changes, loading };
}

describe("session loader", () => {
  it("loads the whole session first, then shows its transcript rebuilt from the entries", () => {
    const { loader, sent, session, answerLast, changes } = setup();
    session.needsSessionLoad = true;
    loader.load(false);
    expect(session.needsSessionLoad).toBe(false);
    expect(sent.map((s) => s.command)).toEqual([{ type: "get_entries" }]);
    answerLast(entriesAnswer([user("u1", null, "hi"), assistant("a1", "u1", "hello")], "a1"));
    expect(session.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(loader.entries.entries.map((e) => e.id)).toEqual(["u1", "a1"]);
    expect(changes()).toBeGreaterThan(0);
    expect(sent).toHaveLength(1); // no get_messages needed
  });

  it("says a load is waiting for pi while it is (not for an advance), so the page does not look empty meanwhile", () => {
    const { loader, answerLast, loading } = setup();
    loader.load(false);
    expect(loader.loading).toBe(true);
    expect(loading).toEqual([true]);
    answerLast(entriesAnswer([user("u1", null, "hi")], "u1"));
    expect(loader.loading).toBe(false);
    expect(loading).toEqual([true, false]);
    loader.advance();
    expect(loader.loading).toBe(false);
    expect(loading).toEqual([true, false]);
    // A reset while loading (another session) ends it.
    loader.load(true);
    loader.reset();
    expect(loading).toEqual([true, false, true, false]);
  });

  it("a load answer older than the transcript on screen is not shown: the entries after it are asked for", () => {
    // Seen with pi 0.87.1 at start-up: an extension command's messages were written before the answer to an earlier get_entries, which did not hold them.
    const { loader, sent, session, answerLast } = setup();
    loader.load(false);
    session.messages.push({ role: "custom", customType: "report", content: "live", display: true, timestamp: 5 } as never);
    answerLast(entriesAnswer([user("u1", null, "hi")], "u1"));
    expect(session.messages.map((m) => m.role)).toEqual(["custom"]);
    expect(sent.at(-1)!.command).toEqual({ type: "get_entries", since: "u1" });
    // The next answer is not older than the transcript: shown (here through get_messages, as a custom message needs).
    answerLast(entriesAnswer([{ type: "custom_message", id: "c1", parentId: "u1", timestamp: at, customType: "report", content: "live", display: true }], "c1"));
    expect(sent.at(-1)!.command).toEqual({ type: "get_messages" });
  });

  it("after a reconnect asks only for the entries since its cursor, and appends them", () => {
    const { loader, sent, answerLast } = setup();
    loader.load(false);
    answerLast(entriesAnswer([user("u1", null, "hi"), assistant("a1", "u1", "hello")], "a1"));
    loader.load(false);
    expect(sent.at(-1)!.command).toEqual({ type: "get_entries", since: "a1" });
    answerLast(entriesAnswer([user("u2", "a1", "more")], "u2"));
    expect(loader.entries.entries.map((e) => e.id)).toEqual(["u1", "a1", "u2"]);
  });

  it("a fresh load (another session) forgets the entries and asks for all", () => {
    const { loader, sent, answerLast } = setup();
    loader.load(false);
    answerLast(entriesAnswer([user("u1", null, "hi")], "u1"));
    loader.load(true);
    expect(sent.at(-1)!.command).toEqual({ type: "get_entries" });
    expect(loader.entries.entries).toEqual([]);
  });

  it("asks pi for get_messages when the branch holds what only pi can compute (a compaction)", () => {
    const { loader, sent, answerLast } = setup();
    loader.load(false);
    answerLast(entriesAnswer([user("u1", null, "hi"), assistant("a1", "u1", "A"), compaction("c1", "a1", "a1")], "c1"));
    expect(sent.at(-1)!.command).toEqual({ type: "get_messages" });
  });

  it("starts over once with everything when pi does not know the cursor", () => {
    const { loader, sent, answerLast } = setup();
    loader.load(false);
    answerLast(entriesAnswer([user("u1", null, "hi")], "u1"));
    loader.load(false);
    answerLast({ type: "response", command: "get_entries", success: false, error: "unknown entry" } as RpcResponse);
    expect(sent.at(-1)!.command).toEqual({ type: "get_entries" });
    expect(loader.entries.entries).toEqual([]);
    // And a failure of that one asks for the transcript instead of looping.
    answerLast({ type: "response", command: "get_entries", success: false, error: "nope" } as RpcResponse);
    expect(sent.at(-1)!.command).toEqual({ type: "get_messages" });
  });

  it("advances the cursor one request at a time, asking once more after the one in flight", async () => {
    const { loader, sent, answerLast, session } = setup();
    loader.advance();
    expect(sent).toHaveLength(0); // nothing loaded yet: the load covers it
    loader.load(false);
    answerLast(entriesAnswer([user("u1", null, "hi")], "u1"));
    loader.advance();
    loader.advance();
    loader.advance();
    expect(sent.map((s) => s.command).slice(1)).toEqual([{ type: "get_entries", since: "u1" }]);
    const messagesBefore = session.messages;
    answerLast(entriesAnswer([assistant("a1", "u1", "A")], "a1"));
    // An advance does not touch the transcript.
    expect(session.messages).toBe(messagesBefore);
    await Promise.resolve();
    expect(sent.map((s) => s.command).slice(1)).toEqual([
      { type: "get_entries", since: "u1" },
      { type: "get_entries", since: "a1" },
    ]);
  });

  it("an advance that could not be sent does not block the next one", () => {
    const { loader, sent, answerLast, link } = setup();
    loader.load(false);
    answerLast(entriesAnswer([user("u1", null, "hi")], "u1"));
    link.offline = true;
    loader.advance();
    link.offline = false;
    loader.advance();
    expect(sent.map((s) => s.command).slice(1)).toEqual([{ type: "get_entries", since: "u1" }]);
  });

  it("takes only the answers to its own requests, and counts a replayed request as its own", () => {
    const { loader } = setup();
    expect(loader.take("someone-else:1")).toBeUndefined();
    loader.noteRequest("x:4", "a1");
    expect(loader.take("x:4")).toEqual({ since: "a1", purpose: "advance" });
    expect(loader.take("x:4")).toBeUndefined();
    loader.noteRequest("x:5", null);
    expect(loader.take("x:5")).toEqual({ since: null, purpose: "load" });
  });

  it("forgets entries of another session when get_state names a new one", () => {
    const { loader, answerLast } = setup();
    loader.noteSessionId("s1");
    expect(loader.entries.sessionId).toBe("s1");
    loader.load(false);
    answerLast(entriesAnswer([user("u1", null, "hi")], "u1"));
    loader.noteSessionId("s1");
    expect(loader.entries.entries).toHaveLength(1);
    loader.noteSessionId("s2");
    expect(loader.entries).toMatchObject({ sessionId: "s2", entries: [] });
  });

  it("refresh() brings the entries up to date through call(), starting over when the cursor is unknown", async () => {
    const { loader, calls, answerLast } = setup();
    loader.load(false);
    answerLast(entriesAnswer([user("u1", null, "hi")], "u1"));
    const done = loader.refresh();
    expect(calls[0]!.command).toEqual({ type: "get_entries", since: "u1" });
    calls[0]!.answer({ type: "response", command: "get_entries", success: false, error: "unknown" } as RpcResponse);
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.command).toEqual({ type: "get_entries" });
    calls[1]!.answer(entriesAnswer([user("u1", null, "hi"), assistant("a1", "u1", "A")], "a1"));
    await expect(done).resolves.toBeNull();
    expect(loader.entries.entries.map((e) => e.id)).toEqual(["u1", "a1"]);
  });

  it("refresh() says why when pi sends no entries", async () => {
    const { loader, calls } = setup();
    const done = loader.refresh();
    calls[0]!.answer({ type: "response", command: "get_entries", success: false, error: "pi is busy" } as RpcResponse);
    await expect(done).resolves.toBe("pi is busy");
  });

  it("forgets its requests when pi goes away, so it no longer says it is loading; the next load asks again", () => {
    const { loader, sent, answerLast, loading } = setup();
    loader.load(false);
    expect(loader.loading).toBe(true);
    loader.lost();
    expect(loader.loading).toBe(false);
    expect(loading).toEqual([true, false]);
    expect(loader.take(sent[0]!.id)).toBeUndefined();
    loader.load(false);
    answerLast(entriesAnswer([user("u1", null, "hi")], "u1"));
    expect(loader.loading).toBe(false);
    // An advance lost with pi does not block the next one.
    loader.advance();
    loader.lost();
    loader.advance();
    expect(sent.map((s) => s.command).slice(-2)).toEqual([
      { type: "get_entries", since: "u1" },
      { type: "get_entries", since: "u1" },
    ]);
  });

  it("drops a request the relay said pi cannot answer (pi exited while it waited), without asking again by itself", () => {
    vi.useFakeTimers();
    try {
      const { loader, sent } = setup();
      loader.load(false);
      expect(loader.dropped(sent[0]!.id)).toBe(true);
      expect(loader.loading).toBe(false);
      expect(loader.dropped("someone-elses")).toBe(false);
      vi.advanceTimersByTime(ENTRIES_RETRY_MS * 2);
      expect(sent).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  describe("a request the relay refused (rate_limited)", () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it("is asked again after a moment, for the same entries", () => {
      const { loader, sent } = setup();
      loader.load(false);
      loader.refused(sent[0]!.id);
      expect(loader.take(sent[0]!.id)).toBeUndefined();
      vi.advanceTimersByTime(ENTRIES_RETRY_MS - 1);
      expect(sent).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(sent.map((s) => s.command)).toEqual([{ type: "get_entries" }, { type: "get_entries" }]);
      expect(loader.take(sent[1]!.id)).toMatchObject({ since: null, purpose: "load" });
    });

    it("lets advancing go on instead of waiting forever", () => {
      const { loader, sent, answerLast } = setup();
      loader.load(false);
      answerLast(entriesAnswer([user("u1", null, "hi")], "u1"));
      loader.advance();
      loader.refused(sent.at(-1)!.id);
      vi.advanceTimersByTime(ENTRIES_RETRY_MS);
      expect(sent.map((s) => s.command).slice(1)).toEqual([
        { type: "get_entries", since: "u1" },
        { type: "get_entries", since: "u1" },
      ]);
    });
  });
});
