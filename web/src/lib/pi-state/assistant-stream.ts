// Rebuilds the live assistant message from wire `message_update` deltas.
//
// On the wire message_update carries only `{usage, assistantMessageEvent}`:
// no accumulated message, no `partial`. Blocks are keyed by contentIndex;
// a `*_end` payload replaces what the deltas built for that block, and
// message_end (handled by the reducer) replaces the whole message. Every
// write goes through `state.messages[i]` so a Svelte proxy sees it, and each
// delta costs O(1) apart from the string append itself.

import type { AssistantMessage, AssistantMessageEvent, TextContent, ThinkingContent, ToolCall, Usage } from "../pi-types.ts";
import type { SessionState, StreamCursor } from "./session-state.ts";

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

/** Start streaming `message` (from message_start) at the end of the transcript; returns the new cursor. */
export function beginAssistantStream(state: SessionState, message: AssistantMessage): StreamCursor {
  state.messages.push({ ...message, content: [...(message.content ?? [])] });
  state.stream = { messageIndex: state.messages.length - 1, toolArgsText: {} };
  // Read back: the state's proxy of the cursor, which later reads of state.stream return.
  return state.stream;
}

/**
 * What a delta needs, kept beside the state rather than in it. In the page
 * `state` is a deep Svelte proxy: every field read goes through a trap, and
 * finding the block and comparing the usage took ~30 of them per delta, more
 * than the rest of the delta's work. The live message and its blocks are
 * remembered here (as the proxies the state hands out, so writes to them
 * stay reactive) for as long as the stream cursor is the same object (a new
 * message_start or get_messages makes a new one; `done` and `error`, which
 * replace the message under the same cursor, drop the cache), with each
 * block's text as last written here, so that a delta reads one field of the
 * state (the cursor) and writes one (the text). The usage is compared with
 * the last one pi sent, a plain object.
 */
interface LiveCache {
  stream: StreamCursor;
  message: AssistantMessage;
  /** content[i] as last found or made here, while it is still of that kind. */
  blocks: (LiveBlock | undefined)[];
  /** The usage pi sent with the last delta (a wire object, not a proxy). */
  usage: Usage | undefined;
  /** Blocks whose text is ahead of the state's (see deferLiveText). */
  behind: LiveBlock[];
}
interface LiveBlock {
  block: Block;
  /** Its text (a text block) or thinking (a thinking block), as last written; "" for a tool call. */
  text: string;
  /** `text` is not in the state yet (deferLiveText). */
  behind: boolean;
}
const liveCaches = new WeakMap<SessionState, LiveCache>();

/**
 * States whose text deltas are written into the state once per batch of
 * records rather than once each (see deferLiveText).
 */
const deferring = new WeakSet<SessionState>();

/**
 * From now on, the text and thinking deltas reduced into `state` are
 * written into it when flushLiveText is called, not one by one. For the
 * page, which applies records in slices and flushes after each (nothing
 * reads the text in between: Svelte draws after the slice): in its deep
 * $state each write goes through a proxy trap and tells Svelte, and a fast
 * answer brings hundreds of deltas to a block in one frame. Every record is
 * still reduced as it comes (the cache beside the state holds the text);
 * only the writes of one block's text are made one. Without this (tests,
 * plain objects), every delta is written as it comes.
 */
export function deferLiveText(state: SessionState): void {
  deferring.add(state);
}

/** Writes the text that deltas brought since the last flush into the state (see deferLiveText). */
export function flushLiveText(state: SessionState): void {
  const cache = liveCaches.get(state);
  if (cache !== undefined) writeBehind(cache);
}

function writeBehind(cache: LiveCache): void {
  if (cache.behind.length === 0) return;
  for (const found of cache.behind) if (found.behind) writeText(found);
  cache.behind.length = 0;
}

function writeText(found: LiveBlock): void {
  found.behind = false;
  if (found.block.type === "text") found.block.text = found.text;
  else if (found.block.type === "thinking") found.block.thinking = found.text;
}

/** A delta grew the block's text: into the state now, or at the next flush. */
function grew(state: SessionState, live: LiveCache, found: LiveBlock): void {
  if (!deferring.has(state)) return writeText(found);
  if (found.behind) return;
  found.behind = true;
  live.behind.push(found);
}

/** The live message, creating one when deltas arrive without a message_start (truncated replay). */
function liveMessage(state: SessionState): LiveCache {
  const stream = state.stream ?? beginAssistantStream(state, emptyAssistantMessage());
  const cache = liveCaches.get(state);
  if (cache !== undefined && cache.stream === stream) return cache;
  // Another message streams now: what the last one's deltas brought goes in first.
  if (cache !== undefined) writeBehind(cache);
  const message = state.messages[stream.messageIndex] as AssistantMessage;
  const fresh: LiveCache = { stream, message, blocks: [], usage: undefined, behind: [] };
  liveCaches.set(state, fresh);
  return fresh;
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
function blockAt(live: LiveCache, index: number, kind: "text" | "thinking" | "toolCall"): LiveBlock {
  const known = live.blocks[index];
  if (known !== undefined && known.block.type === kind) return known;
  const content = live.message.content;
  while (content.length < index) content.push(makeBlock("text"));
  const existing = content[index];
  if (existing === undefined || existing.type !== kind) content[index] = makeBlock(kind);
  // Read back: the state's proxy of the block, whose writes Svelte sees.
  const block = content[index]!;
  const text = block.type === "text" ? block.text : block.type === "thinking" ? block.thinking : "";
  const found: LiveBlock = { block, text: typeof text === "string" ? text : "", behind: false };
  live.blocks[index] = found;
  return found;
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
  return x.input === y.input && x.output === y.output && x.cacheRead === y.cacheRead && x.cacheWrite === y.cacheWrite && x.total === y.total && x.totalFromProvider === y.totalFromProvider;
}

export function applyAssistantEvent(state: SessionState, event: AssistantMessageEvent, usage: Usage | undefined): void {
  const live = liveMessage(state);
  // Only a change is written: in the browser each write of a new object
  // makes Svelte wrap it and re-run whatever shows it, once per delta.
  if (usage !== undefined && !sameUsage(live.usage, usage)) {
    live.usage = usage;
    const message = live.message;
    if (!sameUsage(message.usage, usage)) message.usage = usage;
    if (!sameUsage(state.lastUsage, usage)) state.lastUsage = usage;
  }
  switch (event.type) {
    case "text_start":
      blockAt(live, event.contentIndex, "text");
      return;
    case "text_delta": {
      const found = blockAt(live, event.contentIndex, "text");
      found.text += event.delta;
      grew(state, live, found);
      return;
    }
    case "text_end": {
      const found = blockAt(live, event.contentIndex, "text");
      found.text = event.content;
      writeText(found);
      return;
    }
    case "thinking_start":
      blockAt(live, event.contentIndex, "thinking");
      return;
    case "thinking_delta": {
      const found = blockAt(live, event.contentIndex, "thinking");
      found.text += event.delta;
      grew(state, live, found);
      return;
    }
    case "thinking_end": {
      const found = blockAt(live, event.contentIndex, "thinking");
      found.text = event.content;
      writeText(found);
      return;
    }
    case "toolcall_start": {
      const block = blockAt(live, event.contentIndex, "toolCall").block as ToolCall;
      block.id = event.id;
      block.name = event.toolName;
      live.stream.toolArgsText[event.contentIndex] = "";
      return;
    }
    case "toolcall_delta": {
      blockAt(live, event.contentIndex, "toolCall");
      const args = live.stream.toolArgsText;
      args[event.contentIndex] = (args[event.contentIndex] ?? "") + event.delta;
      return;
    }
    case "toolcall_end":
      live.message.content[event.contentIndex] = event.toolCall;
      live.blocks[event.contentIndex] = undefined;
      delete live.stream.toolArgsText[event.contentIndex];
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

/** Swap in the authoritative message without ending the stream (its blocks are no longer the cached ones). */
function replaceStreamingMessage(state: SessionState, message: AssistantMessage): void {
  if (state.stream === null) return;
  state.messages[state.stream.messageIndex] = message;
  liveCaches.delete(state);
}

/** message_end for an assistant message: authoritative, replaces the rebuilt one. */
export function endAssistantStream(state: SessionState, message: AssistantMessage): void {
  if (state.stream === null) {
    state.messages.push(message);
  } else {
    state.messages[state.stream.messageIndex] = message;
    state.stream = null;
    // The message is pi's now: text its deltas left for a flush is not written over it.
    liveCaches.delete(state);
  }
  state.lastUsage = message.usage ?? state.lastUsage;
}

/** Raw argument JSON streamed so far for a tool call block, while it streams. */
export function streamingToolArgs(state: SessionState, contentIndex: number): string | undefined {
  return state.stream?.toolArgsText[contentIndex];
}
