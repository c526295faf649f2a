// Who wrote a user message: prompts are matched to pi's echoed user messages
// by text, images and order; anything unmatched stays unlabelled.
import { describe, expect, it } from "vitest";
import type { Person } from "@pier/protocol";
import { MAX_PENDING, PromptMatcher, userMessageKey, type Author } from "../src/lib/room/attribution.ts";

const ada: Person = { clientId: "c-ada", name: "Ada", role: "driver", colour: "#e8590c" };
const bob: Person = { clientId: "c-bob", name: "Bob", role: "driver", colour: "#1c7ed6" };
const byAda: Author = { kind: "person", person: ada };
const byBob: Author = { kind: "person", person: bob };
const self: Author = { kind: "self" };

const user = (text: string, images = 0, timestamp = 1) => ({
  role: "user",
  content: images === 0 ? text : [{ type: "text", text }, ...Array.from({ length: images }, () => ({ type: "image", data: "", mimeType: "image/png" }))],
  timestamp,
});

describe("PromptMatcher", () => {
  it("gives each echoed message the sender of the same text, in the order they were sent", () => {
    const matcher = new PromptMatcher();
    matcher.sent(byAda, { type: "prompt", message: "hello" });
    matcher.sent(self, { type: "steer", message: "faster" });
    matcher.sent(byBob, { type: "prompt", message: "hello" });
    expect(matcher.match(user("hello"))).toEqual(byAda);
    expect(matcher.match(user("faster"))).toEqual(self);
    expect(matcher.match(user("hello"))).toEqual(byBob);
    // Taken once: a fourth "hello" nobody sent (as far as this browser knows) has no author.
    expect(matcher.match(user("hello"))).toBeNull();
  });

  it("tells prompts apart by their images too", () => {
    const matcher = new PromptMatcher();
    matcher.sent(byAda, { type: "prompt", message: "look", images: [{ type: "image", data: "", mimeType: "image/png" }] });
    matcher.sent(byBob, { type: "prompt", message: "look" });
    expect(matcher.match(user("look"))).toEqual(byBob);
    expect(matcher.match(user("look", 1))).toEqual(byAda);
  });

  it("leaves a message unlabelled when its text was changed by pi (a template) or never sent here", () => {
    const matcher = new PromptMatcher();
    matcher.sent(byAda, { type: "prompt", message: "/explain src/cli.js" });
    expect(matcher.match(user("Explain what src/cli.js does"))).toBeNull();
    expect(matcher.match(user("typed before this page connected"))).toBeNull();
  });

  it("ignores other commands and what is not a user message", () => {
    const matcher = new PromptMatcher();
    matcher.sent(byAda, { type: "abort" });
    matcher.sent(byAda, { type: "prompt" });
    matcher.sent(byAda, null);
    expect(matcher.size).toBe(0);
    matcher.sent(byAda, { type: "prompt", message: "x" });
    expect(matcher.match({ role: "assistant", content: [{ type: "text", text: "x" }] })).toBeNull();
    expect(matcher.size).toBe(1);
  });

  it("forgets queued steers and follow-ups when pi's queue is cleared, not prompts pi already took", () => {
    const matcher = new PromptMatcher();
    matcher.sent(byAda, { type: "prompt", message: "same" });
    matcher.sent(byBob, { type: "follow_up", message: "same" });
    matcher.sent(byBob, { type: "prompt", message: "later", streamingBehavior: "followUp" });
    matcher.queueCleared();
    expect(matcher.match(user("later"))).toBeNull();
    expect(matcher.match(user("same"))).toEqual(byAda);
    expect(matcher.match(user("same"))).toBeNull();
  });

  it("holds a bounded number of unmatched prompts, dropping the oldest", () => {
    const matcher = new PromptMatcher();
    for (let i = 0; i < MAX_PENDING + 5; i++) matcher.sent(byAda, { type: "prompt", message: `p${i}` });
    expect(matcher.size).toBe(MAX_PENDING);
    expect(matcher.match(user("p0"))).toBeNull();
    expect(matcher.match(user(`p${MAX_PENDING + 4}`))).toEqual(byAda);
  });
});

describe("userMessageKey", () => {
  it("names a user message by pi's timestamp and its content's size, the same in every rebuild", () => {
    expect(userMessageKey(user("hi", 0, 1700))).toBe("1700:2:0");
    expect(userMessageKey(user("hi", 2, 1700))).toBe("1700:2:2");
    expect(userMessageKey({ role: "user", content: "hi" })).toBeNull();
    expect(userMessageKey({ role: "assistant", content: [], timestamp: 1 })).toBeNull();
    expect(userMessageKey(null)).toBeNull();
  });
});

describe("PromptMatcher after a reload (the relay's log of who sent what)", () => {
  it("matches a replayed user message only with a logged prompt, never with one this page sent meanwhile", () => {
    const matcher = new PromptMatcher();
    matcher.sent(byAda, { type: "prompt", message: "again" }, true);
    // Typed while reconnecting, sent as soon as the hello came: its echo is still to come.
    matcher.sent(self, { type: "prompt", message: "again" });
    expect(matcher.match(user("again"), true)).toEqual(byAda);
    expect(matcher.match(user("again"), true)).toBeNull();
    expect(matcher.match(user("again"))).toEqual(self);
  });

  it("lets a logged prompt whose echo comes after the replay match live, before newer ones", () => {
    const matcher = new PromptMatcher();
    matcher.sent(byAda, { type: "follow_up", message: "then this" }, true);
    matcher.sent(byBob, { type: "follow_up", message: "then this" });
    expect(matcher.match(user("then this"))).toEqual(byAda);
    expect(matcher.match(user("then this"))).toEqual(byBob);
  });
});
