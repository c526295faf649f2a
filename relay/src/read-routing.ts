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
import { EntriesCache, EntriesCapture } from "./entries-cache.ts";
import { ReadGate, type Read } from "./read-gate.ts";
import { ResponseRouter } from "./response-router.ts";

/** The largest frame an answer from the entries cache is sent in (pi's stdout is read 64 KiB at a time). */
const CACHED_FRAME_BYTES = 256 * 1024;

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

/** A browser's full get_entries in pi: its answer goes to the browser and into the cache. */
class EntriesRead {
  readonly client: BrowserClient;
  readonly capture: EntriesCapture<Read<BrowserClient>>;
  constructor(client: BrowserClient, capture: EntriesCapture<Read<BrowserClient>>) {
    this.client = client;
    this.capture = capture;
  }
}

type Owner = BrowserClient | RelayRead | EntriesRead;

/** What a get_entries asks for: all entries (null), those after a cursor, or undefined for any other shape (pi answers it). */
function entriesCursor(key: string): string | null | undefined {
  if (key === '{"type":"get_entries"}') return null;
  let command: unknown;
  try {
    command = JSON.parse(key);
  } catch {
    return undefined;
  }
  const record = command as Record<string, unknown>;
  const keys = Object.keys(record);
  return keys.length === 2 && typeof record["since"] === "string" && record["type"] === "get_entries" ? record["since"] : undefined;
}

export class ReadRouting {
  readonly #router: ResponseRouter<Owner>;
  readonly #gate: ReadGate<BrowserClient>;
  readonly #write: (line: Buffer) => void;
  /** The relay's own reads waiting for pi, so a child that goes away ends them (with null). */
  readonly #relayReads = new Set<RelayRead>();
  #relaySeq = 0;
  readonly #hub: BrowserHub;
  /** pi's last full get_entries answer, and the one pi is writing now (entries-cache.ts). */
  readonly #entries = new EntriesCache<Read<BrowserClient>>();

  /** `write` hands a read's line to pi's stdin (with the bridge's backpressure). */
  constructor(hub: BrowserHub, write: (line: Buffer) => void) {
    this.#write = write;
    this.#hub = hub;
    this.#router = new ResponseRouter<Owner>({
      shared: (bytes) => {
        // Anything pi says that is not a read's answer (an event, a driver's command's answer) may mean its entries moved.
        this.#entries.invalidate();
        hub.writeStdout(bytes);
      },
      routed: (owner, bytes, end) => {
        if (owner instanceof RelayRead) return owner.take(bytes, end);
        if (owner instanceof EntriesRead) {
          owner.capture.take(bytes, end);
          return hub.writePrivate(owner.client, bytes);
        }
        hub.writePrivate(owner, bytes);
      },
      answered: (owner, id) => {
        if (owner instanceof RelayRead) return void this.#relayReads.delete(owner);
        // Kept (or not) before the gate sends the next read, which may be another get_entries.
        if (owner instanceof EntriesRead) this.#entries.finish(owner.capture);
        this.#gate.answered(id);
        // Those that waited for this answer get it from the cache now (or, if it was not kept, ask again).
        if (owner instanceof EntriesRead) for (const read of owner.capture.waiters) this.#send(read);
      },
    });
    this.#gate = new ReadGate<BrowserClient>({
      send: (read: Read<BrowserClient>) => this.#send(read),
      refuse: (owner, read, message) => owner.sendFrame({ type: "error", code: "rate_limited", message, command: { type: read.type, ...(read.id !== undefined ? { id: read.id } : {}) } }),
    });
  }

  /** A read passed the gate: answered from the entries cache, put behind the same get_entries in pi, or sent to pi. */
  #send(read: Read<BrowserClient>): void {
    if (read.type === "get_entries") {
      const since = entriesCursor(read.key);
      if (since !== undefined) {
        const pieces = this.#entries.answer(read.id, since);
        if (pieces !== null) {
          this.#entries.served++;
          // In frames of at most a pipe read's size, as pi's own answer comes: a browser takes a 20 MB frame in one
          // task of its main thread (~600 ms in Chromium) before any of the page's code can slice the work.
          for (const piece of pieces) {
            for (let at = 0; at < piece.length; at += CACHED_FRAME_BYTES) this.#hub.writePrivate(read.owner, piece.subarray(at, at + CACHED_FRAME_BYTES));
          }
          // After the gate has finished sending it (the gate's count of reads in pi includes this one until then).
          queueMicrotask(() => this.#gate.answered(read.id));
          return;
        }
        if (since === null) {
          const inFlight = this.#entries.inFlight();
          if (inFlight !== null) return void inFlight.waiters.push(read);
          this.#router.expect(read.id, read.type, new EntriesRead(read.owner, this.#entries.capture()));
          return this.#write(read.line);
        }
      }
    }
    // Expected before it is written: pi cannot answer before the next turn of the event loop anyway.
    this.#router.expect(read.id, read.type, read.owner);
    this.#write(read.line);
  }

  /** A chunk of pi's stdout (taken over, like BrowserHub.writeStdout). */
  stdout(chunk: Buffer): void {
    this.#router.push(chunk);
  }

  /** pi's child changed state: a held line start goes out, and with the child gone no read will be answered. */
  childChanged(state: "starting" | "running" | "exited"): void {
    // Those waiting on a get_entries pi was answering get none from pi: each is told, by its id, that it must ask
    // again (the page's loader does so when the new pi runs); no request is left without an answer.
    for (const read of this.#entries.reset()) {
      read.owner.sendFrame({
        type: "error",
        code: "pi_not_running",
        message: `pi exited before answering “${read.type}” (this request waited for the same one pi was answering); ask again once pi runs`,
        command: { type: read.type, id: read.id },
      });
    }
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

  /**
   * A command that is not a read goes to pi (from `client`, or from the
   * board with none): no one else's read may take its id, and pi's entries
   * may change from here on (a prompt, new_session, switch_session, fork,
   * set_session_name…), so what the cache knows no longer holds.
   */
  commandSent(client: BrowserClient | null, id: string | undefined): void {
    this.#entries.invalidate();
    if (client !== null && id !== undefined) this.#gate.noteId(client, id);
  }

  leave(client: BrowserClient): void {
    this.#gate.leave(client);
  }

  /** get_entries answered by the relay without asking pi (for tests and diagnostics). */
  get entriesServed(): number {
    return this.#entries.served;
  }

  /** Reads pending in pi (for tests and diagnostics). */
  get pending(): number {
    return this.#router.pendingCount;
  }
}
