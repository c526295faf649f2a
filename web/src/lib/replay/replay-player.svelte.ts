// Plays a capture through the app's own connection: play, pause, step, seek
// and speed. The connection does the rest exactly as it did live (see
// RelayConnection.beginReplay), so "the page at record i" is simply the page
// after the first i recorded events were applied.
//
// Going forward feeds the events in between; going back resets the page and
// feeds from the first event. Feeding only queues them: the connection
// applies its queue in time-boxed slices, one per animation frame, so even a
// jump across 100,000 records leaves the page responsive, and a newer seek
// simply replaces the queue of an older one. `caughtUp` says when the page
// shows the chosen position.
//
// A large capture plays while it is still being read (capture-progress.ts):
// the range is every event the file can hold, but the player only feeds what
// is read. Asked for a position beyond that (the slider's end, Next at the
// read edge, playing into it), it goes as far as it can, remembers where it
// was asked to be, and follows the reading there; `waitingFor` says so.

import type { RelayConnection } from "../relay/relay-connection.svelte.ts";
import type { OpenedCapture } from "./open-capture.ts";
import { MAX_SPEED_BATCH, firstAfter, waitBetween, type Speed } from "./replay-clock.ts";

export class ReplayPlayer {
  readonly conn: RelayConnection;
  readonly capture: OpenedCapture;
  /** Events applied (or queued to be): the page shows the capture after this many. */
  position = $state(0);
  playing = $state(false);
  speed = $state<Speed>(1);
  /** Events read and checked so far (every one once the file is read). */
  available = $state(0);
  /** Events of the capture: while reading, those the file can hold at most. */
  total = $state(0);
  /** How much of the file is read (0 … 1) while reading; null once it is read. */
  reading = $state<number | null>(null);
  /** The reading stopped at a bad line: the sentence naming it (the player keeps the events before it). */
  readError = $state<string | null>(null);
  /** A position asked for beyond what is read: the player follows the reading there. */
  waitingFor = $state<number | null>(null);
  #timer: ReturnType<typeof setTimeout> | null = null;
  #stopListening: (() => void) | null = null;

  constructor(conn: RelayConnection, capture: OpenedCapture) {
    this.conn = conn;
    this.capture = capture;
    const progress = capture.progress;
    this.available = progress?.read ?? capture.items.length;
    this.total = progress?.expected ?? capture.items.length;
    if (progress !== null && !progress.done) {
      this.reading = progress.fraction;
      this.#stopListening = progress.onChange(() => this.#onRead());
    }
  }

  get count(): number {
    return this.total;
  }

  /** Recorded time (ms since the capture started) of the page as shown: that of the last event applied. */
  get time(): number {
    return this.position === 0 ? 0 : this.capture.times[this.position - 1]!;
  }

  /** Recorded time of the last event read (of the capture, once read). */
  get duration(): number {
    return this.available === 0 ? 0 : this.capture.times[this.available - 1]!;
  }

  get atEnd(): boolean {
    return this.position >= this.count;
  }

  /** Take the connection over and show the capture's first moment. */
  start(): void {
    this.conn.beginReplay();
    this.position = 0;
  }

  play(): void {
    if (this.atEnd) this.seek(0);
    this.playing = true;
    this.#schedule();
  }

  pause(): void {
    this.playing = false;
    this.#clearTimer();
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  /** The next recorded event (pauses first). */
  step(): void {
    this.pause();
    if (!this.atEnd) this.#goTo(this.position + 1);
  }

  /** Show the page as it was after `position` events. */
  seek(position: number): void {
    const target = Math.max(0, Math.min(this.count, Math.round(position)));
    if (target < this.position) {
      this.conn.restartReplay();
      this.position = 0;
    }
    this.#goTo(target);
    if (this.playing) this.#schedule();
  }

  setSpeed(speed: Speed): void {
    this.speed = speed;
    if (this.playing) this.#schedule();
  }

  /** Stop playing and let go of the connection (the caller reconnects or closes it). */
  /** The capture is left for good (every capture opened gets a player of its own): its reading stops too. */
  dispose(): void {
    this.pause();
    this.#stopListening?.();
    this.#stopListening = null;
    this.capture.progress?.cancel();
  }

  /** Feed up to `target`, or as far as is read and follow the reading there. */
  #goTo(target: number): void {
    this.waitingFor = target > this.available ? target : null;
    this.#feedTo(Math.min(target, this.available));
  }

  /** More of the file is read (or the reading ended). */
  #onRead(): void {
    const progress = this.capture.progress!;
    this.available = progress.read;
    this.total = progress.expected;
    this.reading = progress.done ? null : progress.fraction;
    this.readError = progress.error;
    if (progress.done) {
      this.#stopListening?.();
      this.#stopListening = null;
    }
    if (this.waitingFor !== null) this.#goTo(Math.min(this.waitingFor, this.total));
    if (this.playing && this.#timer === null) this.#schedule();
  }

  #feedTo(target: number): void {
    if (target <= this.position) return;
    this.conn.replay(this.capture.items, this.position, target);
    this.position = target;
  }

  #schedule(): void {
    this.#clearTimer();
    if (!this.playing) return;
    if (this.atEnd) {
      this.playing = false;
      return;
    }
    // At the edge of what is read: #onRead carries on.
    if (this.position >= this.available) return;
    const { times } = this.capture;
    const wait = this.speed === "max" ? (this.conn.caughtUp ? 0 : 16) : waitBetween(this.time, times[this.position]!, this.speed);
    this.#timer = setTimeout(() => this.#tick(), wait);
  }

  #tick(): void {
    this.#timer = null;
    if (!this.playing) return;
    // Only what is read (the arrays beyond are room for the rest).
    const times = this.capture.times.subarray(0, this.available);
    if (this.speed === "max") {
      // Only as fast as the page applies: more while it keeps up.
      if (this.conn.caughtUp) this.#feedTo(Math.min(this.available, this.position + MAX_SPEED_BATCH));
    } else {
      // Everything recorded at the same moment as the next event goes together.
      this.#feedTo(firstAfter(times, times[this.position]!, this.position));
    }
    this.#schedule();
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
