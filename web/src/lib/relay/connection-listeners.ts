// Who listens to a connection besides its runes fields: views that keep
// their own state from pi's records (bash panels), the workspace's file
// views (files changed on disk), the protocol inspector's wire taps, and
// recordings. Each is called in a try of its own: a listener that throws
// is logged and the others, and the connection, go on.
//
// Taps and recorders are usually none: the hot path asks `tapping` /
// `recording` (a length check) before building anything for them.

import type { LogEntry } from "../pi-state/record-log.ts";
import type { SessionState } from "../pi-state/session-state.ts";
import type { WireRecorder } from "./replay-feed.ts";
import type { WireTap } from "./wire-tap.ts";

/** `paths` null: anything may have changed. `git`: the repository moved (commit, checkout…), whatever the paths. */
export type WorkspaceChangeListener = (paths: string[] | null, git: boolean) => void;

/**
 * Every pi stdout record as it is reduced (replay included), and "reset" when
 * what came before no longer counts (a new hello starts a full replay; pi restarted).
 */
export type RecordListener = (event: { kind: "record"; record: unknown; replaying: boolean } | { kind: "reset" }) => void;

/** What a recorder is told about, as the connection queues it. */
export type RecordedItem = { kind: "bytes"; bytes: Uint8Array; at: number } | { kind: "text"; text: string; at: number } | { kind: "out"; raw: string; at: number };

function guarded(what: string, fn: () => void): void {
  try {
    fn();
  } catch (error) {
    console.error(`${what} failed`, error);
  }
}

export class ConnectionListeners {
  #workspace = new Set<WorkspaceChangeListener>();
  /**
   * Replaced, not changed, on add and remove (a listener removed while others
   * are told is still told this once), so that telling them, for every record
   * pi streams, copies nothing.
   */
  #records: RecordListener[] = [];
  /** Replaced, not changed, on add and remove: a tap removed while others are told is still told this once. */
  #taps: WireTap[] = [];
  #recorders: WireRecorder[] = [];

  /** Returns the unsubscribe function. */
  onWorkspaceChanged(listener: WorkspaceChangeListener): () => void {
    this.#workspace.add(listener);
    return () => this.#workspace.delete(listener);
  }

  /** Returns the unsubscribe function. */
  onRecord(listener: RecordListener): () => void {
    // Once each, as in a set.
    if (!this.#records.includes(listener)) this.#records = [...this.#records, listener];
    return () => {
      this.#records = this.#records.filter((l) => l !== listener);
    };
  }

  /** Returns the function that removes the tap. */
  addWireTap(tap: WireTap): () => void {
    this.#taps = [...this.#taps, tap];
    return () => {
      this.#taps = this.#taps.filter((t) => t !== tap);
    };
  }

  /** Returns the function that stops the recording. */
  addRecorder(recorder: WireRecorder): () => void {
    this.#recorders = [...this.#recorders, recorder];
    return () => {
      this.#recorders = this.#recorders.filter((r) => r !== recorder);
    };
  }

  get tapping(): boolean {
    return this.#taps.length !== 0;
  }

  get recording(): boolean {
    return this.#recorders.length !== 0;
  }

  workspaceChanged(paths: string[] | null, git: boolean): void {
    for (const listener of [...this.#workspace]) guarded("workspace_changed listener", () => listener(paths, git));
  }

  // These three run for every chunk or record (the taps while the inspector
  // listens): a try of their own, without a closure per call.
  record(event: Parameters<RecordListener>[0]): void {
    for (const listener of this.#records) {
      try {
        listener(event);
      } catch (error) {
        console.error("record listener failed", error);
      }
    }
  }

  tapChunk(bytes: Uint8Array, at: number): void {
    for (const tap of this.#taps) {
      try {
        tap.chunk(bytes, at);
      } catch (error) {
        console.error("wire tap failed", error);
      }
    }
  }

  tapEntry(entry: LogEntry, value: unknown, after: SessionState): void {
    for (const tap of this.#taps) {
      try {
        tap.entry(entry, value, after);
      } catch (error) {
        console.error("wire tap failed", error);
      }
    }
  }

  tapReset(): void {
    for (const tap of this.#taps) guarded("wire tap", () => tap.reset?.());
  }

  tapCaptureEnd(at: number): void {
    for (const tap of this.#taps) guarded("wire tap", () => tap.captureEnd?.(at));
  }

  /** Tell the recorders what crossed the wire (before it is applied). */
  recordWire(item: RecordedItem): void {
    for (const recorder of this.#recorders) {
      guarded("wire recorder", () => {
        if (item.kind === "bytes") recorder.bytes(item.bytes, item.at);
        else if (item.kind === "text") recorder.text(item.text, item.at);
        else recorder.sent(item.raw, item.at);
      });
    }
  }
}
