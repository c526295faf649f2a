// The entries cache answers exactly what pi would print (pi's rpc-mode:
// JSON.stringify of `{id, type, command, success, data: {entries, leafId}}`),
// for all entries and after any cursor, and nothing once anything moved.
import { describe, expect, it } from "vitest";
import { EntriesCache, MAX_CACHED_ENTRIES_BYTES, entriesLayout } from "../../src/entries-cache.ts";

/** Entries with the awkward bytes: quotes, backslashes, braces and `"id":` inside strings, nested ids, non-ASCII. */
const entries = [
  { type: "message", id: "a1", parentId: null, timestamp: "t", message: { role: "user", content: 'say "}]{[" and \\" and "id":"b2"' } },
  { type: "message", id: "b2", parentId: "a1", timestamp: "t", message: { role: "assistant", content: [{ type: "toolCall", id: "c3", name: "x", arguments: { id: "a1" } }] } },
  { type: "model_change", id: "c3", parentId: "b2", timestamp: "t", provider: "p", modelId: "m ✓ \u2028" },
  { type: "message", id: "d4", parentId: "c3", timestamp: "t", message: { role: "user", content: "\\\\" } },
];

/** pi's answer line for `id`, with entries after `since` (pi's findIndex + slice). */
function piAnswer(id: string, since?: string): Buffer {
  const from = since === undefined ? 0 : entries.findIndex((e) => e.id === since) + 1;
  return Buffer.from(`${JSON.stringify({ id, type: "response", command: "get_entries", success: true, data: { entries: entries.slice(from), leafId: "d4" } })}\n`);
}

function filled(): EntriesCache<never> {
  const cache = new EntriesCache<never>();
  const capture = cache.capture();
  const line = piAnswer("first");
  // In pieces, as the router hands them on.
  capture.take(line.subarray(0, 7), false);
  capture.take(line.subarray(7, 100), false);
  capture.take(line.subarray(100), true);
  cache.finish(capture);
  return cache;
}

const joined = (pieces: Buffer[] | null) => (pieces === null ? null : Buffer.concat(pieces).toString("utf8"));

describe("EntriesCache", () => {
  it("answers all entries and after each cursor byte for byte as pi would, with the asker's id", () => {
    const cache = filled();
    expect(joined(cache.answer("late-1", null))).toBe(piAnswer("late-1").toString("utf8"));
    for (const since of ["a1", "b2", "c3", "d4"]) expect(joined(cache.answer(`s-${since}`, since))).toBe(piAnswer(`s-${since}`, since).toString("utf8"));
    // An id that needs escaping is written as pi would write it.
    expect(joined(cache.answer('we"ird\\id', null))).toBe(piAnswer('we"ird\\id').toString("utf8"));
  });

  it("leaves an unknown cursor to pi (it answers the error)", () => {
    expect(filled().answer("x", "zz")).toBeNull();
  });

  it("keeps nothing once something moved: before the answer came, or after", () => {
    const cache = new EntriesCache<never>();
    const capture = cache.capture();
    cache.invalidate();
    capture.take(piAnswer("first"), true);
    cache.finish(capture);
    expect(cache.answer("x", null)).toBeNull();

    const kept = filled();
    kept.invalidate();
    expect(kept.answer("x", null)).toBeNull();
    expect(kept.keptBytes).toBe(0);
  });

  it("lets a request wait for one in pi only while nothing moved", () => {
    const cache = new EntriesCache<string>();
    const capture = cache.capture();
    expect(cache.inFlight()).toBe(capture);
    cache.invalidate();
    expect(cache.inFlight()).toBeNull();
    cache.reset();
    expect(cache.inFlight()).toBeNull();
  });

  it("hands back the requests waiting on the answer in flight when pi goes away (each must be told)", () => {
    const cache = new EntriesCache<string>();
    cache.capture().waiters.push("a", "b");
    expect(cache.reset()).toEqual(["a", "b"]);
    // Told once: a second reset (starting after exited) has none left.
    expect(cache.reset()).toEqual([]);
  });

  it("does not keep a failed answer or one over the cap", () => {
    const cache = new EntriesCache<never>();
    const failed = cache.capture();
    failed.take(Buffer.from('{"id":"f","type":"response","command":"get_entries","success":false,"error":"no"}\n'), true);
    cache.finish(failed);
    expect(cache.answer("x", null)).toBeNull();

    const huge = cache.capture();
    const piece = Buffer.alloc(1024 * 1024, 0x20);
    for (let sent = 0; sent <= MAX_CACHED_ENTRIES_BYTES; sent += piece.length) huge.take(piece, false);
    huge.take(Buffer.from("\n"), true);
    expect(huge.bytes).toBeNull();
  });

  it("finds entries in an empty array and refuses a body that is not an array", () => {
    expect(entriesLayout(Buffer.from('"success":true,"data":{"entries":[],"leafId":null}}\n'))).toEqual({ starts: [], close: 34 });
    expect(entriesLayout(Buffer.from('"success":true,"data":{"entries":[{"a":"unterminated'))).toBeNull();
  });
});
