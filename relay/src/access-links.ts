// Links that let a browser in, and the sessions they become.
//
// A link carries a fresh random secret (256 bits) that works ONCE, within
// LINK_TTL_MS: opening it trades the secret for a session cookie (another
// random value) and the secret is spent. A link that leaked afterwards (a
// shell history, a screen share, a synced browser history) opens nothing.
// `pier` prints a fresh link whenever asked. Each redemption is its own
// grant: it can be told apart and revoked without touching the others.
//
// Secrets are looked up by their SHA-256, never compared as strings, so the
// lookup time says nothing about how much of a guess was right.
import { createHash, randomBytes } from "node:crypto";

export type Role = "driver";

/** What a session cookie lets its browser do. */
export type Grant = {
  /** Unique per redemption. */
  id: string;
  role: Role;
  /** The link it was redeemed from. */
  linkId: string;
};

export type RedeemFailure = "used" | "expired" | "unknown";

export type Redemption = { ok: true; cookieValue: string; grant: Grant } | { ok: false; reason: RedeemFailure };

/** How long an unused link works. */
export const LINK_TTL_MS = 15 * 60_000;
/** Spent and expired links remembered, so a second use can be told "already used" rather than "unknown". */
const REMEMBERED_LINKS = 1000;

type LinkRecord = { id: string; role: Role; expiresAt: number; spent: boolean };

const digest = (secret: string) => createHash("sha256").update(secret).digest("base64url");
const secret = () => randomBytes(32).toString("base64url");

export class AccessLinks {
  readonly #links = new Map<string, LinkRecord>();
  readonly #grants = new Map<string, Grant>();
  readonly #now: () => number;
  #seq = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A fresh single-use link secret (for `?token=`). */
  issue(role: Role = "driver", ttlMs = LINK_TTL_MS): { token: string; linkId: string; expiresAt: number } {
    const token = secret();
    const record: LinkRecord = { id: `link-${++this.#seq}`, role, expiresAt: this.#now() + ttlMs, spent: false };
    this.#links.set(digest(token), record);
    this.#prune();
    return { token, linkId: record.id, expiresAt: record.expiresAt };
  }

  /** Spend a link secret: a cookie value for this browser, or why not. */
  redeem(token: string | null | undefined): Redemption {
    if (typeof token !== "string" || token.length === 0 || token.length > 256) return { ok: false, reason: "unknown" };
    const record = this.#links.get(digest(token));
    if (record === undefined) return { ok: false, reason: "unknown" };
    if (record.spent) return { ok: false, reason: "used" };
    if (this.#now() > record.expiresAt) return { ok: false, reason: "expired" };
    record.spent = true;
    const cookieValue = secret();
    const grant: Grant = { id: `grant-${++this.#seq}`, role: record.role, linkId: record.id };
    this.#grants.set(digest(cookieValue), grant);
    return { ok: true, cookieValue, grant };
  }

  /** The grant a session cookie value carries, or null. */
  grantFor(cookieValue: string | undefined): Grant | null {
    if (typeof cookieValue !== "string" || cookieValue.length === 0 || cookieValue.length > 256) return null;
    return this.#grants.get(digest(cookieValue)) ?? null;
  }

  /** Forget spent and expired links beyond what is worth remembering (Map order is insertion order). */
  #prune(): void {
    if (this.#links.size <= REMEMBERED_LINKS) return;
    const now = this.#now();
    for (const [key, record] of this.#links) {
      if (this.#links.size <= REMEMBERED_LINKS) break;
      if (record.spent || now > record.expiresAt) this.#links.delete(key);
    }
  }
}
