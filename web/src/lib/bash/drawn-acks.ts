// What a shell tab tells the relay about the output it has drawn
// (TerminalClientFrame "ack": a running total since its socket attached).
// The relay pauses the shell while a page has too much output it was sent
// and has not drawn yet (relay/src/terminal/shell-session.ts), so a key's
// echo during a flood waits behind at most that much; how often the page
// acks decides how soon the shell runs on. xterm parses what it is given in
// slices of about 12 ms, one task each, calling each write's callback as it
// goes: the total is sent once per such task, after its last callback (a
// microtask), so the relay hears of every slice without a frame per chunk.

export class DrawnAcks {
  #drawn = 0;
  #sent = 0;
  #queued = false;
  readonly #send: (drawn: number) => void;
  readonly #later: (then: () => void) => void;

  /**
   * `send` gets the running total; `later` runs its callback once the current
   * task's work is done (default: a microtask; called through an arrow, since
   * a browser's queueMicrotask called as this object's method throws
   * "Illegal invocation", inside xterm's write loop, which then stops).
   */
  constructor(send: (drawn: number) => void, later: (then: () => void) => void = (then) => queueMicrotask(then)) {
    this.#send = send;
    this.#later = later;
  }

  get drawn(): number {
    return this.#drawn;
  }

  /** xterm has parsed `bytes` more bytes of output. */
  drew(bytes: number): void {
    this.#drawn += bytes;
    if (this.#queued) return;
    this.#queued = true;
    this.#later(() => {
      this.#queued = false;
      if (this.#drawn === this.#sent) return;
      this.#sent = this.#drawn;
      this.#send(this.#drawn);
    });
  }
}
