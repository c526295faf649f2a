// The session state as the page holds it (pi-state/session-store.svelte.ts,
// a deep Svelte `$state`) must end every captured transcript exactly as the
// plain objects the other reducer tests use do, and whoever reads it must
// see each change: the reducer takes shortcuts that only matter under the
// proxy (the live message's blocks and texts kept beside the state, lists
// replaced rather than changed in place), which the plain-object tests
// cannot catch.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { flushSync } from "svelte";
import { describe, expect, it } from "vitest";
import { applyRecord } from "../src/lib/pi-state/reduce-record.ts";
import { createSessionState, MAX_MARKERS, type SessionState } from "../src/lib/pi-state/session-state.ts";
import { createSessionStore } from "../src/lib/pi-state/session-store.svelte.ts";
import { settleRecord } from "../src/lib/relay/settle-records.ts";
import type { AssistantMessage } from "../src/lib/pi-types.ts";

// (Under jsdom import.meta.url is not a file: URL.)
const fixtures = join(import.meta.dirname, "fixtures");
const transcripts = readdirSync(fixtures)
  .filter((name) => name.endsWith(".jsonl"))
  .map((name) => ({ name, text: readFileSync(join(fixtures, name), "utf8") }));

/** Each record parsed afresh (settling and reducing keep the objects). */
function records(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as unknown);
}

/** Reduce as the page does: settle, apply (with a fixed clock), and flush Svelte's updates now and then. */
function reduce(state: SessionState, text: string): SessionState {
  records(text).forEach((record, i) => {
    settleRecord(record);
    applyRecord(state, record, 1000 + i);
    if (i % 7 === 0) flushSync();
  });
  flushSync();
  return state;
}

describe("the page's $state store", () => {
  it.each(transcripts)("ends $name as plain objects do", ({ text }) => {
    const plain = reduce(createSessionState(), text);
    const store = reduce(createSessionStore(), text);
    expect(JSON.parse(JSON.stringify(store))).toEqual(JSON.parse(JSON.stringify(plain)));
  });

  it("shows each delta of the live answer to whoever reads it", () => {
    const store = createSessionStore();
    const seen: string[] = [];
    const stop = $effect.root(() => {
      $effect(() => {
        const last = store.messages.at(-1) as AssistantMessage | undefined;
        const block = last?.content[0];
        seen.push(block?.type === "text" ? block.text : block?.type === "thinking" ? `thinking: ${block.thinking}` : "-");
      });
    });
    flushSync();
    const delta = (type: string, value: string) => applyRecord(store, { type: "message_update", assistantMessageEvent: { type, contentIndex: 0, delta: value, content: value } }, 0);
    applyRecord(store, { type: "message_start", message: { role: "assistant", content: [], api: "a", provider: "p", model: "m", stopReason: "stop", timestamp: 1 } }, 0);
    flushSync();
    delta("thinking_delta", "hm");
    flushSync();
    delta("thinking_end", "hmm");
    flushSync();
    applyRecord(store, { type: "message_update", assistantMessageEvent: { type: "text_start", contentIndex: 1 } }, 0);
    // A text delta for block 0, a thinking block: a text block takes its place (as with plain objects).
    delta("text_delta", "text now");
    flushSync();
    stop();
    expect(seen).toEqual(["-", "-", "thinking: hm", "thinking: hmm", "text now"]);
  });

  it("a finished answer replaces the live one under the same cursor, and later deltas go to the new one", () => {
    const store = createSessionStore();
    applyRecord(store, { type: "message_start", message: { role: "assistant", content: [], api: "a", provider: "p", model: "m", stopReason: "stop", timestamp: 1 } }, 0);
    applyRecord(store, { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "one" } }, 0);
    const done = { role: "assistant", content: [{ type: "text", text: "one, done" }], api: "a", provider: "p", model: "m", stopReason: "stop", timestamp: 1 };
    applyRecord(store, { type: "message_update", assistantMessageEvent: { type: "done", message: done } }, 0);
    applyRecord(store, { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "!" } }, 0);
    expect((store.messages[0] as AssistantMessage).content).toEqual([{ type: "text", text: "one, done!" }]);
  });

  it("keeps the newest markers, and whoever reads them sees each one added", () => {
    const store = createSessionStore();
    const counts: number[] = [];
    const stop = $effect.root(() => {
      $effect(() => {
        counts.push(store.markers.length);
      });
    });
    flushSync();
    for (let attempt = 1; attempt <= MAX_MARKERS + 2; attempt++) {
      applyRecord(store, { type: "auto_retry_start", attempt, maxAttempts: 9, delayMs: 1, errorMessage: `failure ${attempt}` }, attempt);
      if (attempt <= 2 || attempt > MAX_MARKERS) flushSync();
    }
    stop();
    expect(counts).toEqual([0, 1, 2, MAX_MARKERS, MAX_MARKERS]);
    expect(store.markers.length).toBe(MAX_MARKERS);
    expect(store.markers[0]).toMatchObject({ kind: "retry", attempt: 3 });
    expect(store.markers.at(-1)).toMatchObject({ kind: "retry", attempt: MAX_MARKERS + 2 });
  });
});
