// Who sent which prompt, for a browser that joins later (a reload, a late
// classmate). A page labels a user message with its sender by matching it to
// the prompt, steer or follow-up it saw go out (web/src/lib/room/
// attribution.ts); a page that was not there saw nothing go out. The relay
// keeps the recent ones here, as their command_sent frames carried them, and
// the hello hands them over.
//
// Each entry remembers where pi's stdout stream stood when the command went
// to pi (`offset`, in the stream's never-reset byte count: stdout-replay.ts).
// pi can only echo a command after reading it, so its user message lies after
// that offset. The page feeds an entry to its matcher when its replay reaches
// that offset, no sooner: it matches exactly as a page that watched from the
// replay's first byte did. An entry older than the replay's start is not
// handed over at all (its echo may be gone with the dropped bytes; a later
// echo of the same text must not take it). So dropping the oldest entries
// (the bounds below) or the replay's head only ever leaves a message
// unlabelled, never labelled with the wrong person.
//
// Not reset on new_session, switch_session or fork: an entry is tied to the
// stretch of pi's output its echo is in, not to a session, and labels are
// kept by pi's own message timestamps, so a label follows its message into a
// fork or back after a switch, as on a page that never reloaded. pi restarting
// starts a new stream (the replay is emptied): then the log is cleared too.
//
// What an entry carries is what the live frame carried to every other
// browser, viewers included (sender and command line), minus image data: an
// attached image counts for matching, its bytes do not, so they are left out.
import type { Person, SentPrompt } from "@pier/protocol";

/** The commands whose text pi echoes as a user message. */
const ECHOED = new Set(["prompt", "steer", "follow_up"]);
export const MAX_SENT_ENTRIES = 256;
export const MAX_SENT_BYTES = 1024 * 1024;

type Entry = { sender: Person; grantId: string; line: string; bytes: number; at: number; offset: number };

/** The relay's view of who is connected (room.people): the sender and the grant it came by. */
export type SenderLookup = {
  get(clientId: string): Person | undefined;
  grantOf(clientId: string): { id: string } | undefined;
};

export class SentLog {
  #entries: Entry[] = [];
  #bytes = 0;

  get size(): number {
    return this.#entries.length;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** A command went to pi from `clientId` at stream offset `offset`; only prompts, steers and follow-ups are kept. */
  note(people: SenderLookup, clientId: string, type: string, command: Readonly<Record<string, unknown>>, line: Buffer | string, offset: number): void {
    if (!ECHOED.has(type) || typeof command["message"] !== "string") return;
    const sender = people.get(clientId);
    const grant = people.grantOf(clientId);
    if (sender === undefined || grant === undefined) return;
    const kept = withoutImageData(command, line);
    const bytes = Buffer.byteLength(kept);
    // One prompt bigger than the whole log would only empty it: it goes unlabelled instead.
    if (bytes > MAX_SENT_BYTES) return;
    this.#entries.push({ sender, grantId: grant.id, line: kept, bytes, at: Date.now(), offset });
    this.#bytes += bytes;
    let drop = 0;
    while (this.#entries.length - drop > MAX_SENT_ENTRIES || this.#bytes > MAX_SENT_BYTES) this.#bytes -= this.#entries[drop++]!.bytes;
    if (drop > 0) this.#entries.splice(0, drop);
  }

  /**
   * For a browser joining with `grantId` whose replay starts at stream offset
   * `replayStart`: the entries whose echo it can still see, with offsets
   * counted from the replay's first byte. Its own browser's (the same grant:
   * the same cookie, before a reload) are marked `mine`.
   */
  forJoiner(grantId: string, replayStart: number): SentPrompt[] {
    const out: SentPrompt[] = [];
    for (const entry of this.#entries) {
      if (entry.offset < replayStart) continue;
      const prompt: SentPrompt = { sender: entry.sender, line: entry.line, at: entry.at, offset: entry.offset - replayStart };
      out.push(entry.grantId === grantId ? { ...prompt, mine: true } : prompt);
    }
    return out;
  }

  /** pi restarted: a new stream, whose echoes none of these can match. */
  clear(): void {
    this.#entries = [];
    this.#bytes = 0;
  }
}

/** The line as sent, but each image's data left out (its place kept, so the count still matches). */
function withoutImageData(command: Readonly<Record<string, unknown>>, line: Buffer | string): string {
  const images = command["images"];
  if (!Array.isArray(images) || images.length === 0) return typeof line === "string" ? line : line.toString("utf8");
  return JSON.stringify({ ...command, images: images.map(() => ({ type: "image" })) });
}
