// Keeps what pi sends once and never changes out of Svelte's deep reactivity.
//
// `connection.session` is a deep `$state`: Svelte wraps every plain object
// put into it in a Proxy (eagerly on write, lazily on read), with its own
// handler closures and a signal per field read. For a finished message that
// is all cost and no use: the reducer replaces messages, it never edits one
// after its message_end (only the live message grows, and that one is the
// reducer's own copy). In a 5,000-message session the proxies took more heap
// than the messages themselves.
//
// Svelte proxies only plain objects and arrays (prototype Object.prototype
// or Array.prototype): a settled value gets a prototype of its own instead,
// which itself inherits from Object.prototype, so nothing else about it
// changes (fields, JSON, spreading, `toString`). Deeper objects need nothing:
// Svelte only reaches them through their parent.

/** The prototype of values that never change once received. */
class Settled {}

/** Marks a plain object as never changing again (a no-op for anything else). Returns it. */
export function settle<T>(value: T): T {
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    Object.setPrototypeOf(value, Settled.prototype);
  }
  return value;
}

/**
 * Fields of a message that repeat in every message of a session ("openai-
 * completions", the model's id…): JSON.parse makes a new copy each time, a
 * settled message shares one. Bounded, in case a session names many models.
 */
const SHARED_FIELDS = ["role", "api", "provider", "model", "stopReason"] as const;
const shared = new Map<string, string>();
const MAX_SHARED = 256;

function settleMessage(value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  const message = value as Record<string, unknown>;
  for (const field of SHARED_FIELDS) {
    const text = message[field];
    if (typeof text !== "string") continue;
    const known = shared.get(text);
    if (known !== undefined) message[field] = known;
    else if (shared.size < MAX_SHARED) shared.set(text, text);
  }
  settle(message);
  settle(message.usage);
}

/**
 * Settles the immutable payloads of one pi stdout record before it is
 * reduced: finished messages, tool arguments and results, and the messages
 * and entries of get_messages / get_entries answers.
 */
export function settleRecord(value: unknown, bigArraySettled = false): void {
  if (typeof value !== "object" || value === null) return;
  const record = value as Record<string, unknown>;
  switch (record.type) {
    case "message_start":
    case "message_end":
      // An assistant message_start is copied into the live message, which
      // stays reactive; its usage is compared with every delta's.
      settleMessage(record.message);
      return;
    case "message_update": {
      // (Its usage is kept only when the counts changed: rarely, not worth a settle per delta.)
      const event = record.assistantMessageEvent as Record<string, unknown> | undefined;
      if (event?.type === "done") settleMessage(event.message);
      else if (event?.type === "error") settleMessage(event.error);
      return;
    }
    case "tool_execution_start":
      settle(record.args);
      return;
    case "tool_execution_update":
      settle(record.args);
      settle(record.partialResult);
      return;
    case "tool_execution_end":
      settle(record.result);
      return;
    case "response": {
      if (record.success !== true || bigArraySettled) return;
      const data = record.data as Record<string, unknown> | undefined;
      if (record.command === "get_messages" && Array.isArray(data?.messages)) data.messages.forEach(settleMessage);
      else if (record.command === "get_entries" && Array.isArray(data?.entries)) {
        for (const entry of data.entries as unknown[]) {
          if (typeof entry === "object" && entry !== null) settleMessage((entry as { message?: unknown }).message);
        }
      }
      return;
    }
    default:
      return;
  }
}

/**
 * Settles a slice of a long answer's big array as it arrives (`data.messages`
 * of get_messages, `data.entries` of get_entries: record-slices.ts), so that
 * settleRecord need not go over them again (its `bigArraySettled`).
 */
export function settleItems(field: "entries" | "messages", items: readonly unknown[]): void {
  if (field === "messages") items.forEach(settleMessage);
  else for (const entry of items) if (typeof entry === "object" && entry !== null) settleMessage((entry as { message?: unknown }).message);
}
