// The Sessions panel's state and actions: the saved sessions of this
// workspace (listed by the relay from disk, paged and searchable), the
// current session's tree (get_tree), and switching, forking, cloning,
// starting and exporting sessions. Every action says what happened in words;
// an extension that cancels a switch or fork changes nothing.
import { SESSIONS_API_PATHS, SESSIONS_LIMITS, type SessionListItem, type SessionListResponse } from "@pier/protocol";
import { connections, fillPrompt } from "../app-context.svelte.ts";
import { PerSession } from "../session-scope.svelte.ts";
import { sessionsPanels, type SessionsPanelState } from "./sessions-panel.svelte.ts";
import { failureText } from "../controls/controls.svelte.ts";
import type { RelayConnection } from "../relay/relay-connection.svelte.ts";
import { userEntryIdFor } from "../pi-state/entry-index.ts";
import type { SessionTreeNode } from "./session-tree.ts";
import { copyName, type CopyKind } from "./copy-name.ts";

/** What an action did, for the person who asked. */
export type Outcome = { error: string | null; note: string | null };

const ok = (note: string | null = null): Outcome => ({ error: null, note });
const failed = (error: string): Outcome => ({ error, note: null });

const SEARCH_DELAY_MS = 200;
const REFRESH_DELAY_MS = 300;

export class SessionsStore {
  tab = $state<"list" | "tree">("list");

  items = $state.raw<SessionListItem[]>([]);
  total = $state(0);
  query = $state("");
  loading = $state(false);
  listError = $state<string | null>(null);
  dir = $state<string | null>(null);

  tree = $state.raw<SessionTreeNode[] | null>(null);
  treeLeafId = $state<string | null>(null);
  treeLoading = $state(false);
  treeError = $state<string | null>(null);

  readonly conn: RelayConnection;
  /** Whether the panel is open: kept apart (sessions-panel.svelte.ts), the header's button reads it before this store is loaded. */
  readonly #panel: SessionsPanelState;
  #listSeq = 0;
  #treeSeq = 0;
  #buildSeq = 0;
  #stopEffects: (() => void) | null = null;

  constructor(conn: RelayConnection, panel: SessionsPanelState) {
    this.conn = conn;
    this.#panel = panel;
  }

  get open(): boolean {
    return this.#panel.open;
  }
  set open(open: boolean) {
    this.#panel.open = open;
  }

  /** Whether pi saves sessions at all (not with `--no-session`). */
  get persisted(): boolean {
    return this.conn.hello?.sessions?.persisted ?? false;
  }

  /**
   * Keep what is on screen current (idempotent). Called as the store is made
   * (its module loads with the panel or a first fork, so no component of the
   * first screen is there to start it); stopped when the page drops the session.
   */
  start(): void {
    if (this.#stopEffects) return;
    this.#stopEffects = $effect.root(() => {
      // Files appear and grow while pi works: refetch the open list, calmly.
      $effect(() => {
        void this.conn.sessionsListVersion;
        if (!this.open || this.tab !== "list") return;
        const timer = setTimeout(() => void this.loadList(false), REFRESH_DELAY_MS);
        return () => clearTimeout(timer);
      });
      // The search box: ask as the person types, a little behind.
      $effect(() => {
        void this.query;
        if (!this.open || this.tab !== "list") return;
        const timer = setTimeout(() => void this.loadList(true), SEARCH_DELAY_MS);
        return () => clearTimeout(timer);
      });
      // The tree follows pi's entries (a run, a fork, another session) at no extra cost.
      $effect(() => {
        void this.conn.entriesVersion;
        if (this.open && this.tab === "tree") this.#buildTree();
      });
      // Opening the tree asks pi for anything newer first.
      $effect(() => {
        if (this.open && this.tab === "tree" && this.conn.connected) void this.loadTree();
      });
    });
  }

  /** The page dropped this store's session (session-scope.svelte.ts). */
  stop(): void {
    this.#stopEffects?.();
    this.#stopEffects = null;
  }

  // ── the saved sessions ────────────────────────────────────────────────

  /** The first page again (`reset`), or every page loaded so far refreshed. */
  async loadList(reset: boolean): Promise<void> {
    const seq = ++this.#listSeq;
    const limit = reset ? SESSIONS_LIMITS.defaultPageSize : Math.max(SESSIONS_LIMITS.defaultPageSize, Math.min(this.items.length, SESSIONS_LIMITS.maxPageSize));
    this.loading = true;
    const page = await fetchSessions(this.conn.prefix, 0, limit, this.query.trim());
    if (seq !== this.#listSeq) return;
    this.loading = false;
    if ("error" in page) {
      this.listError = page.error;
      return;
    }
    this.listError = null;
    this.dir = page.dir;
    this.items = page.sessions;
    this.total = page.total;
  }

  async loadMore(): Promise<void> {
    if (this.loading || this.items.length >= this.total) return;
    const seq = ++this.#listSeq;
    this.loading = true;
    const page = await fetchSessions(this.conn.prefix, this.items.length, SESSIONS_LIMITS.defaultPageSize, this.query.trim());
    if (seq !== this.#listSeq) return;
    this.loading = false;
    if ("error" in page) {
      this.listError = page.error;
      return;
    }
    this.items = [...this.items, ...page.sessions];
    this.total = page.total;
  }

  // ── the current session's tree ────────────────────────────────────────

  /**
   * The tree, rebuilt from the entries the connection keeps current (after
   * every run, compaction, bash, reconnect). Not pi's get_tree: pi 0.87.1
   * serialises that nested tree recursively and fails ("Maximum call stack
   * size exceeded") on sessions deeper than about 2,000 entries.
   */
  async loadTree(): Promise<void> {
    const seq = ++this.#treeSeq;
    this.treeLoading = true;
    const failure = await this.conn.refreshEntries();
    if (seq !== this.#treeSeq) return;
    this.treeLoading = false;
    this.treeError = failure;
    // New entries, if any, bumped entriesVersion: the effect rebuilds the tree.
  }

  #buildTree(): void {
    const index = this.conn.entries;
    const seq = ++this.#buildSeq;
    // Loaded with the first tree shown, not with the first screen (bench/first-load.bench.ts).
    void import("./session-tree.ts").then(({ treeFromEntries }) => {
      if (seq !== this.#buildSeq) return;
      this.tree = treeFromEntries(index.entries);
      this.treeLeafId = index.leafId;
    });
  }

  // ── actions ───────────────────────────────────────────────────────────

  /** pi is busy: switching, forking or starting a session would cut its run short. */
  get busy(): boolean {
    return this.conn.session.status === "streaming";
  }

  /** Stop the run first (pi answers abort once idle), when the person agreed to. */
  async #stopIfAsked(stopFirst: boolean): Promise<string | null> {
    if (!this.busy) return null;
    if (!stopFirst) return "pi is working: stop it first.";
    return failureText(await this.conn.call({ type: "abort" }));
  }

  async switchTo(path: string, stopFirst = false): Promise<Outcome> {
    const stopped = await this.#stopIfAsked(stopFirst);
    if (stopped !== null) return failed(`Not switched: ${stopped}`);
    const response = await this.conn.call({ type: "switch_session", sessionPath: path });
    const error = failureText(response);
    if (error !== null) return failed(`Not switched: ${error}`);
    if (response.success && response.command === "switch_session" && response.data?.cancelled) {
      return ok("An extension cancelled the switch; you are still in this session.");
    }
    return ok("Switched.");
  }

  async newSession(stopFirst = false): Promise<Outcome> {
    const stopped = await this.#stopIfAsked(stopFirst);
    if (stopped !== null) return failed(`No new session: ${stopped}`);
    const response = await this.conn.call({ type: "new_session" });
    const error = failureText(response);
    if (error !== null) return failed(`No new session: ${error}`);
    if (response.success && response.command === "new_session" && response.data?.cancelled) {
      return ok("An extension kept the current session.");
    }
    return ok("New session started.");
  }

  async clone(stopFirst = false): Promise<Outcome> {
    const stopped = await this.#stopIfAsked(stopFirst);
    if (stopped !== null) return failed(`Not cloned: ${stopped}`);
    const source = this.conn.session.sessionName;
    const response = await this.conn.call({ type: "clone" });
    const error = failureText(response);
    if (error !== null) return failed(`Not cloned: ${error}`);
    if (response.success && response.command === "clone" && response.data?.cancelled) {
      return ok("An extension cancelled the clone; you are still in this session.");
    }
    const unnamed = await this.#nameCopy(source, "clone");
    return ok(`Cloned: you are in the copy now.${unnamed}`);
  }

  /** Fork from a user entry: a new session up to just before it, its text back in the prompt box. */
  async forkEntry(entryId: string, stopFirst = false): Promise<Outcome> {
    const stopped = await this.#stopIfAsked(stopFirst);
    if (stopped !== null) return failed(`Not forked: ${stopped}`);
    const source = this.conn.session.sessionName;
    const response = await this.conn.call({ type: "fork", entryId });
    const error = failureText(response);
    if (error !== null) return failed(`Not forked: ${error}`);
    const data = response.success && response.command === "fork" ? response.data : undefined;
    if (data?.cancelled) return ok("An extension cancelled the fork; you are still in this session.");
    if (typeof data?.text === "string") fillPrompt(data.text);
    const unnamed = await this.#nameCopy(source, "fork");
    return ok(`Forked: edit the prompt and send it to take the conversation another way.${unnamed}`);
  }

  /**
   * Once pi confirmed a fork or clone (it answers after switching to the
   * copy), the copy of a named session is named after it, marked as a copy:
   * pi copied the name as it was. Unnamed sessions stay unnamed (listed by
   * their first prompt). Answers words to add when the name was refused.
   */
  async #nameCopy(source: string | null, kind: CopyKind): Promise<string> {
    if (source === null) return "";
    const error = failureText(await this.conn.call({ type: "set_session_name", name: copyName(source, kind) }));
    if (error !== null) return ` It keeps the name “${source}”: ${error}`;
    // As after a rename in the header: pages still loading the new session
    // (the get_state they asked for as it opened) would otherwise be left
    // with the copied name; pi's answer reaches every browser.
    this.conn.send({ type: "get_state" });
    return "";
  }

  /** Fork from a user message of the transcript (its entry id is looked up in pi's entries). */
  async forkMessage(message: { role: string; timestamp?: unknown }, stopFirst = false): Promise<Outcome> {
    let entryId = userEntryIdFor(this.conn.entries, message);
    if (entryId === null) {
      await this.conn.refreshEntries();
      entryId = userEntryIdFor(this.conn.entries, message);
    }
    if (entryId === null) return failed("Not forked: pi's session does not hold this message (yet). Try again once pi has answered it.");
    return this.forkEntry(entryId, stopFirst);
  }

  /** pi writes the HTML into the relay's export folder; the browser downloads it once. */
  async exportHtml(): Promise<Outcome> {
    const exportDir = this.conn.hello?.sessions?.exportDir;
    if (!exportDir) return failed("Not exported: this relay offers no export folder.");
    const name = `export-${crypto.randomUUID()}.html`;
    const response = await this.conn.call({ type: "export_html", outputPath: `${exportDir}/${name}` });
    const error = failureText(response);
    if (error !== null) return failed(`Not exported: ${error}`);
    download(`${this.conn.prefix}${SESSIONS_API_PATHS.exportPrefix}${name}?name=${encodeURIComponent(this.#downloadName())}`);
    return ok("Exported: the HTML file is downloading.");
  }

  /** The session's own JSONL file (the current one when no path is given). */
  downloadJsonl(path: string | null = this.conn.session.sessionFile, name: string | null = null): Outcome {
    if (!path) return failed("Nothing to download: pi writes the session file after its first answer.");
    download(`${this.conn.prefix}${SESSIONS_API_PATHS.download}?path=${encodeURIComponent(path)}&name=${encodeURIComponent(name ?? this.#downloadName())}`);
    return ok(null);
  }

  #downloadName(): string {
    const session = this.conn.session;
    return session.sessionName ?? `pi-session-${(session.sessionId ?? "").slice(0, 8) || "export"}`;
  }
}

async function fetchSessions(prefix: string, offset: number, limit: number, q: string): Promise<SessionListResponse | { error: string }> {
  // Under the store's live session (`/live/<id>/api/…`): its own saved sessions, not the default one's.
  const url = `${prefix}${SESSIONS_API_PATHS.list}?offset=${offset}&limit=${limit}${q ? `&q=${encodeURIComponent(q)}` : ""}`;
  try {
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } });
    const body = (await response.json()) as SessionListResponse | { error?: { message?: string } };
    if (!response.ok || !("sessions" in body)) {
      return { error: ("error" in body && body.error?.message) || `The relay answered ${response.status}.` };
    }
    return body;
  } catch (error) {
    return { error: `Cannot reach the relay: ${String(error)}` };
  }
}

/** Start a same-origin download (the relay answers with Content-Disposition: attachment). */
function download(href: string): void {
  const link = document.createElement("a");
  link.href = href;
  link.download = "";
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
}

/** Each live session's saved sessions (session-scope.svelte.ts); `sessions` is the shown one's. */
const perSession = new PerSession(
  (base) => {
    const store = new SessionsStore(connections.of(base), sessionsPanels.of(base));
    store.start();
    return store;
  },
  (shown) => (sessions = shown),
  { dispose: (store) => store.stop() },
);
export let sessions = perSession.shown;
