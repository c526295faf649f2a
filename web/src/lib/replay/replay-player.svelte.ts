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
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(conn: RelayConnection, capture: OpenedCapture) {
    this.conn = conn;
    this.capture = capture;
  }

  get count(): number {
    return this.capture.items.length;
  }

  /** Recorded time (ms since the capture started) of the page as shown: that of the last event applied. */
  get time(): number {
    return this.position === 0 ? 0 : this.capture.times[this.position - 1]!;
  }

  get duration(): number {
    return this.count === 0 ? 0 : this.capture.times[this.count - 1]!;
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
    if (!this.atEnd) this.#feedTo(this.position + 1);
  }

  /** Show the page as it was after `position` events. */
  seek(position: number): void {
    const target = Math.max(0, Math.min(this.count, Math.round(position)));
    if (target < this.position) {
      this.conn.restartReplay();
      this.position = 0;
    }
    this.#feedTo(target);
    if (this.playing) this.#schedule();
  }

  setSpeed(speed: Speed): void {
    this.speed = speed;
    if (this.playing) this.#schedule();
  }

  /** Stop playing and let go of the connection (the caller reconnects or closes it). */
  dispose(): void {
    this.pause();
  }

  #feedTo(target: number): void {
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
    const { times } = this.capture;
    const wait = this.speed === "max" ? (this.conn.caughtUp ? 0 : 16) : waitBetween(this.time, times[this.position]!, this.speed);
    this.#timer = setTimeout(() => this.#tick(), wait);
  }

  #tick(): void {
    this.#timer = null;
    if (!this.playing) return;
    const { times } = this.capture;
    if (this.speed === "max") {
      // Only as fast as the page applies: more while it keeps up.
      if (this.conn.caughtUp) this.#feedTo(Math.min(this.count, this.position + MAX_SPEED_BATCH));
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
