// A byte stream cut into lines for the browsers (pi's framing: LF only, a
// trailing CR stripped): what the tapped client writes to pi, and pi's
// stderr. Only the copy shown to browsers is framed: the bytes themselves
// go on (to pi, to the client's stderr) as they arrive.
//
// A line longer than maxBytes (pi takes one: images make prompts big) is
// shown cut, with its length said, so the tap never holds more than
// maxBytes of a line.

const CUT_NOTE = (bytes: number) => ` … (line cut: ${bytes} bytes; pier tap shows the first part only)`;

export class LineCutter {
  readonly #maxBytes: number;
  readonly #parts: Buffer[] = [];
  #held = 0;
  /** Bytes of the current line beyond maxBytes, not kept. */
  #dropped = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The lines `chunk` completes (decoded as UTF-8, whole: a character split across chunks is joined first). */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let from = 0;
    for (let lf = chunk.indexOf(0x0a); lf !== -1; lf = chunk.indexOf(0x0a, from)) {
      this.#keep(chunk.subarray(from, lf));
      lines.push(this.#take());
      from = lf + 1;
    }
    if (from < chunk.length) this.#keep(chunk.subarray(from));
    return lines;
  }

  /** What is left after EOF (a last line with no LF), or null. */
  end(): string | null {
    return this.#held === 0 && this.#dropped === 0 ? null : this.#take();
  }

  #keep(piece: Buffer): void {
    const room = this.#maxBytes - this.#held;
    if (piece.length > room) {
      this.#dropped += piece.length - Math.max(room, 0);
      piece = piece.subarray(0, Math.max(room, 0));
    }
    if (piece.length === 0) return;
    // Copied: the chunk itself goes on to pi.
    this.#parts.push(Buffer.from(piece));
    this.#held += piece.length;
  }

  #take(): string {
    let text = Buffer.concat(this.#parts, this.#held).toString("utf8");
    if (this.#dropped > 0) text += CUT_NOTE(this.#held + this.#dropped);
    else if (text.endsWith("\r")) text = text.slice(0, -1);
    this.#parts.length = 0;
    this.#held = 0;
    this.#dropped = 0;
    return text;
  }
}
