// What a shell tab has received and not yet handed to xterm. xterm keeps
// everything it was given in its own write buffer, which nothing can empty:
// `reset()` clears the screen, and the output still queued behind it is
// drawn afterwards. A page cut off for falling 8 MB behind a flood (it
// reattaches and gets the scrollback) had up to those 8 MB queued in xterm:
// after its reset it drew them, stale, then the scrollback again, which
// repeats them (lines twice in the history) and costs seconds before the
// page shows the shell's present. So xterm is given at most GIVEN_BYTES
// at a time (enough to keep its ~12 ms parsing tasks busy) and the rest
// waits here, where `restart` can drop it.

/** What the queue needs of xterm's Terminal. */
export type TerminalWriter = {
  /** Queues `data` for parsing; `parsed` runs once it has been. */
  write(data: Uint8Array | string, parsed: () => void): void;
};

/** Bytes handed to xterm and not yet parsed, at most. */
export const GIVEN_BYTES = 128 * 1024;

type Item = { kind: "output"; bytes: Uint8Array; drawn: () => void } | { kind: "barrier"; run: () => void };

export class TerminalWriteQueue {
  readonly #writer: TerminalWriter;
  readonly #limit: number;
  readonly #items: Item[] = [];
  #head = 0;
  /** Handed to xterm, not yet parsed. */
  #given = 0;
  #givenWrites = 0;

  constructor(writer: TerminalWriter, limit = GIVEN_BYTES) {
    this.#writer = writer;
    this.#limit = limit;
  }

  /** Bytes waiting here (not yet handed to xterm). */
  get waitingBytes(): number {
    let total = 0;
    for (let at = this.#head; at < this.#items.length; at++) {
      const item = this.#items[at]!;
      if (item.kind === "output") total += item.bytes.length;
    }
    return total;
  }

  /** Output to draw, in order; `drawn` runs once xterm has parsed it. */
  output(bytes: Uint8Array, drawn: () => void): void {
    this.#items.push({ kind: "output", bytes, drawn });
    this.#pump();
  }

  /** Runs `run` once everything queued before it is parsed, and before anything queued after it is given. */
  barrier(run: () => void): void {
    this.#items.push({ kind: "barrier", run });
    this.#pump();
  }

  /**
   * Drops what waits here (what xterm was already given is still drawn:
   * at most GIVEN_BYTES), then runs `run` once xterm has parsed that, before
   * anything queued after this call. A reattach resets the terminal so.
   */
  restart(run: () => void): void {
    this.#items.length = 0;
    this.#head = 0;
    this.barrier(run);
  }

  #pump(): void {
    while (this.#head < this.#items.length) {
      const item = this.#items[this.#head]!;
      if (item.kind === "barrier") {
        if (this.#givenWrites > 0) return;
        this.#shift();
        item.run();
        continue;
      }
      if (this.#given > 0 && this.#given + item.bytes.length > this.#limit) return;
      this.#shift();
      this.#given += item.bytes.length;
      this.#givenWrites++;
      this.#writer.write(item.bytes, () => {
        this.#given -= item.bytes.length;
        this.#givenWrites--;
        item.drawn();
        this.#pump();
      });
    }
  }

  #shift(): void {
    this.#head++;
    // Compacted now and then, not per item (an array's shift() copies the rest).
    if (this.#head === this.#items.length) {
      this.#items.length = 0;
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items.splice(0, this.#head);
      this.#head = 0;
    }
  }
}
