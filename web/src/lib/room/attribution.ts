// Who wrote a user message. pi's user message does not say which browser
// sent its prompt, but it carries the prompt's text (and images), in the
// order pi took them. So every prompt, steer and follow-up is queued here as
// it is sent (by this browser, or announced by the relay as another's), and
// the user message pi echoes takes the oldest queued entry with the same
// text and number of images. No match means no author: a label is left out
// rather than guessed (a message older than the relay's log of who sent
// what, a template pi expanded). A page that joins late is handed that log
// (the hello's `sent`): those entries are marked `logged`, and only they can
// match the user messages of the replay that follows.
//
// Pure: no Svelte, no DOM; attribution.svelte.ts makes it reactive.
import type { Person } from "@pier/protocol";

export type Author = { kind: "self" } | { kind: "person"; person: Person };

type Pending = {
  author: Author;
  text: string;
  images: number;
  /** Waits in pi's queue (a steer or follow-up): clear_queue drops it. */
  queued: boolean;
  /** From the relay's log of who sent what (a page that joined late), not seen going out. */
  logged: boolean;
};

/** Sent prompts waiting for their user message; the oldest go first beyond this. */
export const MAX_PENDING = 32;

/** The text and image count of a prompt, steer or follow-up command; null for any other command. */
export function promptOf(command: unknown): { text: string; images: number; queued: boolean } | null {
  if (typeof command !== "object" || command === null) return null;
  const c = command as Record<string, unknown>;
  if (c.type !== "prompt" && c.type !== "steer" && c.type !== "follow_up") return null;
  if (typeof c.message !== "string") return null;
  const images = Array.isArray(c.images) ? c.images.length : 0;
  const queued = c.type !== "prompt" || c.streamingBehavior === "steer" || c.streamingBehavior === "followUp";
  return { text: c.message, images, queued };
}

/** A user message's text and image count; null when it is not a user message. */
export function userMessageParts(message: unknown): { text: string; images: number } | null {
  if (typeof message !== "object" || message === null) return null;
  const m = message as { role?: unknown; content?: unknown };
  if (m.role !== "user") return null;
  if (typeof m.content === "string") return { text: m.content, images: 0 };
  if (!Array.isArray(m.content)) return null;
  let text = "";
  let images = 0;
  for (const block of m.content as { type?: unknown; text?: unknown }[]) {
    if (block?.type === "text" && typeof block.text === "string") text += block.text;
    else if (block?.type === "image") images++;
  }
  return { text, images };
}

/**
 * A key that names one user message across rebuilds of the transcript (the
 * stream, get_entries, get_messages all carry pi's timestamp); null without one.
 */
export function userMessageKey(message: unknown): string | null {
  const parts = userMessageParts(message);
  const timestamp = (message as { timestamp?: unknown } | null)?.timestamp;
  if (parts === null || typeof timestamp !== "number") return null;
  return `${timestamp}:${parts.text.length}:${parts.images}`;
}

export class PromptMatcher {
  #pending: Pending[] = [];

  get size(): number {
    return this.#pending.length;
  }

  /** A prompt, steer or follow-up went to pi (other commands are ignored). */
  sent(author: Author, command: unknown, logged = false): void {
    const prompt = promptOf(command);
    if (prompt === null) return;
    this.#pending.push({ author, ...prompt, logged });
    if (this.#pending.length > MAX_PENDING) this.#pending.splice(0, this.#pending.length - MAX_PENDING);
  }

  /** pi emptied its queue (clear_queue): the steers and follow-ups waiting there will never be echoed. */
  queueCleared(): void {
    this.#pending = this.#pending.filter((p) => !p.queued);
  }

  /**
   * pi echoed a user message: who sent it, or null when no sent prompt
   * matches. `loggedOnly` while a replay of earlier output plays: only a
   * logged entry can be what it echoes (this page's own, sent meanwhile, come after it).
   */
  match(message: unknown, loggedOnly = false): Author | null {
    const parts = userMessageParts(message);
    if (parts === null) return null;
    const index = this.#pending.findIndex((p) => p.text === parts.text && p.images === parts.images && (p.logged || !loggedOnly));
    if (index === -1) return null;
    const [taken] = this.#pending.splice(index, 1);
    return taken!.author;
  }

  clear(): void {
    this.#pending = [];
  }
}
