// The relay's log of who sent which prompt, handed to browsers that join
// later: only prompts, steers and follow-ups; bounded by count and bytes,
// oldest dropped first; only what the replay can still echo; cleared when pi
// restarts.
import { describe, expect, it } from "vitest";
import type { Person } from "@pier/protocol";
import { MAX_SENT_BYTES, MAX_SENT_ENTRIES, SentLog, type SenderLookup } from "../../src/sent-log.ts";

const ada: Person = { clientId: "c-ada", name: "Ada", role: "driver", colour: "#c2410c" };
const bob: Person = { clientId: "c-bob", name: "Bob", role: "driver", colour: "#1971c2" };
const people: SenderLookup = {
  get: (id) => (id === ada.clientId ? ada : id === bob.clientId ? bob : undefined),
  grantOf: (id) => (id === ada.clientId ? { id: "g-ada" } : id === bob.clientId ? { id: "g-bob" } : undefined),
};

function note(log: SentLog, who: Person, command: Record<string, unknown>, offset: number): void {
  log.note(people, who.clientId, String(command["type"]), command, Buffer.from(JSON.stringify(command)), offset);
}

describe("SentLog", () => {
  it("keeps prompts, steers and follow-ups with their sender and place in the stream, nothing else", () => {
    const log = new SentLog();
    note(log, ada, { type: "prompt", id: "a:1", message: "hello" }, 100);
    note(log, bob, { type: "steer", message: "faster" }, 200);
    note(log, ada, { type: "follow_up", message: "and then" }, 300);
    note(log, ada, { type: "bash", command: "ls" }, 400);
    note(log, ada, { type: "abort" }, 400);
    note(log, ada, { type: "prompt" }, 400);
    const sent = log.forJoiner("g-other", 0);
    expect(sent.map((s) => [s.sender.name, JSON.parse(s.line).message, s.offset])).toEqual([
      ["Ada", "hello", 100],
      ["Bob", "faster", 200],
      ["Ada", "and then", 300],
    ]);
    expect(sent[0]!.line).toBe(JSON.stringify({ type: "prompt", id: "a:1", message: "hello" }));
    expect(sent.every((s) => s.mine === undefined)).toBe(true);
  });

  it("forgets a command from a browser the room does not know", () => {
    const log = new SentLog();
    log.note(people, "c-gone", "prompt", { type: "prompt", message: "x" }, "{}", 0);
    expect(log.size).toBe(0);
  });

  it("hands a joiner only what its replay can still echo, with offsets counted from the replay's start", () => {
    const log = new SentLog();
    note(log, ada, { type: "prompt", message: "before the replay" }, 999);
    note(log, bob, { type: "prompt", message: "at its start" }, 1000);
    note(log, ada, { type: "prompt", message: "later" }, 5000);
    expect(log.forJoiner("g-other", 1000).map((s) => [JSON.parse(s.line).message, s.offset])).toEqual([
      ["at its start", 0],
      ["later", 4000],
    ]);
  });

  it("marks what the joiner's own browser (the same grant) sent before it reloaded", () => {
    const log = new SentLog();
    note(log, ada, { type: "prompt", message: "mine" }, 0);
    note(log, bob, { type: "prompt", message: "Bob's" }, 10);
    expect(log.forJoiner("g-ada", 0).map((s) => s.mine)).toEqual([true, undefined]);
    expect(log.forJoiner("g-bob", 0).map((s) => s.mine)).toEqual([undefined, true]);
  });

  it("keeps images' places but not their data", () => {
    const log = new SentLog();
    const data = "A".repeat(100_000);
    note(
      log,
      ada,
      {
        type: "prompt",
        message: "look",
        images: [
          { type: "image", data, mimeType: "image/png" },
          { type: "image", data, mimeType: "image/png" },
        ],
      },
      0,
    );
    const [entry] = log.forJoiner("g-other", 0);
    expect(JSON.parse(entry!.line)).toEqual({ type: "prompt", message: "look", images: [{ type: "image" }, { type: "image" }] });
    expect(log.bytes).toBeLessThan(200);
  });

  it("holds at most MAX_SENT_ENTRIES, dropping the oldest", () => {
    const log = new SentLog();
    for (let i = 0; i < MAX_SENT_ENTRIES + 10; i++) note(log, ada, { type: "prompt", message: `p${i}` }, i);
    expect(log.size).toBe(MAX_SENT_ENTRIES);
    const sent = log.forJoiner("g-other", 0);
    expect(JSON.parse(sent[0]!.line).message).toBe("p10");
    expect(JSON.parse(sent.at(-1)!.line).message).toBe(`p${MAX_SENT_ENTRIES + 9}`);
  });

  it("holds at most MAX_SENT_BYTES of lines, dropping the oldest; one prompt bigger than that is not kept", () => {
    const log = new SentLog();
    const big = "x".repeat(MAX_SENT_BYTES / 4);
    for (let i = 0; i < 6; i++) note(log, ada, { type: "prompt", message: `${i}${big}` }, i);
    expect(log.bytes).toBeLessThanOrEqual(MAX_SENT_BYTES);
    expect(log.size).toBe(3);
    expect(JSON.parse(log.forJoiner("g-other", 0)[0]!.line).message[0]).toBe("3");
    note(log, ada, { type: "prompt", message: "y".repeat(MAX_SENT_BYTES) }, 7);
    expect(log.size).toBe(3);
    // Multi-byte text is counted in bytes, not characters.
    const wide = new SentLog();
    note(wide, ada, { type: "prompt", message: "é".repeat(MAX_SENT_BYTES / 2) }, 0);
    expect(wide.size).toBe(0);
  });

  it("is emptied when pi restarts", () => {
    const log = new SentLog();
    note(log, ada, { type: "prompt", message: "hello" }, 0);
    log.clear();
    expect(log.size).toBe(0);
    expect(log.bytes).toBe(0);
    expect(log.forJoiner("g-ada", 0)).toEqual([]);
  });
});
