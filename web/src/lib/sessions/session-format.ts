// Words for a saved session in the list: its title, when, how long, what it cost.
import type { SessionListItem } from "@pier/protocol";
import type { ConversationMessage } from "../pi-types.ts";

type Readable = Extract<SessionListItem, { readable: true }>;

/** The session's name, else its first prompt, else a placeholder. */
export function sessionTitle(item: Readable): string {
  return item.name ?? item.firstPrompt ?? "Empty session";
}

/** How much of a first prompt stands for an unnamed session in the header. */
const PROMPT_TITLE_CHARS = 80;

/**
 * What an unnamed session goes by in the header, as in the saved sessions
 * list: its first user message with any text, whitespace collapsed, cut to
 * a header's length. Stops at the first user message: while an answer
 * streams, nothing after it is read.
 */
export function firstPromptOf(messages: readonly ConversationMessage[]): string | null {
  for (const message of messages) {
    if (message.role !== "user") continue;
    const text = typeof message.content === "string" ? message.content : message.content.map((b) => (b.type === "text" ? b.text : "")).join(" ");
    const collapsed = text
      .slice(0, 4 * PROMPT_TITLE_CHARS)
      .replace(/\s+/g, " ")
      .trim();
    if (collapsed === "") continue;
    return collapsed.length > PROMPT_TITLE_CHARS ? `${collapsed.slice(0, PROMPT_TITLE_CHARS - 1).trimEnd()}…` : collapsed;
  }
  return null;
}

/** An unnamed session's first prompt, looking first at the messages a compaction took out of the context. */
export function sessionFirstPrompt(conn: { compactedHistory: readonly ConversationMessage[]; session: { messages: readonly ConversationMessage[] } }): string | null {
  return firstPromptOf(conn.compactedHistory) ?? firstPromptOf(conn.session.messages);
}

/** "just now", "5 min ago", "3 h ago", "yesterday", "12 Mar", "12 Mar 2024". */
export function relativeTime(ms: number, now = Date.now()): string {
  const seconds = Math.round((now - ms) / 1000);
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const date = new Date(ms);
  const today = new Date(now);
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
  if (date.toDateString() === yesterday.toDateString()) return "yesterday";
  const sameYear = date.getFullYear() === today.getFullYear();
  return date.toLocaleDateString(undefined, sameYear ? { day: "numeric", month: "short" } : { day: "numeric", month: "short", year: "numeric" });
}

/** "$0.04", "<$0.01", or null when nothing reported a cost (free models report 0). */
export function formatCost(cost: number | null): string | null {
  if (cost === null || !Number.isFinite(cost) || cost <= 0) return null;
  if (cost < 0.01) return "<$0.01";
  return `$${cost < 10 ? cost.toFixed(2) : cost.toFixed(0)}`;
}

export function messageCountText(count: number, partial: boolean): string {
  const plus = partial ? "+" : "";
  return count === 1 ? `1${plus} message` : `${count}${plus} messages`;
}
