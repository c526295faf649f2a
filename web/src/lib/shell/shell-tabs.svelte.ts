// The shells of this page's live session as tabs of the terminal dock, beside
// the "Commands" tab (pi's RPC bash panels). The shells live in the relay:
// a reload lists them again and reattaches (each tab's ShellView gets its
// scrollback), and the relay's terminals_changed has every page list them
// again (a viewer's list is the shells a driver shares). Which tab was on
// top is kept per browser tab (sessionStorage).
import { MAX_TERMINALS, type TerminalInfo } from "@pier/protocol";
import { PerSession } from "../session-scope.svelte.ts";
import { shellApiFor, type ShellApi } from "./shell-api.ts";

/** The tab of pi's bash panels. */
export const COMMANDS_TAB = "commands";

export class ShellTabs {
  shells = $state<TerminalInfo[]>([]);
  /** COMMANDS_TAB or a shell's id. */
  active = $state<string>(COMMANDS_TAB);
  /** Why shells cannot be opened here (the relay's sentence), or null. */
  unavailable = $state<string | null>(null);
  /** The last thing that went wrong (opening, closing, listing), as a sentence. */
  error = $state<string | null>(null);
  busy = $state(false);
  readonly #api: ShellApi;
  readonly #storageKey: string;
  /** Bumped by every change this page made to the list: a listing asked for before it is stale. */
  #changes = 0;
  /** A listing is on its way; `#again`: another was asked for meanwhile. */
  #listing: Promise<void> | null = null;
  #again = false;

  constructor(api: ShellApi, storageKey: string) {
    this.#api = api;
    this.#storageKey = storageKey;
    this.active = readStored(storageKey) ?? COMMANDS_TAB;
  }

  get full(): boolean {
    return this.shells.length >= MAX_TERMINALS;
  }

  /**
   * Lists the relay's shells again (on load, when the dock opens, when the
   * relay says they changed); a tab whose shell is gone falls back to
   * Commands. One listing at a time: asked again meanwhile, it lists once
   * more after, so the last answer shown is never older than the last ask.
   */
  refresh(): Promise<void> {
    if (this.#listing !== null) {
      this.#again = true;
      return this.#listing;
    }
    this.#listing = (async () => {
      do {
        this.#again = false;
        await this.#listOnce();
      } while (this.#again);
      this.#listing = null;
    })();
    return this.#listing;
  }

  async #listOnce(): Promise<void> {
    const changesBefore = this.#changes;
    try {
      const answer = await this.#api.list();
      // This page opened, closed or shared one meanwhile: the answer may not have it; list again.
      if (this.#changes !== changesBefore) return void (this.#again = true);
      this.shells = answer.terminals;
      this.unavailable = answer.unavailable;
      this.error = null;
    } catch (error) {
      this.error = message(error);
    }
    if (this.active !== COMMANDS_TAB && !this.shells.some((shell) => shell.id === this.active)) this.select(COMMANDS_TAB);
  }

  /** A driver lets viewers watch a shell (never type), or stops them (their pages lose its tab at once). */
  async share(id: string, shared: boolean): Promise<void> {
    try {
      const shell = await this.#api.share(id, shared);
      this.#changes++;
      this.shells = this.shells.map((known) => (known.id === id ? shell : known));
      this.error = null;
    } catch (error) {
      this.error = message(error);
    }
  }

  async open(cols: number, rows: number): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const shell = await this.#api.create(cols, rows);
      this.#changes++;
      this.shells = [...this.shells, shell];
      this.error = null;
      this.select(shell.id);
    } catch (error) {
      this.error = message(error);
    } finally {
      this.busy = false;
    }
  }

  async close(id: string): Promise<void> {
    const index = this.shells.findIndex((shell) => shell.id === id);
    try {
      await this.#api.close(id);
    } catch (error) {
      // Gone already (closed from another browser, pier restarted): the tab goes anyway.
      if (!/no shell/.test(message(error))) return void (this.error = message(error));
    }
    this.#changes++;
    this.shells = this.shells.filter((shell) => shell.id !== id);
    if (this.active === id) this.select(this.shells[Math.min(index, this.shells.length - 1)]?.id ?? COMMANDS_TAB);
  }

  /** The shell ended (its socket said so): its tab stays, to read, until closed. */
  ended(id: string): void {
    this.shells = this.shells.map((shell) => (shell.id === id ? { ...shell, alive: false } : shell));
  }

  select(tab: string): void {
    this.active = tab;
    try {
      sessionStorage.setItem(this.#storageKey, tab);
    } catch {
      // Storage off: the choice lasts until the reload.
    }
  }

  socketUrl(id: string): string {
    return this.#api.socketUrl(id);
  }
}

function readStored(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Each live session's shells (session-scope.svelte.ts); `shellTabs` is the shown one's. */
const perSession = new PerSession(
  (base) => new ShellTabs(shellApiFor(base), `pier.shellTab:${base}`),
  (shown) => (shellTabs = shown),
);
export let shellTabs = perSession.shown;
