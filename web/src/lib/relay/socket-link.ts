// The WebSocket to the relay, and keeping one: opening it, noticing one
// that died without closing or never opened, waiting longer between
// attempts after each failure, and asking the server whether a refused
// connection was refused for its cookie. What the socket brings is handed
// on as it arrives; what a close means (reconnect or not) is the caller's
// call, because the close must first take its place behind what arrived
// before it (inbound-queue.ts).

import { RELAY_SOCKET_PATH } from "@pier/protocol";

export const RECONNECT_MIN_MS = 500;
export const RECONNECT_MAX_MS = 10_000;
/**
 * A socket that died without closing (the relay's machine slept, the network
 * went) stays open for many minutes and shows "Connected". The relay sends
 * something at least every hello.heartbeatMs: after this many of those with
 * nothing heard, the connection is taken for dead and the page reconnects.
 */
export const SILENT_HEARTBEATS = 3;
/** How long the check of a refused connection's cookie may take (see probeUnauthorized). */
export const PROBE_TIMEOUT_MS = 5_000;
/** The close code this page gives a socket it gave up on for its silence. */
export const CLOSE_SILENT = 4000;
/** Before any hello told the relay's interval (its default, relay/src/heartbeat.ts). */
export const DEFAULT_HEARTBEAT_MS = 15_000;
/** A connection attempt that is neither open nor refused by then is given up, and tried again. */
export const OPEN_TIMEOUT_MS = 15_000;

/**
 * Where one connection reaches its relay. `prefix` is a URL path prefix
 * ("" today; a live session's own, like "/live/<id>", later): the socket
 * and every HTTP path the connection builds are under it.
 */
export interface RelayPaths {
  /** The WebSocket URL. */
  socketUrl: string;
  /** Where a HEAD tells whether this page's cookie is accepted. */
  probePath: string;
}

/** The paths for `prefix` on this page's host ("" = today's: the socket at /ws, the probe at the page's own path). */
export function relayPaths(prefix = "", page: Pick<Location, "protocol" | "host" | "pathname"> = location): RelayPaths {
  if (prefix !== "" && (!prefix.startsWith("/") || prefix.endsWith("/"))) {
    throw new Error(`A relay path prefix starts with "/" and does not end with one (got “${prefix}”).`);
  }
  const scheme = page.protocol === "https:" ? "wss" : "ws";
  return {
    socketUrl: `${scheme}://${page.host}${prefix}${RELAY_SOCKET_PATH}`,
    probePath: prefix === "" ? page.pathname : `${prefix}/`,
  };
}

/** Doubles from RECONNECT_MIN_MS to RECONNECT_MAX_MS; each delay is ±20% so that pages do not all come back at once. */
export class Backoff {
  #delay = RECONNECT_MIN_MS;
  readonly #random: () => number;

  constructor(random: () => number = Math.random) {
    this.#random = random;
  }

  next(): number {
    const delay = this.#delay * (0.8 + this.#random() * 0.4);
    this.#delay = Math.min(this.#delay * 2, RECONNECT_MAX_MS);
    return delay;
  }

  reset(): void {
    this.#delay = RECONNECT_MIN_MS;
  }
}

/** The part of a WebSocket the link uses (a test gives its own). */
export interface SocketLike {
  binaryType: BinaryType;
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

const OPEN = 1;

export interface SocketLinkOptions {
  paths: RelayPaths;
  /** A text frame (a relay control message). */
  onText(text: string, at: number): void;
  /** A binary frame (pi's stdout bytes). */
  onBytes(bytes: Uint8Array, at: number): void;
  /** The socket closed, or was given up (CLOSE_SILENT); `opened`: it had opened. Nothing is retried by itself: see retryLater. */
  onClosed(code: number, opened: boolean): void;
  /** The retry timer fired: open again. */
  onRetry(): void;
  createSocket?: (url: string) => SocketLike;
  fetch?: typeof fetch;
  now?: () => number;
  random?: () => number;
}

export class SocketLink {
  readonly #options: SocketLinkOptions;
  readonly #now: () => number;
  readonly #backoff: Backoff;
  #ws: SocketLike | null = null;
  #opened = false;
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the current socket was made, and when anything last arrived on it. */
  #socketSince = 0;
  #lastHeardAt = 0;

  constructor(options: SocketLinkOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#backoff = new Backoff(options.random);
  }

  /** A socket is open: send() can send. */
  get isOpen(): boolean {
    return this.#ws !== null && this.#ws.readyState === OPEN;
  }

  /** A retry is waiting. */
  get retrying(): boolean {
    return this.#retryTimer !== null;
  }

  /**
   * Open a new socket (any waiting retry is dropped). Returns what went
   * wrong when the socket could not even be made (a bad URL), else null.
   */
  open(): string | null {
    this.cancelRetry();
    this.#opened = false;
    this.#socketSince = this.#lastHeardAt = this.#now();
    let ws: SocketLike;
    try {
      ws = (this.#options.createSocket ?? ((url) => new WebSocket(url)))(this.#options.paths.socketUrl);
    } catch (error) {
      return String(error);
    }
    ws.binaryType = "arraybuffer";
    this.#ws = ws;
    ws.onopen = () => {
      this.#opened = true;
      this.#lastHeardAt = this.#now();
    };
    ws.onmessage = (event: MessageEvent) => {
      if (this.#ws !== ws) return;
      const at = (this.#lastHeardAt = this.#now());
      if (typeof event.data === "string") this.#options.onText(event.data, at);
      else if (event.data instanceof ArrayBuffer) this.#options.onBytes(new Uint8Array(event.data), at);
    };
    ws.onclose = (event: CloseEvent) => {
      if (this.#ws !== ws) return;
      this.#ws = null;
      this.#options.onClosed(event.code, this.#opened);
    };
    return null;
  }

  /** Send one text frame; false when no socket is open. */
  send(raw: string): boolean {
    const ws = this.#ws;
    if (ws === null || ws.readyState !== OPEN) return false;
    ws.send(raw);
    return true;
  }

  /** Close the socket (normally) and forget it: no onClosed follows. */
  drop(): void {
    this.#ws?.close(1000);
    this.#ws = null;
  }

  /** Drop the socket and any waiting retry (for good, until open()). */
  stop(): void {
    this.cancelRetry();
    this.drop();
  }

  /**
   * Gives up on a socket that has said nothing for too long (see
   * SILENT_HEARTBEATS), or that never opened: it is closed and dropped, and
   * onClosed is told (CLOSE_SILENT), like for any close. Meant to be
   * called every second; a timer of a tab in the background runs late,
   * which only makes this later. `heartbeatMs`: the relay's, from its hello
   * (0 or less: not known yet).
   */
  checkAlive(now: number, heartbeatMs: number): void {
    const ws = this.#ws;
    if (ws === null) return;
    const interval = heartbeatMs > 0 ? heartbeatMs : DEFAULT_HEARTBEAT_MS;
    const dead = this.#opened ? now - this.#lastHeardAt > SILENT_HEARTBEATS * interval : now - this.#socketSince > OPEN_TIMEOUT_MS;
    if (!dead) return;
    this.#ws = null;
    ws.close(CLOSE_SILENT, "no word from the relay");
    this.#options.onClosed(CLOSE_SILENT, this.#opened);
  }

  /** Call onRetry after the next backoff delay. False (and nothing done) when a retry is already waiting. */
  retryLater(): boolean {
    if (this.#retryTimer !== null) return false;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.#options.onRetry();
    }, this.#backoff.next());
    return true;
  }

  cancelRetry(): void {
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
  }

  /** The next failure waits the shortest delay again (a hello arrived; the person asked to retry). */
  resetBackoff(): void {
    this.#backoff.reset();
  }

  /**
   * A refused upgrade (HTTP 401) reaches the page only as close code 1006, so
   * ask the server directly whether our cookie is still accepted.
   */
  async probeUnauthorized(): Promise<boolean> {
    try {
      // Bounded: a relay that stopped answering would hold the reconnecting up.
      const response = await (this.#options.fetch ?? fetch)(this.#options.paths.probePath, {
        method: "HEAD",
        cache: "no-store",
        credentials: "same-origin",
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      return response.status === 401 || response.status === 403;
    } catch {
      return false;
    }
  }
}
