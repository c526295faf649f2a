// Which capture the page is replaying, if any, and how it got there: opened
// over a live session (a dropped file: Exit goes back to the relay) or served
// by `pier replay` (there is no live session to go back to), and the second
// capture `pier replay A B` opens compared with it.

import { connection } from "../app-context.svelte.ts";
import type { OpenedCapture } from "./open-capture.ts";
import { ReplayPlayer } from "./replay-player.svelte.ts";

export const REPLAY_PROBE_PATH = "/api/replay";
export const REPLAY_CAPTURE_PATH = "/api/replay/capture";
export const REPLAY_COMPARE_PATH = "/api/replay/compare";

/** The second capture served by `pier replay A B`, or why it could not be had. */
export type ServedCompare = { ok: true; file: File } | { ok: false; message: string };

class ReplaySession {
  player = $state.raw<ReplayPlayer | null>(null);
  /** Served by `pier replay`: no relay to return to. */
  served = $state(false);
  /**
   * A capture to open compared with the one replayed (`pier replay A B`),
   * until the replay bar's Compare with… takes it; another capture opened
   * first drops it.
   */
  compareWith = $state.raw<{ capture: OpenedCapture; file: Promise<ServedCompare> } | null>(null);

  open(capture: OpenedCapture, served = false): void {
    this.player?.dispose();
    this.compareWith = null;
    const player = new ReplayPlayer(connection, capture);
    this.served = served;
    player.start();
    this.player = player;
  }

  /** Opens the comparison of the capture replayed now with `file` once the replay bar is there. */
  compareOnOpen(file: Promise<ServedCompare>): void {
    if (this.player !== null) this.compareWith = { capture: this.player.capture, file };
  }

  /** Leave the replay and reconnect to the live session. */
  exit(): void {
    if (this.player === null || this.served) return;
    this.player.dispose();
    this.player = null;
    connection.endReplay();
  }
}

export const replaySession = new ReplaySession();
