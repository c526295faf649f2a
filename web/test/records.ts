// Hand-written pi 0.87.1 records shaped like a captured transcript. Builders
// keep the tests short; real captured fixtures can be fed to `reduceAll` the
// same way (an array of parsed stdout records).

export const usage = (output = 0) => ({
  input: 10,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 10 + output,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

export const assistantBase = {
  role: "assistant",
  api: "openai-completions",
  provider: "pier-demo",
  model: "scripted",
  usage: usage(),
  timestamp: 1700000000000,
};

export const msgStart = (message: object) => ({ type: "message_start", message });
export const msgEnd = (message: object) => ({ type: "message_end", message });
export const update = (assistantMessageEvent: object, out = 0) => ({
  type: "message_update",
  usage: usage(out),
  assistantMessageEvent,
});

export const user = (text: string) => ({ role: "user", content: [{ type: "text", text }], timestamp: 1700000000000 });
export const pendingAssistant = () => ({ ...assistantBase, content: [], stopReason: "pending" });
export const finalAssistant = (content: object[], stopReason = "stop") => ({ ...assistantBase, content, stopReason });

export const systemPrompt = {
  role: "system",
  content: "",
  sections: { preamble: "You are pi.", tools: "read, bash" },
  timestamp: 1700000000000,
};

/** One complete prompt → text answer run, as pi emits it. */
export function simpleRun(question: string, answer: string): object[] {
  return [
    { type: "agent_start" },
    { type: "turn_start" },
    msgStart(systemPrompt),
    msgEnd(systemPrompt),
    msgStart(user(question)),
    msgEnd(user(question)),
    msgStart(pendingAssistant()),
    update({ type: "text_start", contentIndex: 0 }),
    update({ type: "text_delta", contentIndex: 0, delta: answer.slice(0, 2) }),
    update({ type: "text_delta", contentIndex: 0, delta: answer.slice(2) }),
    update({ type: "text_end", contentIndex: 0, content: answer }, 3),
    msgEnd(finalAssistant([{ type: "text", text: answer }])),
    { type: "turn_end", message: finalAssistant([{ type: "text", text: answer }]), toolResults: [] },
    { type: "agent_end", messages: [], willRetry: false },
    { type: "agent_settled" },
  ];
}

export const errorAssistant = (errorMessage: string, content: object[] = []) => ({
  ...assistantBase,
  content,
  stopReason: "error",
  errorMessage,
});

export const retryStart = (attempt: number, delayMs = 2000, errorMessage = "529 overloaded", maxAttempts = 3) => ({
  type: "auto_retry_start",
  attempt,
  maxAttempts,
  delayMs,
  errorMessage,
});
export const retryEnd = (attempt: number, success: boolean, finalError?: string) => ({
  type: "auto_retry_end",
  success,
  attempt,
  ...(finalError === undefined ? {} : { finalError }),
});
/** What pi appends right after auto_retry_start: the failed message leaves the context. */
export const contextEdit = (targetId: string) => ({
  type: "entry_appended",
  entry: { type: "context_edit", id: `edit-${targetId}`, parentId: targetId, timestamp: "2026-01-01T00:00:00.000Z", targetId, replacement: null },
});

export const compactionResult = (summary = "## Goal\nsummary") => ({
  summary,
  firstKeptEntryId: "abc123",
  tokensBefore: 975,
  estimatedTokensAfter: 300,
  usage: usage(22),
  details: { readFiles: [], modifiedFiles: [] },
});

export const response = (command: string, id: string | undefined, data?: unknown, success = true, error?: string) => ({
  type: "response",
  command,
  success,
  ...(id === undefined ? {} : { id }),
  ...(data === undefined ? {} : { data }),
  ...(error === undefined ? {} : { error }),
});
