// Browsers that are gone without closing, and pages on a relay that is gone
// without closing.
//
// A laptop that sleeps, a phone that loses its network or a pulled cable
// closes nothing: its socket stays open here until the kernel gives up on it,
// many minutes later, and until then that person is still listed as here.
// So every `intervalMs` each browser is pinged (a WebSocket ping, answered by
// the browser itself, not by the page), and one that has not answered by the
// next one is cut off: it is gone from the people here within two intervals.
// A browser with bytes queued for it must also have taken none of them for
// an interval: its ping waits behind them, and a slow reader that makes
// progress is the hub's to pace (browser-hub.ts), not a vanished one.
//
// The other way round, a page cannot see pings, and its socket to a relay
// that vanished stays open just as long, showing "Connected". So the relay
// also makes sure each page hears something at least every interval: a
// `keepalive` frame when nothing else went out (the hello tells the
// interval). The page reconnects when it hears nothing for several.
import type { RelayFrame } from "@pier/protocol";
import type { BrowserClient } from "./browser-client.ts";

export const HEARTBEAT_MS = 15_000;

const KEEPALIVE: RelayFrame = { type: "keepalive" };

type Watched = { client: BrowserClient; answered: boolean; onPong: () => void };

export class Heartbeat {
  readonly intervalMs: number;
  readonly #watched = new Map<BrowserClient, Watched>();
  readonly #timer: NodeJS.Timeout;

  constructor(intervalMs: number = HEARTBEAT_MS) {
    this.intervalMs = intervalMs;
    this.#timer = setInterval(() => this.#beat(), intervalMs);
    this.#timer.unref();
  }

  watch(client: BrowserClient): void {
    const watched: Watched = { client, answered: true, onPong: () => (watched.answered = true) };
    client.socket.on("pong", watched.onPong);
    this.#watched.set(client, watched);
  }

  forget(client: BrowserClient): void {
    const watched = this.#watched.get(client);
    if (watched === undefined) return;
    client.socket.off("pong", watched.onPong);
    this.#watched.delete(client);
  }

  stop(): void {
    clearInterval(this.#timer);
    for (const client of [...this.#watched.keys()]) this.forget(client);
  }

  #beat(): void {
    const now = Date.now();
    for (const watched of this.#watched.values()) {
      const { client } = watched;
      if (!client.open) continue;
      // A paused socket is not read (pi's stdin is full, see pi-bridge.ts):
      // its pong may be waiting unread, so it cannot be judged now.
      const judged = !client.socket.isPaused && (client.inFlight === 0 || now - client.lastProgressAt >= this.intervalMs);
      if (judged && !watched.answered) {
        client.socket.terminate();
        continue;
      }
      if (judged) watched.answered = false;
      client.socket.ping();
      if (now - client.lastSentAt >= this.intervalMs) client.sendFrame(KEEPALIVE);
    }
  }
}
