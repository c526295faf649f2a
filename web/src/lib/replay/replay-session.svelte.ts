// Which capture the page is replaying, if any, and how it got there: opened
// over a live session (a dropped file: Exit goes back to the relay) or served
// by `pier replay` (there is no live session to go back to).

import { connection } from "../app-context.svelte.ts";
import type { OpenedCapture } from "./open-capture.ts";
import { ReplayPlayer } from "./replay-player.svelte.ts";

export const REPLAY_PROBE_PATH = "/api/replay";
export const REPLAY_CAPTURE_PATH = "/api/replay/capture";

class ReplaySession {
  player = $state.raw<ReplayPlayer | null>(null);
  /** Served by `pier replay`: no relay to return to. */
  served = $state(false);

  open(capture: OpenedCapture, served = false): void {
    this.player?.dispose();
    const player = new ReplayPlayer(connection, capture);
    this.served = served;
    player.start();
    this.player = player;
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
