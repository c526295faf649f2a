// What pi's stdout does not say about an RPC `bash` command: its command line
// (pi records the bashExecution message without emitting it) and whether the
// user closed its panel. Kept per tab in sessionStorage so a reload rebuilds
// the panels from the relay's replay with their commands. Bounded; ids are
// `${clientId}:${n}` and never reused, so stale entries are harmless.

import type { KnownCommand } from "./bash-panel-store.ts";

const KEY = "pier.bashPanels.v1";
const MAX_ENTRIES = 200;

interface Saved {
  commands: [string, KnownCommand][];
  closed: string[];
}

/** The part of the Web Storage API this needs (tests pass a Map-backed fake). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export class CommandMemory {
  #storage: StorageLike | null;
  #commands = new Map<string, KnownCommand>();
  #closed = new Set<string>();

  constructor(storage: StorageLike | null) {
    this.#storage = storage;
    try {
      const raw = storage?.getItem(KEY);
      if (!raw) return;
      const saved = JSON.parse(raw) as Partial<Saved>;
      for (const [id, known] of saved.commands ?? []) {
        if (typeof id === "string" && typeof known?.command === "string") this.#commands.set(id, known);
      }
      for (const id of saved.closed ?? []) if (typeof id === "string") this.#closed.add(id);
    } catch {
      // Unreadable: start empty rather than fail the page.
    }
  }

  lookup(id: string): KnownCommand | undefined {
    return this.#commands.get(id);
  }

  isClosed(id: string): boolean {
    return this.#closed.has(id);
  }

  remember(id: string, known: KnownCommand): void {
    this.#commands.set(id, known);
    trim(this.#commands);
    this.#save();
  }

  /** Remember when pi answered a command this tab sent (a replay cannot tell). */
  finished(id: string, endedAt: number): void {
    const known = this.#commands.get(id);
    if (known === undefined || known.endedAt === endedAt) return;
    this.#commands.set(id, { ...known, endedAt });
    this.#save();
  }

  markClosed(id: string): void {
    this.#closed.add(id);
    trim(this.#closed);
    this.#save();
  }

  #save(): void {
    const saved: Saved = { commands: [...this.#commands], closed: [...this.#closed] };
    try {
      this.#storage?.setItem(KEY, JSON.stringify(saved));
    } catch {
      // Quota or privacy mode: the panels still work, they just forget on reload.
    }
  }
}

function trim(collection: Map<string, unknown> | Set<string>): void {
  let excess = collection.size - MAX_ENTRIES;
  for (const key of collection.keys()) {
    if (excess-- <= 0) break;
    collection.delete(key);
  }
}

/** sessionStorage when the page may use it, else nothing. */
export function browserSessionStorage(): StorageLike | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}
