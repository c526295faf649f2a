// The two ends of "record and replay" on the connection, as plain shapes:
// what a recording is told (everything this page received or sent, in the
// order it happened, before any of it is applied) and what a player feeds
// back in its place. Kept apart from the capture file format
// (wire-log/capture.ts), which is only one way to store them.

/** Told about each thing as it arrives or leaves, before it is applied. */
export interface WireRecorder {
  /** One binary WebSocket frame of pi's stdout, exactly as received (never reused: it may be kept). */
  bytes(bytes: Uint8Array, at: number): void;
  /** One relay text frame, as received. */
  text(text: string, at: number): void;
  /** A command this page sent, the exact text. */
  sent(text: string, at: number): void;
}

/** One recorded event fed back into a read-only connection; `at` is when it happened (ms since the epoch). */
export type ReplayItem =
  | { kind: "bytes"; bytes: Uint8Array; at: number }
  | { kind: "text"; text: string; at: number }
  /** `by`: another browser sent it (absent: this page did). */
  | { kind: "sent"; text: string; at: number; by?: { clientId: string; name?: string } };
