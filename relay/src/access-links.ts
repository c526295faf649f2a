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
//
// Memory is bounded whatever browsers (or a script) do. Every redemption
// makes a grant, so grants are capped: MAX_GRANTS_PER_LINK per viewer link
// (a class of 200 that reloads and changes browsers stays far below it) and
// MAX_GRANTS of each role in all; past a cap a redemption is refused with a
// sentence saying so, never a crash. Grants end:
// - a viewer's when its link expires (VIEWER_LINK_TTL_MS after the link was
//   made): a link's sessions end with it, so a link no longer listed as
//   live lets nobody in;
// - a driver's after DRIVER_IDLE_MS without use (any request, WebSocket
//   upgrade or frame): a driver who comes back within a week is still in;
// - anyone's when the link they came by is revoked: the grants are deleted,
//   not just flagged, so a revoke frees them and their cookies are refused
//   as unknown. The revoked link's record stays (a tombstone of a few
//   hundred bytes, among the REMEMBERED_LINKS) only so its secret is
//   refused as "revoked" rather than "unknown".
// Ended grants are swept when a cap is reached and every SWEEP_EVERY
// redemptions; a link's record is forgotten only once no grant of it is
// left, so a driver can always revoke what still lets someone in.
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
  /** The one live session it may reach (a viewer link made for a demo), or null for all of them. */
  scope: string | null;
};

/** Why a link does not let a browser in: "crowded" is its own cap of sessions, "full" the relay's. */
export type RedeemFailure = "used" | "expired" | "revoked" | "unknown" | "crowded" | "full";

export type Redemption = { ok: true; cookieValue: string; grant: Grant } | { ok: false; reason: RedeemFailure };

/** How long an unused driver link works. */
export const LINK_TTL_MS = 15 * 60_000;
/** How long a viewer link works (a class, a demo day). */
export const VIEWER_LINK_TTL_MS = 12 * 60 * 60_000;
/** Links remembered, so a second use can be told "already used" rather than "unknown". */
const REMEMBERED_LINKS = 1000;
/** Links kept at most, live and unused ones included (beyond it the oldest without sessions are forgotten). */
const MAX_LINKS = 2 * REMEMBERED_LINKS;
/** Sessions one viewer link may open. */
export const MAX_GRANTS_PER_LINK = 2000;
/** Sessions of each role, in all. */
export const MAX_GRANTS: Readonly<Record<Role, number>> = { viewer: 10_000, driver: 1000 };
/** How long a driver's session lasts unused. */
export const DRIVER_IDLE_MS = 7 * 24 * 60 * 60_000;
/** Redemptions between two sweeps of ended grants. */
const SWEEP_EVERY = 1000;

type LinkRecord = LinkInfo & { digest: string };
/** A grant and when it ends (a viewer's: its link's expiry; a driver's: pushed on with every use). */
type Held = { grant: Grant; endsAt: number };

const digest = (secret: string) => createHash("sha256").update(secret).digest("base64url");
const secret = () => randomBytes(32).toString("base64url");

export class AccessLinks {
  /** By digest of the secret. */
  readonly #links = new Map<string, LinkRecord>();
  readonly #byId = new Map<string, LinkRecord>();
  /** By digest of the cookie value. */
  readonly #grants = new Map<string, Held>();
  /** Link id → the digests of its grants (what a revoke deletes, and what a link's cap counts). */
  readonly #grantsByLink = new Map<string, Set<string>>();
  readonly #grantsByRole: Record<Role, number> = { viewer: 0, driver: 0 };
  readonly #now: () => number;
  #seq = 0;
  #redeemedSinceSweep = 0;
  /** Told of every revoke (each live session's room closes that link's browsers). */
  readonly #revokeListeners = new Set<(linkId: string) => void>();
  /** Told when the list of links changed (made, used, revoked): drivers are sent it again. */
  readonly #changeListeners = new Set<() => void>();

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A fresh link secret (for `?token=`): single-use for drivers, shared for viewers unless `maxUses` says otherwise. */
  issue(role: Role = "driver", options: { ttlMs?: number; maxUses?: number | null; createdBy?: string | null; scope?: string | null } = {}): { token: string; link: LinkInfo } {
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
      // A driver reaches every live session; only a viewer link is made for one.
      scope: role === "viewer" ? (options.scope ?? null) : null,
      digest: digest(token),
    };
    this.#links.set(record.digest, record);
    this.#byId.set(record.id, record);
    this.#prune();
    this.#tellChanged();
    return { token, link: publicInfo(record) };
  }

  /** Spend (or use) a link secret: a cookie value for this browser, or why not. */
  redeem(token: string | null | undefined): Redemption {
    const record = this.#usable(token);
    if (typeof record === "string") return { ok: false, reason: record };
    record.uses++;
    const cookieValue = secret();
    const grant: Grant = { id: `grant-${++this.#seq}`, role: record.role, linkId: record.id, digest: digest(cookieValue), scope: record.scope };
    const now = this.#now();
    this.#grants.set(grant.digest, { grant, endsAt: record.role === "driver" ? now + DRIVER_IDLE_MS : record.expiresAt });
    let ofLink = this.#grantsByLink.get(record.id);
    if (ofLink === undefined) this.#grantsByLink.set(record.id, (ofLink = new Set()));
    ofLink.add(grant.digest);
    this.#grantsByRole[grant.role]++;
    if (++this.#redeemedSinceSweep >= SWEEP_EVERY) this.#sweep(now);
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
    const now = this.#now();
    if (now > record.expiresAt) return "expired";
    // Caps: the link's own (its grants end with it, so sweeping would free none), then the role's, swept first.
    if ((this.#grantsByLink.get(record.id)?.size ?? 0) >= MAX_GRANTS_PER_LINK) return "crowded";
    if (this.#grantsByRole[record.role] >= MAX_GRANTS[record.role]) this.#sweep(now);
    if (this.#grantsByRole[record.role] >= MAX_GRANTS[record.role]) return "full";
    return record;
  }

  /** The grant a session cookie value carries, or null (unknown, ended, or its link was revoked). A driver's use keeps its session going. */
  grantFor(cookieValue: string | undefined): Grant | null {
    if (typeof cookieValue !== "string" || cookieValue.length === 0 || cookieValue.length > 256) return null;
    const held = this.#grants.get(digest(cookieValue));
    return held !== undefined && this.#stillHeld(held) ? held.grant : null;
  }

  /** Whether a grant still lets its browser in: checked again on every WebSocket frame, so a revoke stops a connected browser at once. */
  isLive(grant: Grant): boolean {
    const held = this.#grants.get(grant.digest);
    return held !== undefined && this.#stillHeld(held);
  }

  /** Sessions open (grants not yet swept), for tests and the benchmark. */
  get grantCount(): number {
    return this.#grants.size;
  }

  /** Links remembered (live ones and tombstones), for tests and the benchmark. */
  get linkCount(): number {
    return this.#byId.size;
  }

  /** Not ended and not revoked; a driver's use pushes its end on. An ended one is deleted on the spot. */
  #stillHeld(held: Held): boolean {
    const now = this.#now();
    if (now > held.endsAt || this.#byId.get(held.grant.linkId)?.revoked === true) {
      this.#drop(held.grant);
      return false;
    }
    if (held.grant.role === "driver") held.endsAt = now + DRIVER_IDLE_MS;
    return true;
  }

  #drop(grant: Grant): void {
    if (!this.#grants.delete(grant.digest)) return;
    this.#grantsByRole[grant.role]--;
    const ofLink = this.#grantsByLink.get(grant.linkId);
    ofLink?.delete(grant.digest);
    if (ofLink?.size === 0) this.#grantsByLink.delete(grant.linkId);
  }

  /** Deletes every ended grant. */
  #sweep(now: number): void {
    this.#redeemedSinceSweep = 0;
    for (const held of this.#grants.values()) if (now > held.endsAt) this.#drop(held.grant);
  }

  onRevoked(listener: (linkId: string) => void): () => void {
    this.#revokeListeners.add(listener);
    return () => this.#revokeListeners.delete(listener);
  }

  onChanged(listener: () => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  #tellChanged(): void {
    for (const listener of this.#changeListeners) listener();
  }

  /** Revoke a link: its secret and every session it opened stop working, and those sessions are freed. False when there is no such link. */
  revoke(linkId: string): boolean {
    const record = this.#byId.get(linkId);
    if (record === undefined) return false;
    record.revoked = true;
    for (const key of this.#grantsByLink.get(linkId) ?? []) this.#drop(this.#grants.get(key)!.grant);
    for (const listener of this.#revokeListeners) listener(linkId);
    this.#tellChanged();
    return true;
  }

  /** Links made so far, newest first, secrets left out. */
  list(): LinkInfo[] {
    return [...this.#byId.values()].reverse().map(publicInfo);
  }

  /**
   * Forget links beyond what is worth remembering, oldest first (Map order is
   * insertion order), never one that still has sessions: beyond
   * REMEMBERED_LINKS the spent, revoked and expired ones, and beyond
   * MAX_LINKS (a driver making links by the thousand) unused live ones too.
   */
  #prune(): void {
    if (this.#links.size <= REMEMBERED_LINKS) return;
    const now = this.#now();
    this.#sweep(now);
    for (const [key, record] of this.#links) {
      if (this.#links.size <= REMEMBERED_LINKS) break;
      if (this.#grantsByLink.has(record.id)) continue;
      const spent = record.maxUses !== null && record.uses >= record.maxUses;
      if (spent || record.revoked || now > record.expiresAt || this.#links.size > MAX_LINKS) {
        this.#links.delete(key);
        this.#byId.delete(record.id);
      }
    }
  }
}

function publicInfo(record: LinkRecord): LinkInfo {
  const { digest: _secretDigest, ...info } = record;
  return info;
}
