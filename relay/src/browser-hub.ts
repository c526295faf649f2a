// The set of connected browsers and the stream to each of them.
//
// Backpressure, relay → browsers: every frame sent to a browser is counted
// until ws reports it written. When any browser has more than HIGH_WATER
// bytes in flight, pi's stdout is paused (pi then blocks on its own stdout
// pipe, which it honours), and resumed when all are below LOW_WATER. A browser
// that keeps the stream paused for longer than STALL_LIMIT_MS is disconnected
// (close code 4008) so one slow tab cannot freeze the others; its page
// reconnects and rebuilds from the replay. The relay therefore never holds
// more than about HIGH_WATER plus one read chunk per browser.
//
// Backpressure, browsers → pi: when pi's stdin is full, every browser socket
// is paused (ws stops reading, TCP pushes back) until stdin drains.
import { randomBytes } from "node:crypto";
import type { WebSocket } from "ws";
import type { RelayFrame } from "@pier/protocol";

export const HIGH_WATER = 1024 * 1024;
export const LOW_WATER = 256 * 1024;
export const STALL_LIMIT_MS = 10_000;
export const CLOSE_TOO_SLOW = 4008;

export class BrowserClient {
  readonly id = randomBytes(6).toString("base64url");
  readonly socket: WebSocket;
  #inFlight = 0;
  #onWritten: () => void;

  constructor(socket: WebSocket, onWritten: () => void) {
    this.socket = socket;
    this.#onWritten = onWritten;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  sendFrame(frame: RelayFrame): void {
    this.sendText(JSON.stringify(frame));
  }

  sendText(text: string): void {
    this.#send(text, false);
  }

  sendBytes(chunk: Buffer): void {
    this.#send(chunk, true);
  }

  #send(data: string | Buffer, binary: boolean): void {
    if (!this.open) return;
    const size = typeof data === "string" ? Buffer.byteLength(data) : data.length;
    this.#inFlight += size;
    this.socket.send(data, { binary }, () => {
      this.#inFlight -= size;
      this.#onWritten();
    });
  }
}

export type StdoutFlow = { pause(): void; resume(): void };

export class BrowserHub {
  readonly clients = new Set<BrowserClient>();
  #flow: StdoutFlow;
  #pausedSince: number | null = null;
  #stallTimer: NodeJS.Timeout | null = null;

  constructor(flow: StdoutFlow) {
    this.#flow = flow;
  }

  add(socket: WebSocket): BrowserClient {
    const client = new BrowserClient(socket, () => this.#maybeResume());
    this.clients.add(client);
    return client;
  }

  remove(client: BrowserClient): void {
    this.clients.delete(client);
    this.#maybeResume();
  }

  broadcastFrame(frame: RelayFrame): void {
    const text = JSON.stringify(frame);
    for (const client of this.clients) client.sendText(text);
  }

  broadcastBytes(chunk: Buffer): void {
    for (const client of this.clients) client.sendBytes(chunk);
    this.#maybePause();
  }

  pauseReading(): void {
    for (const client of this.clients) client.socket.pause();
  }

  resumeReading(): void {
    for (const client of this.clients) client.socket.resume();
  }

  /** Called after anything is queued for a client (e.g. a replay). */
  #maybePause(): void {
    if (this.#pausedSince !== null) return;
    for (const client of this.clients) {
      if (client.inFlight > HIGH_WATER) {
        this.#pausedSince = Date.now();
        this.#flow.pause();
        this.#stallTimer = setTimeout(() => this.#dropStalled(), STALL_LIMIT_MS);
        return;
      }
    }
  }

  checkPressure(): void {
    this.#maybePause();
  }

  #maybeResume(): void {
    if (this.#pausedSince === null) return;
    for (const client of this.clients) if (client.inFlight > LOW_WATER) return;
    this.#pausedSince = null;
    if (this.#stallTimer) clearTimeout(this.#stallTimer);
    this.#stallTimer = null;
    this.#flow.resume();
  }

  #dropStalled(): void {
    this.#stallTimer = null;
    for (const client of this.clients) {
      if (client.inFlight > LOW_WATER) {
        this.clients.delete(client);
        client.socket.close(CLOSE_TOO_SLOW, "too slow: this page fell behind pi's output; reload to catch up");
        // A socket that cannot even take its close frame is cut.
        setTimeout(() => client.socket.terminate(), 2000).unref();
      }
    }
    this.#pausedSince = Date.now();
    this.#maybeResume();
  }

  closeAll(code: number, reason: string): void {
    for (const client of this.clients) client.socket.close(code, reason);
    this.clients.clear();
    if (this.#stallTimer) clearTimeout(this.#stallTimer);
  }
}
