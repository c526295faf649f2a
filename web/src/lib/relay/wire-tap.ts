// A listener on what the connection applies, in the order it applies it:
// each chunk of pi's stdout before the records it completes, and each entry
// of the record log as it is appended (a pi record right after the reducer
// applied it, a command sent, a relay frame). The protocol inspector keeps
// models of its own from these (its store taps from the page's start,
// main.ts); the connection itself does nothing more than check whether
// anyone listens, so taps cost only what they do.
//
// Resets are not events of their own: a tap sees the relay entries (hello,
// child_started, child_exited) in their place and acts on them. The one
// exception is `reset`: the page forgot everything (a replay went back to
// its start), the record log counts from 1 again.

import type { LogEntry } from "../pi-state/record-log.ts";
import type { SessionState } from "../pi-state/session-state.ts";

export interface WireTap {
  /**
   * One binary WebSocket frame of pi's stdout, exactly as received, before
   * any record it completes is applied. The buffer is never reused: it may
   * be kept (not changed).
   */
  chunk(bytes: Uint8Array, at: number): void;
  /**
   * An entry was appended to the record log; `value` is its parsed JSON
   * (undefined for a line that is not JSON). For an "in" entry (a line of pi's
   * stdout) this is called right after the reducer applied it, and `after`
   * is the session state at that moment: read what you need now, it goes
   * on changing.
   */
  entry(entry: LogEntry, value: unknown, after: SessionState): void;
  /** Everything shown so far is gone and the record log is empty (a replay went back). */
  reset?(): void;
  /**
   * A replayed capture was applied up to its last event (`at`: that event's
   * time): nothing comes after it, so what still waits for an answer never
   * got one in the capture (expert-checks.ts endOfCapture).
   */
  captureEnd?(at: number): void;
}
