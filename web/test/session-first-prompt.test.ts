import { describe, expect, it } from "vitest";
import type { ConversationMessage } from "../src/lib/pi-types.ts";
import { firstPromptOf, sessionFirstPrompt } from "../src/lib/sessions/session-format.ts";

const user = (content: unknown) => ({ role: "user", content, timestamp: 1 }) as ConversationMessage;
const assistant = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], stopReason: "stop", timestamp: 2 }) as unknown as ConversationMessage;

describe("firstPromptOf: what an unnamed session goes by in the header", () => {
  it("is the first user message's text, whitespace collapsed", () => {
    expect(firstPromptOf([user("  fix\n\tthe   tests "), assistant("ok"), user("then this")])).toBe("fix the tests");
  });

  it("joins a message's text blocks and skips its images and messages with no text", () => {
    const withImage = user([
      { type: "image", data: "AAAA", mimeType: "image/png" },
      { type: "text", text: "what is" },
      { type: "text", text: "this?" },
    ]);
    expect(firstPromptOf([user("   "), user([{ type: "image", data: "AAAA", mimeType: "image/png" }]), withImage])).toBe("what is this?");
  });

  it("cuts a long prompt at 80 characters with an ellipsis", () => {
    const prompt = firstPromptOf([user(`${"word ".repeat(40)}end`)])!;
    expect(prompt).toHaveLength(80);
    expect(prompt.endsWith("word…")).toBe(true);
  });

  it("is null without a user message with text", () => {
    expect(firstPromptOf([])).toBeNull();
    expect(firstPromptOf([assistant("hello"), user("")])).toBeNull();
  });

  it("looks first at the messages a compaction took out of the context", () => {
    const session = { messages: [user("after the compaction")] };
    expect(sessionFirstPrompt({ compactedHistory: [user("the very first")], session })).toBe("the very first");
    expect(sessionFirstPrompt({ compactedHistory: [], session })).toBe("after the compaction");
  });
});
