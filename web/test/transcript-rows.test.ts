import { describe, expect, it } from "vitest";
import { isMessageRow, rowKey, transcriptRows } from "../src/lib/transcript/transcript-rows.ts";
import { distanceFromBottom, nextFollow, NEAR_BOTTOM_PX } from "../src/lib/transcript/follow.ts";
import type { ConversationMessage, SystemMessage } from "../src/lib/pi-types.ts";
import type { TranscriptMarker } from "../src/lib/pi-state/session-state.ts";

const user = (text: string) => ({ role: "user", content: text, timestamp: 1 }) as ConversationMessage;
const assistant = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], stopReason: "stop", timestamp: 1 }) as unknown as ConversationMessage;
const toolResult = () => ({ role: "toolResult", toolCallId: "c1", toolName: "read", content: [], isError: false, timestamp: 1 }) as unknown as ConversationMessage;
const custom = (display: boolean) => ({ role: "custom", customType: "x", content: "c", display, timestamp: 1 }) as unknown as ConversationMessage;
const system = { role: "system", content: "You are pi.", timestamp: 1 } as unknown as SystemMessage;
const marker = (seq: number, beforeIndex: number) => ({ kind: "retryEnd", seq, beforeIndex, at: seq, attempt: 1, success: true, finalError: null }) as unknown as TranscriptMarker;

describe("transcriptRows", () => {
  it("puts the system prompt first and skips tool results and hidden custom messages", () => {
    const rows = transcriptRows(system, [user("a"), assistant("b"), toolResult(), custom(false), custom(true)], []);
    expect(rows.map(rowKey)).toEqual(["system", "message:0", "message:1", "message:4"]);
    expect(rows[0]).toMatchObject({ kind: "system" });
    // A message's row is its index: no object per message.
    expect(rows.slice(1)).toEqual([0, 1, 4]);
    expect(rows.map(isMessageRow)).toEqual([false, true, true, true]);
  });

  it("places markers before the message they precede, in arrival order, and clamps past-the-end ones", () => {
    const rows = transcriptRows(null, [user("a"), assistant("b")], [marker(3, 1), marker(1, 1), marker(2, 9), marker(4, 0)]);
    expect(rows.map(rowKey)).toEqual(["marker:4", "message:0", "marker:3", "marker:1", "message:1", "marker:2"]);
  });

  it("keeps keys stable while the transcript grows (a row keeps its measured height)", () => {
    const before = transcriptRows(system, [user("a"), assistant("b")], []);
    const after = transcriptRows(system, [user("a"), assistant("b"), user("c"), assistant("d")], []);
    expect(after.slice(0, before.length).map(rowKey)).toEqual(before.map(rowKey));
  });

  it("is linear enough for thousands of messages", () => {
    const messages = Array.from({ length: 10_000 }, (_, i) => (i % 2 ? assistant(`a${i}`) : user(`u${i}`)));
    const rows = transcriptRows(system, messages, []);
    expect(rows).toHaveLength(10_001);
    expect(rows.at(-1)).toBe(9_999);
  });
});

describe("following the stream", () => {
  const at = (scrollTop: number, scrollHeight = 5000, clientHeight = 800) => ({ scrollTop, scrollHeight, clientHeight });

  it("measures the distance from the bottom", () => {
    expect(distanceFromBottom(at(4200))).toBe(0);
    expect(distanceFromBottom(at(4000))).toBe(200);
  });

  it("keeps following when content grows under a stuck view (scrollTop did not move up)", () => {
    expect(nextFollow(true, at(4200, 6000), 4200, false)).toBe(true);
    expect(nextFollow(true, at(4200, 6000), 4200, true)).toBe(true);
  });

  it("keeps following when layout moves scrollTop up without the person doing anything", () => {
    // The virtualizer correcting scrollTop, or the browser clamping it while a message re-renders.
    expect(nextFollow(true, at(3000), 4200, false)).toBe(true);
  });

  it("stops following when the person scrolls up, and resumes near the bottom", () => {
    const stopped = nextFollow(true, at(3000), 4200, true);
    expect(stopped).toBe(false);
    expect(nextFollow(stopped, at(3500), 3000, true)).toBe(false);
    expect(nextFollow(stopped, at(4200 - NEAR_BOTTOM_PX + 1), 3500, true)).toBe(true);
  });
});
