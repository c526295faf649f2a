// Links that let a browser in, and the sessions they become.
//
// A link carries a fresh random secret (256 bits) and a role. A driver link
// works ONCE, within its lifetime: opening it trades the secret for a
// session cookie (another random value) and the secret is spent, so a copy
// that leaked afterwards (a shell history, a screen share, a synced browser
// history) opens nothing. A viewer link may be opened by any number of
// browsers (a classroom, a QR code on a projector) until it expires or is
// revoked. Revoking a link stops its secret and every session it opened.
//
// Secrets are looked up by their SHA-256, never compared as strings, so the
// lookup time says nothing about how much of a guess was right.
import { createHash, randomBytes } from "node:crypto";
import type { LinkInfo, Role } from "@pier/protocol";

/** What a session cookie lets its browser do. */
export type Grant = {
  /** Unique per redemption. */
  id: string;
  role: Role;
  /** The link it was redeemed from. */
  linkId: string;
  /** The digest of its cookie value (its key among the grants). */
  digest: string;
};

export type RedeemFailure = "used" | "expired" | "revoked" | "unknown";

export type Redemption = { ok: true; cookieValue: string; grant: Grant } | { ok: false; reason: RedeemFailure };

/** How long an unused driver link works. */
export const LINK_TTL_MS = 15 * 60_000;
/** How long a viewer link works (a class, a demo day). */
export const VIEWER_LINK_TTL_MS = 12 * 60 * 60_000;
/** Links remembered, so a second use can be told "already used" rather than "unknown". */
const REMEMBERED_LINKS = 1000;

type LinkRecord = LinkInfo & { digest: string };

const digest = (secret: string) => createHash("sha256").update(secret).digest("base64url");
const secret = () => randomBytes(32).toString("base64url");

export class AccessLinks {
  /** By digest of the secret. */
  readonly #links = new Map<string, LinkRecord>();
  readonly #byId = new Map<string, LinkRecord>();
  /** By digest of the cookie value. */
  readonly #grants = new Map<string, Grant>();
  readonly #now: () => number;
  #seq = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A fresh link secret (for `?token=`): single-use for drivers, shared for viewers unless `maxUses` says otherwise. */
  issue(role: Role = "driver", options: { ttlMs?: number; maxUses?: number | null; createdBy?: string | null } = {}): { token: string; link: LinkInfo } {
    const token = secret();
    const now = this.#now();
    const record: LinkRecord = {
      id: `link-${++this.#seq}`,
      role,
      createdAt: now,
      expiresAt: now + (options.ttlMs ?? (role === "viewer" ? VIEWER_LINK_TTL_MS : LINK_TTL_MS)),
      maxUses: options.maxUses !== undefined ? options.maxUses : role === "viewer" ? null : 1,
      uses: 0,
      revoked: false,
      createdBy: options.createdBy ?? null,
      digest: digest(token),
    };
    this.#links.set(record.digest, record);
    this.#byId.set(record.id, record);
    this.#prune();
    return { token, link: publicInfo(record) };
  }

  /** Spend (or use) a link secret: a cookie value for this browser, or why not. */
  redeem(token: string | null | undefined): Redemption {
    const record = this.#usable(token);
    if (typeof record === "string") return { ok: false, reason: record };
    record.uses++;
    const cookieValue = secret();
    const grant: Grant = { id: `grant-${++this.#seq}`, role: record.role, linkId: record.id, digest: digest(cookieValue) };
    this.#grants.set(grant.digest, grant);
    return { ok: true, cookieValue, grant };
  }

  /** Why `redeem` would refuse this secret now, or null when it would let a browser in. Spends nothing (the door asks before sending a link on to pier's own host name). */
  check(token: string | null | undefined): RedeemFailure | null {
    const record = this.#usable(token);
    return typeof record === "string" ? record : null;
  }

  #usable(token: string | null | undefined): LinkRecord | RedeemFailure {
    if (typeof token !== "string" || token.length === 0 || token.length > 256) return "unknown";
    const record = this.#links.get(digest(token));
    if (record === undefined) return "unknown";
    if (record.revoked) return "revoked";
    if (record.maxUses !== null && record.uses >= record.maxUses) return "used";
    if (this.#now() > record.expiresAt) return "expired";
    return record;
  }

  /** The grant a session cookie value carries, or null (unknown, or its link was revoked). */
  grantFor(cookieValue: string | undefined): Grant | null {
    if (typeof cookieValue !== "string" || cookieValue.length === 0 || cookieValue.length > 256) return null;
    const grant = this.#grants.get(digest(cookieValue));
    if (grant === undefined) return null;
    return this.#byId.get(grant.linkId)?.revoked === true ? null : grant;
  }

  /** Whether a grant still lets its browser in: checked again on every WebSocket frame, so a revoke stops a connected browser at once. */
  isLive(grant: Grant): boolean {
    return this.#grants.has(grant.digest) && this.#byId.get(grant.linkId)?.revoked !== true;
  }

  /** Revoke a link: its secret and every session it opened stop working. False when there is no such link. */
  revoke(linkId: string): boolean {
    const record = this.#byId.get(linkId);
    if (record === undefined) return false;
    record.revoked = true;
    return true;
  }

  /** Links made so far, newest first, secrets left out. */
  list(): LinkInfo[] {
    return [...this.#byId.values()].reverse().map(publicInfo);
  }

  /** Forget spent, revoked and expired links beyond what is worth remembering (Map order is insertion order). */
  #prune(): void {
    if (this.#links.size <= REMEMBERED_LINKS) return;
    const now = this.#now();
    for (const [key, record] of this.#links) {
      if (this.#links.size <= REMEMBERED_LINKS) break;
      const spent = record.maxUses !== null && record.uses >= record.maxUses;
      if (spent || record.revoked || now > record.expiresAt) {
        this.#links.delete(key);
        // A revoked link's grants must stay refused: keep its record by id.
        if (!record.revoked) this.#byId.delete(record.id);
      }
    }
  }
}

function publicInfo(record: LinkRecord): LinkInfo {
  const { digest: _secretDigest, ...info } = record;
  return info;
}
