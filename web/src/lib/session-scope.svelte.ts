// One page, several live sessions. What belongs to one live session — its
// relay connection and the stores it feeds (workbench, sessions, inspector,
// controls, terminals…) — is made per session through `PerSession`, and the
// page shows one session at a time (`shown.base`).
//
// Switching keeps the sessions left behind connected (up to KEPT_SESSIONS,
// the least recently shown dropped first), so going back is instant and shows
// everything the session did meanwhile: its connection kept receiving and
// reducing. A dropped session, shown again, connects and hydrates as a
// reload does, still without loading the page.
//
// Modules keep exporting a plain binding (`export let connection`) that
// names the shown session's value (`show` reassigns it), and main.ts mounts
// the app afresh on a switch, so every component starts on the new
// session's values and none holds the old one's.
import { liveBase } from "./live-base.ts";

/** How many sessions a page keeps connected: the shown one and the last ones shown before it. */
export const KEPT_SESSIONS = 4;

/** The shown session's base: "" for the default session, "/live/<id>" for the others (live-base.ts). */
export const shown = $state({ base: typeof location === "undefined" ? "" : liveBase() });

/** What a per-session value may say about its session when the page would drop it. */
export type PerSessionEnd<T> = {
  /** Ends a value whose session the page dropped (closes its socket, frees its models…). */
  dispose?: (value: T) => void;
  /** True while the session must stay (unsaved edits): the page keeps it beyond KEPT_SESSIONS rather than lose them. */
  keep?: (value: T) => boolean;
};

type Slot = {
  create: (base: string) => unknown;
  show: (value: unknown) => void;
  end: PerSessionEnd<unknown>;
};

const slots: Slot[] = [];
/** Per session base, its values by slot; in the order the sessions were last shown (oldest first). */
const scopes = new Map<string, Map<Slot, unknown>>([[shown.base, new Map()]]);
const listeners = new Set<(base: string, fresh: boolean) => void>();

/**
 * A value each live session of the page has its own of. `create` makes a
 * session's (other per-session values it needs: their `of(base)`, never the
 * shown binding); `show` is told the shown session's after every switch;
 * `end` says how one ends when the page drops its session.
 */
export class PerSession<T> {
  readonly #slot: Slot;

  constructor(create: (base: string) => T, show: (value: T) => void = () => {}, end: PerSessionEnd<T> = {}) {
    this.#slot = { create, show: show as (value: unknown) => void, end: end as PerSessionEnd<unknown> };
    slots.push(this.#slot);
    // A module loaded late (a lazy chunk) still gets one for every session
    // the page holds, so none of them misses what its connection receives.
    for (const base of scopes.keys()) this.of(base);
  }

  /** That session's value, made the first time it is asked for. */
  of(base: string): T {
    return valueOf(this.#slot, base) as T;
  }

  /** The shown session's value. */
  get shown(): T {
    return this.of(shown.base);
  }
}

/**
 * Show another session: every per-session value is made for it (in the
 * order the modules declared them) and each module's binding moves to it;
 * then the listeners hear of it (`fresh`: the page did not hold that session
 * yet, so it must connect). False when it is already the shown one.
 */
export function showSession(base: string): boolean {
  if (base === shown.base) return false;
  const fresh = !scopes.has(base);
  const values = slots.map((slot) => ({ slot, value: valueOf(slot, base) }));
  // Last shown goes last: the first ones are the ones dropped.
  const scope = scopes.get(base)!;
  scopes.delete(base);
  scopes.set(base, scope);
  shown.base = base;
  for (const { slot, value } of values) slot.show(value);
  dropBeyondKept();
  for (const listener of listeners) listener(base, fresh);
  return true;
}

/** Hear of every switch (main.ts mounts the app again and connects a fresh session). */
export function onSessionShown(listener: (base: string, fresh: boolean) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The sessions the page holds, least recently shown first (tests, the board's "kept" hint). */
export function heldSessions(): string[] {
  return [...scopes.keys()];
}

function valueOf(slot: Slot, base: string): unknown {
  let scope = scopes.get(base);
  if (scope === undefined) {
    scope = new Map();
    scopes.set(base, scope);
  }
  if (!scope.has(slot)) scope.set(slot, slot.create(base));
  return scope.get(slot);
}

function dropBeyondKept(): void {
  let over = scopes.size - KEPT_SESSIONS;
  for (const [base, scope] of [...scopes]) {
    if (over <= 0) return;
    if (base === shown.base || slots.some((slot) => scope.has(slot) && slot.end.keep?.(scope.get(slot)) === true)) continue;
    scopes.delete(base);
    over--;
    // In reverse: what was made from the connection ends before the connection.
    for (const slot of [...slots].reverse()) if (scope.has(slot)) slot.end.dispose?.(scope.get(slot));
  }
}
