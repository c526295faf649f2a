// Rebuilds the live assistant message from wire `message_update` deltas.
//
// On the wire message_update carries only `{usage, assistantMessageEvent}`:
// no accumulated message, no `partial`. Blocks are keyed by contentIndex;
// a `*_end` payload replaces what the deltas built for that block, and
// message_end (handled by the reducer) replaces the whole message. Every
// write goes through `state.messages[i]` so a Svelte proxy sees it, and each
// delta costs O(1) apart from the string append itself.

import type {
  AssistantMessage,
  AssistantMessageEvent,
  TextContent,
  ThinkingContent,
  ToolCall,
  Usage,
} from "../pi-types.ts";
import type { SessionState } from "./session-state.ts";

type Block = AssistantMessage["content"][number];

/** A placeholder used when a replay starts in the middle of a message. */
export function emptyAssistantMessage(): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: "",
    provider: "",
    model: "",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "pending",
    timestamp: Date.now(),
  };
}

/** Start streaming `message` (from message_start) at the end of the transcript. */
export function beginAssistantStream(state: SessionState, message: AssistantMessage): void {
  state.messages.push({ ...message, content: [...(message.content ?? [])] });
  state.stream = { messageIndex: state.messages.length - 1, toolArgsText: {} };
}

/** The live message, creating one when deltas arrive without a message_start (truncated replay). */
function liveMessage(state: SessionState): AssistantMessage {
  if (state.stream === null) beginAssistantStream(state, emptyAssistantMessage());
  return state.messages[state.stream!.messageIndex] as AssistantMessage;
}

function makeBlock(kind: "text" | "thinking" | "toolCall"): Block {
  if (kind === "text") return { type: "text", text: "" } satisfies TextContent;
  if (kind === "thinking") return { type: "thinking", thinking: "" } satisfies ThinkingContent;
  return { type: "toolCall", id: "", name: "", arguments: {} } satisfies ToolCall;
}

/**
 * The block at `index`, of the given kind. Holes below it (a start that was
 * never seen) are filled with empty text blocks so the array stays dense.
 */
function blockAt(message: AssistantMessage, index: number, kind: "text" | "thinking" | "toolCall"): Block {
  const content = message.content;
  while (content.length < index) content.push(makeBlock("text"));
  const existing = content[index];
  if (existing === undefined || existing.type !== kind) content[index] = makeBlock(kind);
  return content[index]!;
}

/**
 * Same counts and cost (pi sends usage with every delta, mostly unchanged).
 * Only the fields pi has are compared, one by one (a generic comparison
 * costs more than the rest of the delta); a field a newer pi adds shows at
 * message_end, which replaces the message and its usage anyway.
 */
function sameUsage(a: Usage | null | undefined, b: Usage): boolean {
  if (a === b) return true;
  if (!a) return false;
  if (
    a.input !== b.input ||
    a.output !== b.output ||
    a.cacheRead !== b.cacheRead ||
    a.cacheWrite !== b.cacheWrite ||
    a.totalTokens !== b.totalTokens ||
    a.cacheWrite1h !== b.cacheWrite1h ||
    a.reasoning !== b.reasoning
  ) {
    return false;
  }
  const x = a.cost;
  const y = b.cost;
  if (x === y) return true;
  if (!x || !y) return false;
  return (
    x.input === y.input &&
    x.output === y.output &&
    x.cacheRead === y.cacheRead &&
    x.cacheWrite === y.cacheWrite &&
    x.total === y.total &&
    x.totalFromProvider === y.totalFromProvider
  );
}

export function applyAssistantEvent(state: SessionState, event: AssistantMessageEvent, usage: Usage | undefined): void {
  const message = liveMessage(state);
  // Only a change is written: in the browser each write of a new object
  // makes Svelte wrap it and re-run whatever shows it, once per delta.
  if (usage !== undefined) {
    if (!sameUsage(message.usage, usage)) message.usage = usage;
    if (!sameUsage(state.lastUsage, usage)) state.lastUsage = usage;
  }
  switch (event.type) {
    case "text_start":
      blockAt(message, event.contentIndex, "text");
      return;
    case "text_delta": {
      const block = blockAt(message, event.contentIndex, "text") as TextContent;
      block.text += event.delta;
      return;
    }
    case "text_end": {
      const block = blockAt(message, event.contentIndex, "text") as TextContent;
      block.text = event.content;
      return;
    }
    case "thinking_start":
      blockAt(message, event.contentIndex, "thinking");
      return;
    case "thinking_delta": {
      const block = blockAt(message, event.contentIndex, "thinking") as ThinkingContent;
      block.thinking += event.delta;
      return;
    }
    case "thinking_end": {
      const block = blockAt(message, event.contentIndex, "thinking") as ThinkingContent;
      block.thinking = event.content;
      return;
    }
    case "toolcall_start": {
      const block = blockAt(message, event.contentIndex, "toolCall") as ToolCall;
      block.id = event.id;
      block.name = event.toolName;
      state.stream!.toolArgsText[event.contentIndex] = "";
      return;
    }
    case "toolcall_delta": {
      blockAt(message, event.contentIndex, "toolCall");
      const args = state.stream!.toolArgsText;
      args[event.contentIndex] = (args[event.contentIndex] ?? "") + event.delta;
      return;
    }
    case "toolcall_end":
      message.content[event.contentIndex] = event.toolCall;
      delete state.stream!.toolArgsText[event.contentIndex];
      return;
    case "done":
      replaceStreamingMessage(state, event.message);
      return;
    case "error":
      replaceStreamingMessage(state, event.error);
      return;
    case "start":
      return;
    default:
      // A newer pi may add event types: ignore, message_end will be authoritative.
      return;
  }
}

/** Swap in the authoritative message without ending the stream. */
function replaceStreamingMessage(state: SessionState, message: AssistantMessage): void {
  if (state.stream === null) return;
  state.messages[state.stream.messageIndex] = message;
}

/** message_end for an assistant message: authoritative, replaces the rebuilt one. */
export function endAssistantStream(state: SessionState, message: AssistantMessage): void {
  if (state.stream === null) {
    state.messages.push(message);
  } else {
    state.messages[state.stream.messageIndex] = message;
    state.stream = null;
  }
  state.lastUsage = message.usage ?? state.lastUsage;
}

/** Raw argument JSON streamed so far for a tool call block, while it streams. */
export function streamingToolArgs(state: SessionState, contentIndex: number): string | undefined {
  return state.stream?.toolArgsText[contentIndex];
}
