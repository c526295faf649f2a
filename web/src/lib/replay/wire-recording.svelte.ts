// Recording the wire to a capture file: everything this page receives and
// sends from now on, secrets always redacted (file contents too, if asked),
// downloaded as `pier-capture-<time>.jsonl` when the recording stops.
//
// A recording starts with a fresh connection: the relay then sends its hello
// and its replay of pi's output, so the capture holds all a player needs to
// rebuild the page from nothing (a capture that began mid-stream could not).

import { connections } from "../app-context.svelte.ts";
import type { RelayConnection } from "../relay/relay-connection.svelte.ts";
import { PerSession } from "../session-scope.svelte.ts";
import { CaptureWriter } from "../wire-log/capture.ts";
import { downloadBlob } from "../download-blob.ts";

/** How often the size shown while recording is brought up to date. */
const PROGRESS_MS = 500;

export function captureFileName(now: number): string {
  return `pier-capture-${new Date(now)
    .toISOString()
    .replace(/[:.]/g, "-")
    .replace(/-\d{3}Z$/, "Z")}.jsonl`;
}

class WireRecording {
  active = $state(false);
  /** Asked for the next recording: what read returned and write/edit wrote becomes "[redacted]". */
  redactFileContents = $state(false);
  events = $state(0);
  size = $state(0);
  truncated = $state(false);
  #writer: CaptureWriter | null = null;
  #stop: (() => void) | null = null;
  #progress: ReturnType<typeof setInterval> | null = null;
  readonly #connection: RelayConnection;

  constructor(connection: RelayConnection) {
    this.#connection = connection;
  }

  start(): void {
    const connection = this.#connection;
    if (this.active || connection.readOnly) return;
    const writer = new CaptureWriter({
      startedAt: Date.now(),
      pier: connection.hello?.relayVersion ?? "unknown",
      ...(connection.hello ? { piCommand: connection.hello.piCommand } : {}),
      redact: { secrets: true, fileContents: this.redactFileContents },
    });
    this.#writer = writer;
    this.#stop = connection.addRecorder({
      bytes: (bytes, at) => writer.addBytes(bytes, at),
      text: (text, at) => writer.addFrame(text, at),
      sent: (text, at) => writer.addSent(text, at),
    });
    this.active = true;
    this.events = 0;
    this.size = 0;
    this.truncated = false;
    this.#progress = setInterval(() => this.#update(), PROGRESS_MS);
    connection.retryNow();
  }

  /** Stop and download what was recorded. */
  stop(): void {
    const writer = this.#writer;
    if (!this.active || writer === null) return;
    this.#stop?.();
    this.#stop = null;
    if (this.#progress !== null) clearInterval(this.#progress);
    this.#progress = null;
    writer.finish();
    this.#update();
    this.active = false;
    this.#writer = null;
    downloadBlob(new Blob(writer.parts(), { type: "application/x-ndjson" }), captureFileName(Date.now()));
  }

  #update(): void {
    const writer = this.#writer;
    if (writer === null) return;
    this.events = writer.eventCount;
    this.size = writer.size;
    this.truncated = writer.truncated;
  }
}

/** A recording is of one live session's wire (session-scope.svelte.ts); `wireRecording` is the shown one's. */
const perSession = new PerSession(
  (base) => new WireRecording(connections.of(base)),
  (shown) => (wireRecording = shown),
);
export let wireRecording = perSession.shown;
