// Browsers watching the board: each gets a `board` frame when it connects
// and whenever a card changes (live-sessions.ts coalesces changes), filtered
// to what its grant may see. A revoked link's board sockets close at once.
import type { WebSocket } from "ws";
import { CLOSE_REVOKED, type BoardFrame } from "@pier/protocol";
import type { AccessLinks, Grant } from "../access-links.ts";
import { boardFor } from "./live-api.ts";
import type { LiveSessions } from "./live-sessions.ts";

/** A board frame is small; a socket this far behind is not reading, and is dropped rather than buffered without end. */
const MAX_BUFFERED = 4 * 1024 * 1024;

export class BoardSockets {
  readonly #watchers = new Map<WebSocket, Grant>();
  readonly #links: AccessLinks;
  readonly #sessions: LiveSessions;
  readonly #unsubscribe: () => void;

  constructor(links: AccessLinks, sessions: LiveSessions) {
    this.#links = links;
    this.#sessions = sessions;
    this.#unsubscribe = links.onRevoked((linkId) => {
      for (const [ws, grant] of this.#watchers) if (grant.linkId === linkId) ws.close(CLOSE_REVOKED, "the link this page was opened with was revoked");
    });
  }

  add(ws: WebSocket, grant: Grant): void {
    this.#watchers.set(ws, grant);
    ws.on("close", () => this.#watchers.delete(ws));
    ws.on("error", () => ws.terminate());
    // The board socket only listens: anything a browser sends on it is ignored, never read.
    ws.on("message", () => {});
    this.#send(ws, grant);
  }

  /** Every watcher gets the board again. */
  changed(): void {
    for (const [ws, grant] of this.#watchers) this.#send(ws, grant);
  }

  closeAll(code: number, reason: string): void {
    this.#unsubscribe();
    for (const ws of this.#watchers.keys()) ws.close(code, reason);
  }

  #send(ws: WebSocket, grant: Grant): void {
    if (ws.readyState !== ws.OPEN) return;
    if (!this.#links.isLive(grant)) return ws.close(CLOSE_REVOKED, "the link this page was opened with was revoked");
    if (ws.bufferedAmount > MAX_BUFFERED) return ws.terminate();
    const frame: BoardFrame = { type: "board", board: boardFor(this.#sessions, grant) };
    ws.send(JSON.stringify(frame));
  }
}
