// Loading pi's session into the page and keeping its entries current.
// The entry index (pi-state/entry-index.ts) is the cursor: kept across
// reconnects and pi restarts, it lets this browser ask only for the entries
// after the last one it knows (`get_entries` with `since`). A load shows the
// session: its transcript is rebuilt from the entries, or asked of pi
// (get_messages) when only pi can compute it. An advance (after a run, a
// compaction, a bash) only moves the cursor on, one request at a time.
//
// The loader sends through the connection (its `send`, which gives the id)
// and is handed back the answers whose ids it asked for (take, answer).

import type { AgentMessage, RpcResponse } from "../pi-types.ts";
import type { OutgoingCommand } from "./outgoing.ts";
import { warmLongLineParser } from "./long-line-parser.ts";
import { applyGetMessages } from "../pi-state/reduce-record.ts";
import { applyEntriesAnswer, createEntryIndex, lastEntryId, plainConversation, resetEntryIndex, type EntryIndex } from "../pi-state/entry-index.ts";
import type { SessionState } from "../pi-state/session-state.ts";

/** Why a get_entries was sent: to show the session (load), or only to keep the cursor current (advance). */
export type EntriesRequest = { since: string | null; purpose: "load" | "advance"; seen?: MessagesSeen };

/**
 * The transcript as it was when a load was asked for. pi can write a
 * command's events before its answers to queries sent earlier (seen at
 * start-up: an extension command's messages came before the get_entries
 * answer, which did not hold them), so a load whose transcript moved on
 * meanwhile is older than what the page shows, and is asked for again.
 */
type MessagesSeen = { count: number; last: unknown };

/** How long a page waits before asking again for entries the relay refused to ask pi for (rate_limited). */
export const ENTRIES_RETRY_MS = 1000;

export interface SessionLoaderOptions {
  /** Send a pi command; its id, or null when it could not be sent. */
  send(command: OutgoingCommand): string | null;
  /** Send and wait for the answer (never rejects: a failure is a response). */
  call(command: OutgoingCommand): Promise<RpcResponse>;
  /** The session state a load fills (the transcript): read each time, the connection's field may be replaced. */
  session(): SessionState;
  /** The entries changed (their `version` moved). */
  onEntriesChanged(): void;
  /** A load of the session is (or is no longer) waiting for pi's answer: the page says so instead of an empty session. */
  onLoadingChanged?(loading: boolean): void;
  retryMs?: number;
}

export class SessionLoader {
  /**
   * pi's session entries as far as seen (not reactive: they can be large).
   * Kept across reconnects and pi restarts: it is the cursor that lets this
   * browser catch up with only what it missed.
   */
  readonly entries: EntryIndex = createEntryIndex();
  readonly #options: SessionLoaderOptions;
  #requests = new Map<string, EntriesRequest>();
  /** An "advance" get_entries is in flight; `#advanceAgain` asks for another after it. */
  #advancing = false;
  #advanceAgain = false;

  constructor(options: SessionLoaderOptions) {
    this.#options = options;
  }

  /**
   * Show pi's current session: its entries (all of them when `fresh`, or the
   * ones after the last we know), then the transcript from them, or from
   * get_messages when only pi can compute it.
   */
  load(fresh: boolean): void {
    this.#options.session().needsSessionLoad = false;
    if (fresh) this.resetEntries(null);
    this.#request(lastEntryId(this.entries), "load");
  }

  /** After a run, a compaction or a bash: fetch the new entries (one request at a time). */
  advance(): void {
    if (this.#advancing) {
      this.#advanceAgain = true;
      return;
    }
    const since = lastEntryId(this.entries);
    if (since === null) return; // nothing loaded yet: the load in flight covers it
    this.#advancing = true;
    this.#request(since, "advance");
  }

  #request(since: string | null, purpose: EntriesRequest["purpose"]): void {
    // A whole session's entries are one long line (2 MB at 5,000 messages): its parser starts now.
    if (since === null) warmLongLineParser();
    const id = this.#options.send(since === null ? { type: "get_entries" } : { type: "get_entries", since });
    if (id !== null) this.#requests.set(id, purpose === "load" ? { since, purpose, seen: this.#messagesSeen() } : { since, purpose });
    else if (purpose === "advance") this.#advancing = false;
    this.#noteLoading();
  }

  /** A load is in flight (ours, or one replayed that counts as ours). */
  get loading(): boolean {
    for (const request of this.#requests.values()) if (request.purpose === "load") return true;
    return false;
  }

  #wasLoading = false;
  #noteLoading(): void {
    const loading = this.loading;
    if (loading === this.#wasLoading) return;
    this.#wasLoading = loading;
    this.#options.onLoadingChanged?.(loading);
  }

  /**
   * A get_entries someone else made with this id (a replayed command: it
   * raced a person's command live), so that its answer still counts.
   */
  noteRequest(id: string, since: string | null): void {
    if (!this.#requests.has(id)) this.#requests.set(id, { since, purpose: since === null ? "load" : "advance" });
    this.#noteLoading();
  }

  /** The request a response with this id answers, if it is one of ours (then forgotten). */
  take(id: string): EntriesRequest | undefined {
    const request = this.#requests.get(id);
    if (request !== undefined) this.#requests.delete(id);
    this.#noteLoading();
    return request;
  }

  /**
   * A get_entries the relay refused (rate_limited: this page had too many
   * queries waiting): no answer will come, so it is asked again in a moment
   * rather than leaving the entries stuck.
   */
  refused(id: string): void {
    const request = this.take(id);
    if (request === undefined) return;
    if (request.purpose === "advance") this.#advancing = false;
    setTimeout(() => (request.purpose === "advance" ? this.advance() : this.#request(request.since, "load")), this.#options.retryMs ?? ENTRIES_RETRY_MS);
  }

  /**
   * A get_entries the relay answered with an error that is not rate_limited
   * (pi not running: pi exited while it waited): no answer will come, and
   * nothing is asked again now; a load follows when pi runs again (lost).
   * True when it was ours.
   */
  dropped(id: string): boolean {
    const request = this.take(id);
    if (request?.purpose === "advance") this.#advancing = false;
    return request !== undefined;
  }

  /**
   * pi went away (exited or restarted): none of our requests in it will be
   * answered. They are forgotten, so the page does not say it is loading for
   * ever; the connection loads again once the new pi runs.
   */
  lost(): void {
    this.#requests.clear();
    this.#advancing = false;
    this.#advanceAgain = false;
    this.#noteLoading();
  }

  /** pi answered `request` (see take); `checked`: its entries were checked off the page's thread (record-slices.ts). */
  answer(request: EntriesRequest, response: RpcResponse, checked = false): void {
    if (request.purpose === "advance") {
      this.#advancing = false;
      if (this.#advanceAgain) {
        this.#advanceAgain = false;
        queueMicrotask(() => this.advance());
      }
    }
    const applied = response.success && applyEntriesAnswer(this.entries, (response as { data?: unknown }).data, request.since, checked);
    if (!applied) {
      // The cursor is unknown to pi (another session) or the answer is unusable: start over once.
      this.resetEntries(this.entries.sessionId);
      if (request.since !== null) this.#request(null, request.purpose);
      else if (request.purpose === "load") this.#options.send({ type: "get_messages" });
      return;
    }
    this.#options.onEntriesChanged();
    if (request.purpose !== "load") return;
    if (request.seen !== undefined && this.#movedOn(request.seen)) {
      // Older than the transcript on screen: its entries are kept (the cursor), and the rest is asked for.
      this.#request(lastEntryId(this.entries), "load");
      return;
    }
    const plain = plainConversation(this.entries);
    if (plain === null) {
      this.#options.send({ type: "get_messages" });
      return;
    }
    const messages: AgentMessage[] = plain.systemPrompt ? [plain.systemPrompt, ...plain.messages] : plain.messages;
    applyGetMessages(this.#options.session(), messages);
  }

  #messagesSeen(): MessagesSeen {
    const messages = this.#options.session().messages;
    return { count: messages.length, last: messages.at(-1) };
  }

  #movedOn(seen: MessagesSeen): boolean {
    const now = this.#messagesSeen();
    return now.count !== seen.count || now.last !== seen.last;
  }

  /** A get_state answer names the session pi is on: entries of another one are stale. */
  noteSessionId(sessionId: unknown): void {
    if (typeof sessionId !== "string" || sessionId === this.entries.sessionId) return;
    if (this.entries.sessionId === null) this.entries.sessionId = sessionId;
    else this.resetEntries(sessionId);
  }

  /** Entries (for fork, the tree, history) up to date with what pi holds now; the failure in words, or null. */
  async refresh(): Promise<string | null> {
    const since = lastEntryId(this.entries);
    const response = await this.#options.call(since === null ? { type: "get_entries" } : { type: "get_entries", since });
    if (!response.success) {
      // A cursor pi does not know (another session): take everything once.
      if (since === null) return String(response.error ?? "pi sent no entries.");
      this.resetEntries(this.entries.sessionId);
      return this.refresh();
    }
    if (!applyEntriesAnswer(this.entries, (response as { data?: unknown }).data, since)) {
      if (since === null) return "pi's entries could not be read.";
      this.resetEntries(this.entries.sessionId);
      return this.refresh();
    }
    this.#options.onEntriesChanged();
    return null;
  }

  /** Forget the entries (another session, or the cursor was not found). */
  resetEntries(sessionId: string | null): void {
    resetEntryIndex(this.entries, sessionId);
    this.#options.onEntriesChanged();
  }

  /** As if the page had just loaded: no entries, nothing asked. */
  reset(): void {
    this.#requests.clear();
    this.#noteLoading();
    this.#advancing = false;
    this.#advanceAgain = false;
    this.resetEntries(null);
  }
}
