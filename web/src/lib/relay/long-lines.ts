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
// Once a line has passed LONG_LINE_BYTES it is a long line: what was held
// of it, and every byte of it after, goes to a LongLine (long-line-parser.ts
// streams them to the worker) as it arrives, and when the line ends the
// piece in its place says so. The bytes reach the worker while the rest of
// the line is still on the wire, where putting 21 MB together on the page's
// thread once the line had ended was a task of ~70 ms.
// The chunks are handed on as they are, not copied (the queue's buffers
// are never reused: wire-tap.ts).
// LF never occurs inside a multi-byte UTF-8 character, so a cut at LF is
// always between characters.

import { concatBytes } from "../bytes.ts";

const LF = 0x0a;

/** Lines longer than this (bytes, LF not counted) are parsed off the page's thread. */
export const LONG_LINE_BYTES = 1024 * 1024;

/** A long line while it arrives, and then parsed (long-line-parser.ts makes them). */
export interface LongLine {
  /** More of the line's bytes, in order (the caller never changes them afterwards: they may be held). */
  write(part: Uint8Array): void;
  /** The line will never end (pi's stream started again): let go of it. */
  abort(): void;
}

/** What a chunk becomes, in stream order. */
export type LinePiece<Line extends LongLine = LongLine> =
  /** Whole lines, each with its LF (or, at the end of the stream, a last line without), for the decoder. */
  | { kind: "lines"; bytes: Uint8Array }
  /** One long line, ended: all its bytes but the LF (a trailing CR is still there) were written to it. */
  | { kind: "long"; line: Line };

export class LongLineSplitter<Line extends LongLine = LongLine> {
  readonly #startLongLine: () => Line;
  readonly #longBytes: number;
  /** The bytes held of the line not finished yet (the chunks themselves: callers never change them). */
  #held: Uint8Array[] = [];
  /** Bytes of the line not finished yet (held here, or written to #long). */
  #heldBytes = 0;
  /** The line not finished yet, once it passed the limit: its bytes went here. */
  #long: Line | null = null;

  constructor(startLongLine: () => Line, longBytes = LONG_LINE_BYTES) {
    this.#startLongLine = startLongLine;
    this.#longBytes = longBytes;
  }

  /** Bytes of a line that has not ended yet. */
  get heldBytes(): number {
    return this.#heldBytes;
  }

  /** Feed one chunk (any boundary; never changed afterwards: it may be held); returns the pieces it completed. */
  push(chunk: Uint8Array): LinePiece<Line>[] {
    const first = chunk.indexOf(LF);
    if (first === -1) {
      this.#hold(chunk);
      return [];
    }
    const pieces: LinePiece<Line>[] = [];
    // The line that was held ends at the first LF.
    let from = 0;
    if (this.#long !== null || this.#heldBytes + first > this.#longBytes) {
      this.#hold(chunk.subarray(0, first), true);
      pieces.push({ kind: "long", line: this.#endLong() });
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
  end(): LinePiece<Line>[] {
    if (this.#long !== null) return [{ kind: "long", line: this.#endLong() }];
    if (this.#heldBytes === 0) return [];
    return [{ kind: "lines", bytes: this.#take(new Uint8Array(0)) }];
  }

  /** The stream will not go on (it starts again, or the page is done with it): a long line not ended is let go. */
  abort(): void {
    this.#long?.abort();
    this.#long = null;
    this.#held = [];
    this.#heldBytes = 0;
  }

  /** More of the line not finished yet; past the limit (or when `long`: it is known to be), it is a long line. */
  #hold(bytes: Uint8Array, long = false): void {
    this.#heldBytes += bytes.length;
    if (this.#long === null && (long || this.#heldBytes > this.#longBytes)) {
      this.#long = this.#startLongLine();
      for (const part of this.#held) this.#long.write(part);
      this.#held = [];
    }
    if (bytes.length === 0) return;
    if (this.#long !== null) this.#long.write(bytes);
    else this.#held.push(bytes);
  }

  #endLong(): Line {
    const line = this.#long!;
    this.#long = null;
    this.#heldBytes = 0;
    return line;
  }

  /** The held bytes followed by `tail`, as one array; nothing is held after. */
  #take(tail: Uint8Array): Uint8Array {
    const whole = concatBytes(tail.length === 0 ? this.#held : [...this.#held, tail]);
    this.#held = [];
    this.#heldBytes = 0;
    return whole;
  }
}
