// Sets long lines of pi's stdout apart from the rest, before the JSONL
// decoder, so that the page never decodes and parses one on its own thread.
//
// A whole session's get_entries answer is one line: 21 MB at 50,000
// messages. Decoded and parsed in one call, it was a task of 0.5–1 s of the
// page's CPU. Such a line goes to a worker instead (long-line-parser.ts);
// every other line goes to the decoder as before.
//
// How: the bytes of a line that has not ended yet are held here, not in the
// decoder, so the decoder is only ever given whole lines (with their LF).
// When a line ends, its length says where it goes: up to LONG_LINE_BYTES to
// the decoder, beyond that it is handed on as its own bytes, in a buffer of
// its own that can be transferred to the worker without a copy. The chunks
// are held as they are, not copied (the queue's buffers are never reused:
// wire-tap.ts): copying each 64 KiB piece of a 21 MB line, as the decoder
// does, cost more than the one copy that puts the line together.
// LF never occurs inside a multi-byte UTF-8 character, so a cut at LF is
// always between characters.

const LF = 0x0a;

/** Lines longer than this (bytes, LF not counted) are parsed off the page's thread. */
export const LONG_LINE_BYTES = 1024 * 1024;

/** What a chunk becomes, in stream order. */
export type LinePiece =
  /** Whole lines, each with its LF (or, at the end of the stream, a last line without), for the decoder. */
  | { kind: "lines"; bytes: Uint8Array }
  /** One long line without its LF (a trailing CR is still there), in a buffer of its own. */
  | { kind: "long"; bytes: Uint8Array };

export class LongLineSplitter {
  readonly #longBytes: number;
  /** The bytes of the line not finished yet (the chunks themselves: callers never change them). */
  #held: Uint8Array[] = [];
  #heldBytes = 0;

  constructor(longBytes = LONG_LINE_BYTES) {
    this.#longBytes = longBytes;
  }

  /** Bytes of a line that has not ended yet. */
  get heldBytes(): number {
    return this.#heldBytes;
  }

  /** Feed one chunk (any boundary; never changed afterwards: it may be held); returns the pieces it completed. */
  push(chunk: Uint8Array): LinePiece[] {
    const first = chunk.indexOf(LF);
    if (first === -1) {
      this.#hold(chunk);
      return [];
    }
    const pieces: LinePiece[] = [];
    // The line that was held ends at the first LF.
    let from = 0;
    if (this.#heldBytes + first > this.#longBytes) {
      pieces.push({ kind: "long", bytes: this.#take(chunk.subarray(0, first)) });
      from = first + 1;
    } else if (this.#heldBytes > 0) {
      pieces.push({ kind: "lines", bytes: this.#take(chunk.subarray(0, first + 1)) });
      from = first + 1;
    }
    // The lines that begin and end in this chunk are at most a chunk long. (The inbound queue's chunks are 64 KiB.)
    const last = chunk.lastIndexOf(LF);
    if (last >= from) pieces.push({ kind: "lines", bytes: chunk.subarray(from, last + 1) });
    this.#hold(chunk.subarray(last + 1));
    return pieces;
  }

  /** End of stream: a last line without LF, if any (then give the decoder its end too). */
  end(): LinePiece[] {
    if (this.#heldBytes === 0) return [];
    const long = this.#heldBytes > this.#longBytes;
    return [{ kind: long ? "long" : "lines", bytes: this.#take(new Uint8Array(0)) }];
  }

  #hold(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#held.push(bytes);
    this.#heldBytes += bytes.length;
  }

  /** The held bytes followed by `tail`, in a buffer of their own; nothing is held after. */
  #take(tail: Uint8Array): Uint8Array {
    const whole = new Uint8Array(this.#heldBytes + tail.length);
    let at = 0;
    for (const part of this.#held) {
      whole.set(part, at);
      at += part.length;
    }
    whole.set(tail, at);
    this.#held = [];
    this.#heldBytes = 0;
    return whole;
  }
}
