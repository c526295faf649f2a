// One connected browser as the hub sees it: its socket, how many bytes are
// queued for it and not yet written to the socket, when it last made
// progress, and where it is in pi's stdout stream.
import { randomBytes } from "node:crypto";
import type { WebSocket } from "ws";
import type { RelayFrame } from "@pier/protocol";

/**
 * - "catching_up": gets pi's stdout from the replay, at its own pace, from
 *   `offset` on (a new browser starts here, at the start of the replay; a
 *   browser that stopped reading comes back here).
 * - "live": at the head of the stream, gets each chunk as pi writes it.
 * - "closing": told to go (or cut off); gets nothing more.
 */
export type ClientState = "catching_up" | "live" | "closing";

export class BrowserClient {
  readonly id = randomBytes(6).toString("base64url");
  readonly socket: WebSocket;
  state: ClientState = "catching_up";
  /** While catching up: the stream offset of the next byte it gets. */
  offset = 0;
  /** The offset where the replay announced in its hello ends; null once `replay_end` went out. */
  replayEnd: number | null = null;
  /** While pi's stdout is paused on its behalf: since when (ms). */
  holdingSince: number | null = null;
  /**
   * Whether pi may wait for it again: always ("may"); not until it makes
   * progress, after it held pi up reading nothing ("after_progress"); not
   * until it has caught up, after it held pi up too long while reading
   * ("after_catching_up").
   */
  mayHold: "may" | "after_progress" | "after_catching_up" = "may";
  /**
   * While catching up: answers to its own reads (response-router.ts), each to
   * be sent when its offset reaches `at`, the place in the shared stream
   * where pi wrote it. In order; empty once live.
   */
  readonly privatePieces: { at: number; bytes: Buffer }[] = [];
  /** Bytes in privatePieces. */
  privateBytes = 0;
  #inFlight = 0;
  #lastProgressAt = 0;
  #lastSentAt = Date.now();
  #onWritten: (client: BrowserClient) => void;

  constructor(socket: WebSocket, onWritten: (client: BrowserClient) => void) {
    this.socket = socket;
    this.#onWritten = onWritten;
  }

  /** Bytes handed to the socket and not yet written to the network. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * When a write to this browser last completed, or when it was last given
   * something with nothing queued: a browser with bytes queued that has not
   * made progress for a while has stopped reading.
   */
  get lastProgressAt(): number {
    return this.#lastProgressAt;
  }

  /** When something was last handed to its socket (heartbeat.ts: a quiet browser gets a keepalive). */
  get lastSentAt(): number {
    return this.#lastSentAt;
  }

  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  sendFrame(frame: RelayFrame): void {
    this.sendText(JSON.stringify(frame));
  }

  sendText(text: string): void {
    this.#send(text, Buffer.byteLength(text), false);
  }

  /**
   * Queues `chunk` for the socket unless it is closed (false). `written` is
   * called once the socket is done with it (written, or the socket failed):
   * nothing of the relay's reads it after that.
   */
  sendBytes(chunk: Buffer, written?: () => void): boolean {
    return this.#send(chunk, chunk.length, true, written);
  }

  #send(data: string | Buffer, size: number, binary: boolean, written?: () => void): boolean {
    if (!this.open) return false;
    this.#lastSentAt = Date.now();
    if (this.#inFlight === 0) this.#lastProgressAt = this.#lastSentAt;
    this.#inFlight += size;
    this.socket.send(data, { binary }, () => {
      this.#inFlight -= size;
      this.#lastProgressAt = Date.now();
      written?.();
      this.#onWritten(this);
    });
    return true;
  }
}
