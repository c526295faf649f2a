// How many WebSockets the relay keeps open: in all, and per grant (one
// browser's tabs share its cookie). Past either, an upgrade is refused with
// an HTTP status and one sentence, before the WebSocket exists, so a script
// opening sockets by the thousand costs the relay a refused request each.
//
// What a connection costs the relay (bench/memory-bounds.bench.ts, with a
// full replay to catch up with): ~30-60 KB for one that reads nothing, since the
// replay pieces queued for it are lent from the replay's own storage
// (stdout-replay.ts) rather than copied (copies were ~0.5-1 MB each: 500 at
// once took the relay from ~130 MB to 600-835 MB). A browser that stops
// reading while pi streams can still have up to ~HIGH_WATER of live chunks
// queued (browser-hub.ts); the kernel holds more again for each socket. So
// the cap is MAX_CONNECTIONS: a class of 200 fits with room for second tabs,
// and the worst case stays within a few hundred MB.
//
// A slot is claimed when the upgrade is let through and given back when the
// underlying TCP socket closes, whether the WebSocket ever opened or not.
import type { Grant } from "./access-links.ts";

export const MAX_CONNECTIONS = 500;
export const MAX_CONNECTIONS_PER_GRANT = 20;

export type Claim = { ok: true; release: () => void } | { ok: false; status: 429 | 503; reason: string };

export class ConnectionLimits {
  readonly #maxTotal: number;
  readonly #maxPerGrant: number;
  #total = 0;
  /** grant id → its open connections (no entry: none). */
  readonly #perGrant = new Map<string, number>();

  constructor(maxTotal = MAX_CONNECTIONS, maxPerGrant = MAX_CONNECTIONS_PER_GRANT) {
    this.#maxTotal = maxTotal;
    this.#maxPerGrant = maxPerGrant;
  }

  get total(): number {
    return this.#total;
  }

  /** A slot for one more connection with `grant`, or why not. `release` may be called any number of times. */
  claim(grant: Grant): Claim {
    const mine = this.#perGrant.get(grant.id) ?? 0;
    if (mine >= this.#maxPerGrant) {
      return { ok: false, status: 429, reason: `this browser has ${mine} Pier tabs or windows open already; close some of them and reload` };
    }
    if (this.#total >= this.#maxTotal) {
      return { ok: false, status: 503, reason: `Pier has ${this.#total} browsers connected, as many as it serves at once; try again when someone has left` };
    }
    this.#total++;
    this.#perGrant.set(grant.id, mine + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#total--;
      const left = (this.#perGrant.get(grant.id) ?? 1) - 1;
      if (left === 0) this.#perGrant.delete(grant.id);
      else this.#perGrant.set(grant.id, left);
    };
    return { ok: true, release };
  }
}
