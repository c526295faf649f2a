// A bounded copy of what the current pi child wrote to stdout, so a browser
// that connects late (or reloads mid-answer) can rebuild the same state as one
// that was there from the start: pi sends some state unprompted (extension
// status, widgets, title) that no command can ask for again.
//
// Chunks are kept as read, so replayed frames keep pi's chunk boundaries.
// When the total passes `maxBytes` the oldest chunks are dropped and the
// replay is cut to start at a record boundary (just after an LF), so a
// browser never sees half a record; `truncated` then tells it to fetch older
// history with get_messages.

const LF = 0x0a;

export class StdoutReplay {
  readonly maxBytes: number;
  #chunks: Buffer[] = [];
  #bytes = 0;
  #truncated = false;
  /** The stored bytes ended inside a dropped record: skip to its end. */
  #skipToLf = false;

  constructor(maxBytes: number) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError("maxBytes must be a non-negative integer");
    this.maxBytes = maxBytes;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** True once anything written by this child has been dropped. */
  get truncated(): boolean {
    return this.#truncated;
  }

  get chunks(): readonly Buffer[] {
    return this.#chunks;
  }

  append(chunk: Buffer): void {
    if (this.#skipToLf) {
      const lf = chunk.indexOf(LF);
      if (lf === -1) return;
      chunk = chunk.subarray(lf + 1);
      this.#skipToLf = false;
    }
    if (chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    if (this.#bytes > this.maxBytes) this.#trim();
  }

  /** A new child starts a new stream. */
  clear(): void {
    this.#chunks = [];
    this.#bytes = 0;
    this.#truncated = false;
    this.#skipToLf = false;
  }

  #trim(): void {
    this.#truncated = true;
    // Drop whole chunks while over the bound.
    let droppedEndedOnLf = true;
    while (this.#bytes > this.maxBytes && this.#chunks.length > 0) {
      const dropped = this.#chunks.shift()!;
      this.#bytes -= dropped.length;
      droppedEndedOnLf = dropped[dropped.length - 1] === LF;
    }
    if (droppedEndedOnLf) return;
    // The head now starts inside a record: cut up to the next LF.
    while (this.#chunks.length > 0) {
      const head = this.#chunks[0]!;
      const lf = head.indexOf(LF);
      if (lf === -1) {
        this.#chunks.shift();
        this.#bytes -= head.length;
        continue;
      }
      this.#chunks[0] = head.subarray(lf + 1);
      this.#bytes -= lf + 1;
      if (this.#chunks[0].length === 0) this.#chunks.shift();
      return;
    }
    this.#skipToLf = true;
  }
}
