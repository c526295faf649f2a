// Cuts the answers to read-only commands out of pi's stdout, so each goes
// only to the browser that asked (DESIGN: the relay may read a response's id
// for that, and nothing else of it).
//
// Why: pi's stdout is shared, so before this every browser got every answer:
// a viewer asking for a 1.2 MB get_messages a thousand times pushed ~400 MB
// to the driver's page. Now a browser pays only for its own reads, and they
// stay out of the replay too (a late joiner asks for its own).
//
// How: pi writes one record per line (LF; a record may span reads), and
// writes a response as `{"id":…,"type":"response","command":…,` (rpc-mode.js
// builds `{ id, type: "response", command, success, data }` and
// JSON.stringify keeps that order, in pi 0.87.1 and 1.6.0 alike). So while
// reads are pending, each line's first bytes are compared with that header
// for the pending ids: the id is read out of the line (one JSON string, no
// parse of the record), looked up, and the whole header (id AND command) must
// match byte for byte, so a response to anything else is never taken, and a
// read's answer never leaves its line. With nothing pending a chunk costs one
// look at its last byte (is the next line starting at a chunk boundary?).
//
// Everything not cut out goes on as it came, in order, byte for byte; only
// chunk boundaries may differ. A line start too short to tell yet (at most
// the longest pending header, under 2 KB) waits for the next read.
import { MAX_COMMAND_ID_LENGTH } from "@pier/protocol";

const LF = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** `{"id":"`: every response to a command that had an id starts this way. */
const ID_PREFIX = Buffer.from('{"id":"');

export type RouterSink<Owner> = {
  /** Bytes for everyone (and the replay). */
  shared(bytes: Buffer): void;
  /** Bytes of an answer for `owner` only; `end`: its last piece (the LF included). */
  routed(owner: Owner, bytes: Buffer, end: boolean): void;
  /** The answer to `id` ended (it was routed in full). */
  answered(owner: Owner, id: string): void;
};

type Pending<Owner> = { owner: Owner; header: Buffer };

/** Where the router is in the current line. */
type LineState = "start" | "shared" | "routed";

export class ResponseRouter<Owner> {
  readonly #sink: RouterSink<Owner>;
  readonly #pending = new Map<string, Pending<Owner>>();
  #longestHeader = 0;
  #state: LineState = "start";
  /** The owner and id of the answer being routed. */
  #current: { owner: Owner; id: string } | null = null;
  /** The start of a line that could not be told yet (a copy). */
  #held: Buffer | null = null;

  constructor(sink: RouterSink<Owner>) {
    this.#sink = sink;
  }

  /** Reads whose answers have not started (or not finished) yet. */
  get pendingCount(): number {
    return this.#pending.size + (this.#current === null ? 0 : 1);
  }

  isPending(id: string): boolean {
    return this.#pending.has(id) || this.#current?.id === id;
  }

  /** A read with `id` and `command` type went to pi: its answer goes to `owner`. The caller keeps ids unique. */
  expect(id: string, command: string, owner: Owner): void {
    const header = responseHeader(id, command);
    this.#pending.set(id, { owner, header });
    if (header.length > this.#longestHeader) this.#longestHeader = header.length;
  }

  /** A chunk of pi's stdout. The router takes it over (it hands it, or pieces of it, on). */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    // The common case: no reads pending, so nothing to look at but where lines end.
    if (this.#held === null && this.#pending.size === 0 && this.#state !== "routed") {
      this.#state = chunk[chunk.length - 1] === LF ? "start" : "shared";
      return this.#sink.shared(chunk);
    }
    if (this.#held !== null) {
      chunk = Buffer.concat([this.#held, chunk]);
      this.#held = null;
    }
    let at = 0;
    /** Start of the shared bytes not handed on yet. */
    let sharedFrom = 0;
    const handShared = (to: number) => {
      if (to > sharedFrom) this.#sink.shared(to - sharedFrom === chunk.length ? chunk : chunk.subarray(sharedFrom, to));
    };
    while (at < chunk.length) {
      if (this.#state === "start") {
        const verdict = this.#classify(chunk, at);
        if (verdict === "undecided") {
          handShared(at);
          this.#held = Buffer.from(chunk.subarray(at));
          return;
        }
        if (verdict === "shared") {
          this.#state = "shared";
        } else {
          handShared(at);
          this.#pending.delete(verdict.id);
          this.#current = verdict;
          this.#state = "routed";
        }
        continue;
      }
      const lf = chunk.indexOf(LF, at);
      const end = lf === -1 ? chunk.length : lf + 1;
      if (this.#state === "routed") {
        const current = this.#current!;
        this.#sink.routed(current.owner, at === 0 && end === chunk.length ? chunk : chunk.subarray(at, end), lf !== -1);
        if (lf !== -1) {
          this.#current = null;
          this.#state = "start";
          this.#sink.answered(current.owner, current.id);
        }
        sharedFrom = end;
      } else if (lf !== -1) {
        this.#state = "start";
      }
      at = end;
      // With nothing pending any more, the rest of the chunk is everyone's.
      if (this.#state === "start" && this.#pending.size === 0) {
        this.#state = chunk[chunk.length - 1] === LF ? "start" : "shared";
        at = chunk.length;
      }
    }
    handShared(chunk.length);
  }

  /** pi's stdout ended (its child exited): a held line start is everyone's after all. */
  flush(): void {
    const held = this.#held;
    this.#held = null;
    if (held !== null) {
      this.#state = "shared";
      this.#sink.shared(held);
    }
  }

  /** A new child: nothing pending is answered any more, and its stdout starts with a new line. */
  reset(): void {
    this.flush();
    this.#pending.clear();
    this.#longestHeader = 0;
    this.#current = null;
    this.#state = "start";
  }

  /** A line starts at `at`: is it the answer to a pending read? */
  #classify(chunk: Buffer, at: number): { owner: Owner; id: string } | "shared" | "undecided" {
    if (this.#pending.size === 0) return "shared";
    const available = chunk.length - at;
    // Most lines are events (`{"type":…`): one byte tells them apart, before any comparison.
    if (available > 2 && chunk[at + 2] !== ID_PREFIX[2]) return "shared";
    const prefixLength = Math.min(available, ID_PREFIX.length);
    if (chunk.compare(ID_PREFIX, 0, prefixLength, at, at + prefixLength) !== 0) return "shared";
    // The id's closing quote: the first quote not escaped by a backslash.
    const idStart = at + ID_PREFIX.length - 1;
    let quote = -1;
    for (let i = idStart + 1; i < chunk.length && i - at < this.#longestHeader; i++) {
      const byte = chunk[i]!;
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) {
        quote = i;
        break;
      }
    }
    if (quote === -1) return available < this.#longestHeader ? "undecided" : "shared";
    const id = readJsonString(chunk.subarray(idStart, quote + 1));
    const pending = id === null ? undefined : this.#pending.get(id);
    if (pending === undefined) return "shared";
    const header = pending.header;
    if (available < header.length) return "undecided";
    if (chunk.compare(header, 0, header.length, at, at + header.length) !== 0) return "shared";
    return { owner: pending.owner, id: id! };
  }
}

/** How pi's answer to `command` with `id` begins, byte for byte. */
export function responseHeader(id: string, command: string): Buffer {
  return Buffer.from(`{"id":${JSON.stringify(id)},"type":"response","command":${JSON.stringify(command)},`);
}

function readJsonString(literal: Buffer): string | null {
  if (literal.length > MAX_COMMAND_ID_LENGTH * 12) return null;
  if (!literal.includes(BACKSLASH)) return literal.toString("utf8", 1, literal.length - 1);
  try {
    const value: unknown = JSON.parse(literal.toString("utf8"));
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}
