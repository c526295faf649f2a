import { describe, expect, it } from "vitest";
import type { ConversationMessage, SystemMessage } from "../src/lib/pi-types.ts";
import { transcriptRows } from "../src/lib/transcript/transcript-rows.ts";
import { matchingRows, rowSearchText } from "../src/lib/transcript/transcript-search.ts";

const user = (content: unknown) => ({ role: "user", content, timestamp: 1 }) as ConversationMessage;
const assistant = (content: unknown[]) => ({ role: "assistant", content, stopReason: "stop", timestamp: 2 }) as unknown as ConversationMessage;
const system = { role: "system", content: "You are pi. Secret words.", timestamp: 0 } as unknown as SystemMessage;

const messages: ConversationMessage[] = [
  user("How do I parse the Config file?"),
  assistant([
    { type: "thinking", thinking: "They want the parser." },
    { type: "text", text: "Use `parseConfig` from src/config.ts." },
    { type: "toolCall", id: "t1", name: "bash", arguments: { command: "grep -rn parseConfig src" } },
    { type: "toolCall", id: "t2", name: "read", arguments: { path: "src/config.ts" } },
  ]),
  { role: "toolResult", toolCallId: "t1", toolName: "bash", content: [{ type: "text", text: "hidden result text" }], isError: false, timestamp: 3 } as unknown as ConversationMessage,
  user([
    { type: "text", text: "And the image?" },
    { type: "image", data: "AAAA", mimeType: "image/png" },
  ]),
  { role: "bashExecution", command: "ls -la", output: "README.md\nsrc", exitCode: 0, cancelled: false, truncated: false, timestamp: 4 } as ConversationMessage,
  { role: "compactionSummary", summary: "Summary words", tokensBefore: 10, timestamp: 5 } as unknown as ConversationMessage,
];
const rows = transcriptRows(system, messages, []);

describe("transcript search", () => {
  it("searches what rows show: texts, tool headlines, commands and their output", () => {
    const texts = rows.map((row) => rowSearchText(row, messages));
    expect(texts[0]).toBe(""); // the system prompt (collapsed) is not searched
    expect(texts[2]).toBe("Use `parseConfig` from src/config.ts.\ngrep -rn parseConfig src\nsrc/config.ts");
    expect(texts[3]).toBe("And the image?");
    expect(texts[4]).toBe("ls -la\nREADME.md\nsrc");
  });

  it("finds rows ignoring case, top to bottom, and nothing for a blank query", () => {
    expect(matchingRows(rows, messages, "parseconfig")).toEqual([2]);
    expect(matchingRows(rows, messages, "  README  ")).toEqual([4]);
    expect(matchingRows(rows, messages, "src")).toEqual([2, 4]);
    expect(matchingRows(rows, messages, "config")).toEqual([1, 2]);
    expect(matchingRows(rows, messages, "   ")).toEqual([]);
  });

  it("does not find collapsed or hidden text: thoughts, tool results, summaries, the system prompt", () => {
    for (const hidden of ["want the parser", "hidden result", "Summary words", "Secret words"]) expect(matchingRows(rows, messages, hidden)).toEqual([]);
  });
});
