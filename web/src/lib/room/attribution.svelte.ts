// Attribution in the transcript: who wrote each user message (matched by
// PromptMatcher), and a marker where another person's disruptive action
// happened ("Ada aborted the run" under the stopped answer, "Ada started a
// new session" at the top of the new one). The connection feeds it, in the
// order things arrived: commands this browser sent, the relay's command_sent
// frames, and pi's records after the reducer applied them.
//
// A page that joins late (a reload, a classmate) saw none of the earlier
// commands go out. The hello hands it the relay's log of them (relay/src/
// sent-log.ts), each with where in the stream that follows it went to pi;
// each is fed to the matcher when the stream reaches that place (streamAt),
// so the replayed user messages match exactly as they did live.
import type { Person, SentPrompt } from "@pier/protocol";
import type { SessionState } from "../pi-state/session-state.ts";
import { addMarker } from "../pi-state/run-events.ts";
import { describeCommand } from "./room-actions.ts";
import { sentence } from "./room.svelte.ts";
import { PromptMatcher, userMessageKey, type Author } from "./attribution.ts";

/** Commands whose success moves pi to another session: their marker waits for pi's answer. */
const SESSION_CHANGES = new Set(["new_session", "switch_session", "fork", "clone"]);
/** Marked when pi has answered (abort answers once the run stopped: the marker goes under the stopped answer). */
const MARK_ON_ANSWER = new Set([...SESSION_CHANGES, "abort"]);
/** Remembered authors of user messages (a long session keeps the newest). */
const MAX_AUTHORS = 2000;
/** Commands of others waiting for pi's answer to be marked. */
const MAX_WAITING = 16;

type Waiting = { by: Person; text: string };

export class Attribution {
  /** Who wrote the user messages whose author is known, by userMessageKey. */
  authors = $state.raw<Record<string, Author>>({});
  readonly #matcher = new PromptMatcher();
  /** Another browser's command id → the marker to add when pi answers it. */
  readonly #waiting = new Map<string, Waiting>();
  /** The hello's log of earlier prompts, oldest first; those before #loggedHead went to the matcher. */
  #logged: readonly SentPrompt[] = [];
  #loggedHead = 0;

  /** The author of a user message, or null when unknown (then no label is shown). */
  authorOf(message: unknown): Author | null {
    const key = userMessageKey(message);
    return key === null ? null : (this.authors[key] ?? null);
  }

  /** A command this browser sent. */
  own(command: unknown): void {
    this.#sent({ kind: "self" }, command);
  }

  /** A command another browser sent, as the relay announced it (command_sent). */
  foreign(sender: Person, line: string, session: SessionState): void {
    let command: unknown;
    try {
      command = JSON.parse(line);
    } catch {
      return;
    }
    this.#sent({ kind: "person", person: sender }, command);
    const action = describeCommand(line);
    if (action === null) return;
    const { text, disruptive } = sentence(sender, action);
    if (!disruptive) return;
    const id = (command as { id?: unknown }).id;
    if (MARK_ON_ANSWER.has(action.kind) && typeof id === "string") {
      this.#waiting.set(id, { by: sender, text });
      if (this.#waiting.size > MAX_WAITING) this.#waiting.delete(this.#waiting.keys().next().value!);
      return;
    }
    // Compaction (and a command without an id): where it happened is now.
    mark(session, sender, text);
  }

  /** A pi record, right after the reducer applied it to `session`. */
  record(value: unknown, session: SessionState, replaying: boolean): void {
    if (typeof value !== "object" || value === null) return;
    const record = value as { type?: unknown; message?: unknown; id?: unknown; command?: unknown; success?: unknown; data?: unknown };
    if (record.type === "message_end") {
      const key = userMessageKey(record.message);
      if (key === null || key in this.authors) return;
      const author = this.#matcher.match(record.message, replaying);
      if (author !== null) this.#remember(key, author);
      return;
    }
    if (record.type !== "response" || typeof record.id !== "string") return;
    if (record.command === "clear_queue" && record.success === true) this.#matcher.queueCleared();
    const waiting = this.#waiting.get(record.id);
    if (waiting === undefined) return;
    this.#waiting.delete(record.id);
    const cancelled = (record.data as { cancelled?: unknown } | null | undefined)?.cancelled === true;
    if (record.success !== true || cancelled) return;
    mark(session, waiting.by, waiting.text);
  }

  /** A new hello: what was pending belongs to a connection that is gone; `sent` is the relay's log of earlier prompts. */
  reset(sent: readonly SentPrompt[] = []): void {
    this.#matcher.clear();
    this.#waiting.clear();
    this.#logged = sent;
    this.#loggedHead = 0;
  }

  /** True while logged prompts wait for the stream to reach them (the connection counts bytes only then). */
  get awaitingStream(): boolean {
    return this.#loggedHead < this.#logged.length;
  }

  /**
   * The stream since the hello is about to be read up to `bytes`: the logged
   * prompts that went to pi before that point are now as good as seen going
   * out (their echo can be in what is read next, never before them).
   */
  streamAt(bytes: number): void {
    while (this.#loggedHead < this.#logged.length) {
      const entry = this.#logged[this.#loggedHead]!;
      if (typeof entry.offset !== "number" || entry.offset >= bytes) return;
      this.#loggedHead++;
      let command: unknown;
      try {
        command = JSON.parse(entry.line);
      } catch {
        continue;
      }
      this.#matcher.sent(entry.mine === true ? { kind: "self" } : { kind: "person", person: entry.sender }, command, true);
    }
  }

  /** pi restarted: a new stream, in which the logged prompts have no place. */
  forgetLog(): void {
    this.#logged = [];
    this.#loggedHead = 0;
  }

  #sent(author: Author, command: unknown): void {
    this.#matcher.sent(author, command);
  }

  #remember(key: string, author: Author): void {
    const next = { ...this.authors, [key]: author };
    const keys = Object.keys(next);
    if (keys.length > MAX_AUTHORS) for (const old of keys.slice(0, keys.length - MAX_AUTHORS)) delete next[old];
    this.authors = next;
  }
}

function mark(session: SessionState, by: Person, text: string): void {
  addMarker(session, { kind: "room", at: Date.now(), text, name: by.name, colour: by.colour });
}
