// pi's stdout on its way to the browsers, in batches: as few frames as keep up.
//
// Handing a chunk to a browser costs one socket write, a system call, and
// that is most of what the relay does while pi streams: pi writes a few
// hundred records a second, each read as a chunk of its own, so 200 viewers
// meant ~100,000 writes a second and a relay busy most of the time (its
// event loop then runs late, and so does every viewer). The writes cost per
// chunk, hardly per byte, so the chunks pi writes while one fan-out is being
// paid for are sent together in the next one: after each fan-out the relay
// waits SPACING times as long as that fan-out took before the next one (at
// most MAX_WAIT_MS), so fanning out never takes more than about a fifth of
// its time, whatever the number of browsers. A chunk arriving after that
// pause goes out at once.
//
// Each frame also costs every browser, whatever the relay's own cost: in
// Chromium 156 a binary WebSocket message takes the page's main thread about
// 0.1 ms before any of Pier's code runs (20,000 records sent in 2,500 frames
// cost a page that did nothing with them 490 ms of main-thread time, in 500
// frames 240 ms). pi streaming a fast answer wrote ~800 chunks a second. So
// fan-outs are also at least MIN_SPACING_MS apart: while pi writes quickly,
// at most ~250 frames a second reach a browser, each chunk a few
// milliseconds later at most, well within the frame a page shows it in.
// A chunk after a quiet moment still goes out at once, as pi's read cut it
// (a wait under MIN_WAIT_MS is not worth a timer). With 200 browsers a
// fan-out takes about a millisecond and SPACING sets the pause instead.
// The bytes are the same either way; only where one frame ends and the next
// begins changes (the replay keeps the batches, so a browser catching up gets
// the same frames the live ones got).
//
// The batcher only keeps time: it counts the bytes waiting, which are
// already copied into the replay's storage (staged, stdout-replay.ts), and
// says when they go out; `deliver` then sends views of that storage, so a
// batch of several reads is not copied into a Buffer of its own.
//
// Nothing else waits on a batch: `flush()` sends what is pending at once, for
// whatever must come after every byte pi wrote so far (child_started,
// child_exited).
/** After a fan-out, wait this many times as long as it took before the next. */
export const SPACING = 4;
/** The longest a chunk waits for the next fan-out. */
export const MAX_WAIT_MS = 5;
/** After a fan-out, the next comes no sooner than this, however cheap it was (for the browsers' sake). */
export const MIN_SPACING_MS = 4;
/**
 * A shorter wait is not worth a timer (Node's fire after 1 ms at the
 * soonest): the chunk goes out at once. So while fan-outs take under a
 * quarter of a millisecond (a handful of browsers), nothing is batched.
 */
export const MIN_WAIT_MS = 1;
/** A batch this large goes out at once (pi writes at most 64 KiB per read, so this is a few reads). */
export const MAX_BATCH_BYTES = 256 * 1024;

export type BatcherOptions = {
  /** A clock in ms (performance.now by default; tests pass their own). */
  now?: () => number;
  spacing?: number;
  maxWaitMs?: number;
  minSpacingMs?: number;
};

export class StdoutBatcher {
  readonly #deliver: () => void;
  readonly #now: () => number;
  readonly #spacing: number;
  readonly #maxWaitMs: number;
  readonly #minSpacingMs: number;
  #pendingBytes = 0;
  #timer: NodeJS.Timeout | null = null;
  /** When the last fan-out ended, and how long to leave after it. */
  #lastEnd = Number.NEGATIVE_INFINITY;
  #spacingMs = 0;

  /** `deliver` fans out the bytes waiting, as one batch (commits them to the replay and sends them to every browser). */
  constructor(deliver: () => void, options: BatcherOptions = {}) {
    this.#deliver = deliver;
    this.#now = options.now ?? (() => performance.now());
    this.#spacing = options.spacing ?? SPACING;
    this.#maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
    this.#minSpacingMs = options.minSpacingMs ?? MIN_SPACING_MS;
  }

  /** Bytes read but not delivered yet. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /** pi wrote `bytes` more (staged already): delivered now, or with the next batch. */
  push(bytes: number): void {
    if (bytes === 0) return;
    this.#pendingBytes += bytes;
    if (this.#timer !== null && this.#pendingBytes < MAX_BATCH_BYTES) return;
    const wait = this.#lastEnd + this.#spacingMs - this.#now();
    if (wait < MIN_WAIT_MS || this.#pendingBytes >= MAX_BATCH_BYTES) return this.flush();
    this.#timer = setTimeout(() => this.flush(), wait);
  }

  /** Delivers whatever is pending now, as one batch. */
  flush(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#pendingBytes === 0) return;
    this.#pendingBytes = 0;
    const started = this.#now();
    this.#deliver();
    this.#lastEnd = this.#now();
    this.#spacingMs = Math.min(this.#maxWaitMs, Math.max(this.#minSpacingMs, this.#spacing * (this.#lastEnd - started)));
  }

  /** Forgets what is pending (the relay is shutting down). */
  dispose(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#pendingBytes = 0;
  }
}
