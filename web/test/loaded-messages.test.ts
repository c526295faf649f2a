import { describe, expect, it } from "vitest";
// Svelte's own deep-state proxy, as the browser wraps the session state in it (internal: no types).
// @ts-expect-error TS7016
import { proxy as svelteProxy } from "svelte/internal/client";
import { readableMessages } from "../src/lib/pi-state/loaded-messages.ts";
import { applyGetMessages, applyRecord } from "../src/lib/pi-state/reduce-record.ts";
import { createSessionState, type SessionState } from "../src/lib/pi-state/session-state.ts";
import { settleRecord } from "../src/lib/relay/settle-records.ts";
import type { AgentMessage, ConversationMessage } from "../src/lib/pi-types.ts";
import { errorAssistant, finalAssistant, msgEnd, msgStart, retryStart, simpleRun, user } from "./records.ts";

const proxy = svelteProxy as <T>(value: T) => T;

/** A session state as the browser holds it, loaded with `messages` (settled, as the connection settles pi's answers). */
function loadedState(messages: object[]): { state: SessionState; loaded: ConversationMessage[] } {
  const state = proxy(createSessionState());
  const answer = JSON.parse(JSON.stringify({ type: "response", command: "get_messages", success: true, data: { messages } }));
  settleRecord(answer);
  applyGetMessages(state, answer.data.messages as AgentMessage[]);
  return { state, loaded: answer.data.messages };
}

const apply = (state: SessionState, records: object[]) => {
  for (const record of records) {
    const value = JSON.parse(JSON.stringify(record));
    settleRecord(value);
    applyRecord(state, value, 0);
  }
};

const history = (pairs: number) => Array.from({ length: pairs }, (_, i) => [user(`q${i}`), finalAssistant([{ type: "text", text: `a${i}` }])]).flat();

describe("reading the loaded messages without the state's proxy", () => {
  it("reads the loaded messages from the array of the load: the same messages, not a signal each", () => {
    const { state, loaded } = loadedState(history(3));
    const readable = readableMessages(state.messages);
    expect(readable).not.toBe(state.messages);
    expect(readable).toHaveLength(6);
    expect(readable.every((message, i) => message === loaded[i] && message === state.messages[i])).toBe(true);
  });

  it("reads the messages after the load through the state: the live message is the reactive one", () => {
    const { state } = loadedState(history(2));
    apply(state, simpleRun("next", "streamed answer").slice(0, 9));
    const readable = readableMessages(state.messages);
    expect(readable.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
    expect(readable.every((message, i) => message === state.messages[i])).toBe(true);
    apply(state, simpleRun("next", "streamed answer").slice(9));
    const after = readableMessages(state.messages);
    expect(after.every((message, i) => message === state.messages[i])).toBe(true);
    expect(JSON.stringify(after.at(-1))).toContain("streamed answer");
  });

  it("falls back to the state once a loaded message is gone (a retry drops the failed answer)", () => {
    const { state } = loadedState([user("q"), errorAssistant("529 overloaded")]);
    apply(state, [{ type: "agent_start" }, retryStart(1, 2000)]);
    expect(readableMessages(state.messages)).toBe(state.messages);
    expect(state.messages.map((m) => m.role)).toEqual(["user"]);
    const retried = finalAssistant([{ type: "text", text: "second try" }]);
    apply(state, [msgStart(retried), msgEnd(retried)]);
    // As long as the state has this many messages again, but not the loaded ones.
    const readable = readableMessages(state.messages);
    expect(readable.every((message, i) => message === state.messages[i])).toBe(true);
    expect(JSON.stringify(readable.at(-1))).toContain("second try");
  });

  it("knows nothing of an array that came from no load, nor of a state that is no proxy (Node)", () => {
    const state = proxy(createSessionState());
    apply(state, simpleRun("q", "a"));
    expect(readableMessages(state.messages)).toBe(state.messages);
    const plain = createSessionState();
    applyGetMessages(plain, history(1) as AgentMessage[]);
    expect(readableMessages(plain.messages)).toBe(plain.messages);
  });

  it("a new load replaces the old one", () => {
    const { state } = loadedState(history(2));
    const again = JSON.parse(JSON.stringify({ type: "response", command: "get_messages", success: true, data: { messages: history(1) } }));
    settleRecord(again);
    applyGetMessages(state, again.data.messages);
    const readable = readableMessages(state.messages);
    expect(readable).toHaveLength(2);
    expect(readable.every((message, i) => message === again.data.messages[i])).toBe(true);
  });
});
