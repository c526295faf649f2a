// Browsers' read-only commands, end to end: checked and metered on the way
// to pi (read-gate.ts), and their answers cut out of pi's stdout and sent to
// the asker alone (response-router.ts, BrowserHub.writePrivate). Everything
// else pi writes goes to every browser as before.
//
// Who may use it: any browser that may send pi a read (drivers and viewers;
// a revoked link's socket is closed and its frames never get here). Each pays
// only for itself: a viewer's thousand get_messages cost that viewer, not
// the driver's page, and not pi's memory.
import type { Grant } from "./access-links.ts";
import type { BrowserClient, BrowserHub } from "./browser-hub.ts";
import { ReadGate, type Read } from "./read-gate.ts";
import { ResponseRouter } from "./response-router.ts";

export type ReadFrame = { line: Buffer; type: string; id?: string; command: Readonly<Record<string, unknown>> };

/** The relay itself asking pi something (live-session.ts: which session file pi has open): its answer reaches no browser. */
class RelayRead {
  readonly #parts: Buffer[] = [];
  readonly done: (line: Buffer | null) => void;
  constructor(done: (line: Buffer | null) => void) {
    this.done = done;
  }
  take(bytes: Buffer, end: boolean): void {
    this.#parts.push(Buffer.from(bytes));
    if (end) this.done(Buffer.concat(this.#parts));
  }
}

type Owner = BrowserClient | RelayRead;

export class ReadRouting {
  readonly #router: ResponseRouter<Owner>;
  readonly #gate: ReadGate<BrowserClient>;
  readonly #write: (line: Buffer) => void;
  /** The relay's own reads waiting for pi, so a child that goes away ends them (with null). */
  readonly #relayReads = new Set<RelayRead>();
  #relaySeq = 0;

  /** `write` hands a read's line to pi's stdin (with the bridge's backpressure). */
  constructor(hub: BrowserHub, write: (line: Buffer) => void) {
    this.#write = write;
    this.#router = new ResponseRouter<Owner>({
      shared: (bytes) => hub.writeStdout(bytes),
      routed: (owner, bytes, end) => (owner instanceof RelayRead ? owner.take(bytes, end) : hub.writePrivate(owner, bytes)),
      answered: (owner, id) => (owner instanceof RelayRead ? this.#relayReads.delete(owner) : this.#gate.answered(id)),
    });
    this.#gate = new ReadGate<BrowserClient>({
      send: (read: Read<BrowserClient>) => {
        // Expected before it is written: pi cannot answer before the next turn of the event loop anyway.
        this.#router.expect(read.id, read.type, read.owner);
        write(read.line);
      },
      refuse: (owner, read, message) => owner.sendFrame({ type: "error", code: "rate_limited", message, command: { type: read.type, ...(read.id !== undefined ? { id: read.id } : {}) } }),
    });
  }

  /** A chunk of pi's stdout (taken over, like BrowserHub.writeStdout). */
  stdout(chunk: Buffer): void {
    this.#router.push(chunk);
  }

  /** pi's child changed state: a held line start goes out, and with the child gone no read will be answered. */
  childChanged(state: "starting" | "running" | "exited"): void {
    if (state === "running") return;
    this.#router.reset();
    this.#gate.reset();
    for (const read of this.#relayReads) read.done(null);
    this.#relayReads.clear();
  }

  /**
   * The relay asks pi a read-only `type` (get_state…) for itself: the answer
   * line (its bytes) or null when pi went away first. No browser sees the
   * command or the answer.
   */
  ask(type: string): Promise<Buffer | null> {
    return new Promise((resolve) => {
      const id = `pier-relay-${++this.#relaySeq}`;
      const read = new RelayRead(resolve);
      this.#relayReads.add(read);
      this.#router.expect(id, type, read);
      this.#write(Buffer.from(JSON.stringify({ id, type })));
    });
  }

  /** A read-only command from `client` (its role already checked): to pi now, later, or refused. */
  offer(client: BrowserClient, grant: Grant, frame: ReadFrame): void {
    const { id: _id, ...rest } = frame.command;
    this.#gate.offer({
      owner: client,
      role: grant.role,
      linkId: grant.linkId,
      id: frame.id,
      type: frame.type,
      key: JSON.stringify(rest),
      line: frame.line,
    });
  }

  /** Another command with an id went to pi from `client`: no one else's read may take that id. */
  noteId(client: BrowserClient, id: string | undefined): void {
    if (id !== undefined) this.#gate.noteId(client, id);
  }

  leave(client: BrowserClient): void {
    this.#gate.leave(client);
  }

  /** Reads pending in pi (for tests and diagnostics). */
  get pending(): number {
    return this.#router.pendingCount;
  }
}
