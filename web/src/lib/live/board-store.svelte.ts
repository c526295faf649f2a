// The board as this browser sees it: every live session's card, kept
// current by the relay's board socket (a `board` frame whenever a card
// changes), reconnecting with backoff when it drops, giving up only when the
// relay says this browser may not watch (4401: not signed in, 4403: the
// link was revoked). Derived: what needs the person (inbox.ts).
import { untrack } from "svelte";
import { CLOSE_REVOKED, LIVE_API_PATHS, type BoardFrame, type LiveBoard, type LiveCard } from "@pier/protocol";
import { connection } from "../app-context.svelte.ts";
import { Backoff } from "../relay/socket-link.ts";
import { cardKey, inboxOf, loadLooked, needsYouOf, saveLooked, withLooked, type InboxItem, type Looked } from "./inbox.ts";
import { liveIdOf } from "../live-base.ts";
import { shown } from "../session-scope.svelte.ts";

/** The relay's close code for a socket whose cookie it does not take (relay-connection.svelte.ts says the same). */
export const CLOSE_UNAUTHORIZED = 4401;

export type BoardPhase = "idle" | "connecting" | "open" | "reconnecting" | "refused";

/** The part of a WebSocket the store uses (a test gives its own). */
export interface BoardSocketLike {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  close(code?: number, reason?: string): void;
}

/** Told of every board frame: the cards before (null for the first frame since start) and now. */
export type BoardListener = (before: readonly LiveCard[] | null, now: readonly LiveCard[]) => void;

export interface BoardStoreOptions {
  /** This page's path (which live session it shows). */
  pathname?: string;
  /** ws(s)://host of this page. */
  socketOrigin?: string;
  createSocket?: (url: string) => BoardSocketLike;
  storage?: Pick<Storage, "getItem" | "setItem"> | null;
  now?: () => number;
  random?: () => number;
  /**
   * Whether the board may open its socket now. Browsers open one WebSocket
   * to a host at a time: a board socket hanging on a dead network would hold
   * back the page's own connection (seen: dead-connection.spec), so the
   * board waits until the page's connection is up.
   */
  mayConnect?: () => boolean;
}

/** How often a board waiting for the page's connection looks again (and a board socket still connecting, whether it may go on). */
const WAIT_FOR_PAGE_MS = 500;
/** A board socket not open after this long is given up and tried again (the page gives its own up after 15 s too). */
const CONNECT_TIMEOUT_MS = 15_000;

export class BoardStore {
  cards = $state.raw<LiveCard[]>([]);
  role = $state<LiveBoard["role"]>("viewer");
  maxRunning = $state(0);
  phase = $state<BoardPhase>("idle");
  /** Whether any board frame arrived (before it, "no cards" means "not known yet"). */
  loaded = $state(false);
  looked = $state.raw<Looked>({});
  /** The board panel is open. */
  panelOpen = $state(false);

  /** Cards waiting on a question, oldest first. */
  readonly needsYou = $derived(needsYouOf(this.cards));
  /** Questions, and runs done or failed since this browser looked, oldest first. */
  readonly inbox: InboxItem[] = $derived(inboxOf(this.cards, this.looked));
  /** The path a test fixed for the page, else undefined: the shown session's (session-scope.svelte.ts). */
  readonly #pathname: string | undefined;
  /** This page's own card: the one its path names, else the primary (else the only one a scoped viewer sees). */
  readonly own = $derived(this.#ownCard());

  readonly #options: BoardStoreOptions;
  readonly #now: () => number;
  readonly #backoff: Backoff;
  readonly #listeners = new Set<BoardListener>();
  #socket: BoardSocketLike | null = null;
  #retry: ReturnType<typeof setTimeout> | null = null;
  #running = false;
  #stopping: ReturnType<typeof setTimeout> | null = null;
  #firstFrame = true;

  constructor(options: BoardStoreOptions = {}) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#backoff = new Backoff(options.random);
    this.#pathname = options.pathname;
    this.looked = loadLooked(this.#storage());
  }

  /** The id of the session the page shows (`/live/<id>/`), or null for the default session. */
  get pageId(): string | null {
    return liveIdOf(this.#pathname ?? `${shown.base}/`);
  }

  get canDrive(): boolean {
    return this.role === "driver";
  }

  /**
   * Open the board socket and keep it open (idempotent). Untracked: called
   * from an $effect, the state it reads (phase) must not make that effect
   * stop and start it again on every change, a socket each time.
   */
  start(): void {
    untrack(() => {
      if (this.#stopping !== null) clearTimeout(this.#stopping);
      this.#stopping = null;
      if (this.#running) return;
      this.#running = true;
      this.#firstFrame = true;
      this.#open();
    });
  }

  stop(): void {
    untrack(() => this.#stop());
  }

  /**
   * stop(), a moment later: the page mounts its app afresh when it shows
   * another session (main.ts), and the new app's start() keeps the socket
   * rather than open another.
   */
  stopSoon(): void {
    untrack(() => {
      if (this.#stopping !== null) return;
      this.#stopping = setTimeout(() => {
        this.#stopping = null;
        this.#stop();
      }, 0);
    });
  }

  #stop(): void {
    if (this.#stopping !== null) clearTimeout(this.#stopping);
    this.#stopping = null;
    this.#running = false;
    if (this.#retry !== null) clearTimeout(this.#retry);
    this.#retry = null;
    const socket = this.#socket;
    this.#socket = null;
    if (socket !== null) {
      socket.onclose = null;
      socket.close(1000, "the page stopped watching the board");
    }
    if (this.phase !== "refused") this.phase = "idle";
  }

  onFrame(listener: BoardListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  card(id: string): LiveCard | undefined {
    return this.cards.find((card) => card.id === id);
  }

  /** The person has seen these cards as they are now (done and failed leave the inbox). Untracked, like start(). */
  markLooked(cards: readonly LiveCard[]): void {
    untrack(() => this.#markLooked(cards));
  }

  #markLooked(cards: readonly LiveCard[]): void {
    if (cards.length === 0) return;
    const next = withLooked(this.looked, cards, this.#now());
    if (cards.every((card) => next[cardKey(card)] === this.looked[cardKey(card)])) return;
    this.looked = next;
    saveLooked(this.#storage(), next);
  }

  markAllLooked(): void {
    this.markLooked(this.inbox.map((item) => item.card));
  }

  /** The next card waiting on a question after `afterId` (in the order needsYou keeps), wrapping round. */
  nextNeedingYou(afterId: string | null): LiveCard | null {
    const waiting = this.needsYou;
    if (waiting.length === 0) return null;
    const at = afterId === null ? -1 : waiting.findIndex((card) => card.id === afterId);
    return waiting[(at + 1) % waiting.length] ?? null;
  }

  /** A board as the relay sent it (the socket's frames; tests call it too). */
  apply(board: LiveBoard): void {
    const before = this.#firstFrame ? null : this.cards;
    this.#firstFrame = false;
    this.cards = board.cards;
    this.role = board.role;
    this.maxRunning = board.maxRunning;
    this.loaded = true;
    for (const listener of this.#listeners) listener(before, board.cards);
  }

  #ownCard(): LiveCard | null {
    if (this.pageId !== null) return this.cards.find((card) => card.id === this.pageId) ?? null;
    return this.cards.find((card) => card.primary) ?? (this.cards.length === 1 ? this.cards[0]! : null);
  }

  #storage(): Pick<Storage, "getItem" | "setItem"> | null {
    if (this.#options.storage !== undefined) return this.#options.storage;
    try {
      return typeof localStorage === "undefined" ? null : localStorage;
    } catch {
      return null;
    }
  }

  #url(): string {
    if (this.#options.socketOrigin !== undefined) return `${this.#options.socketOrigin}${LIVE_API_PATHS.boardSocket}`;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}${LIVE_API_PATHS.boardSocket}`;
  }

  #open(): void {
    this.#retry = null;
    if (!this.#running) return;
    if (this.#options.mayConnect !== undefined && !this.#options.mayConnect()) {
      this.#retry = setTimeout(() => this.#open(), WAIT_FOR_PAGE_MS);
      return;
    }
    this.phase = this.phase === "idle" ? "connecting" : "reconnecting";
    const create = this.#options.createSocket ?? ((url: string) => new WebSocket(url));
    let socket: BoardSocketLike;
    try {
      socket = create(this.#url());
    } catch {
      this.#later();
      return;
    }
    this.#socket = socket;
    this.#watchConnecting(socket);
    socket.onopen = () => {
      if (this.#socket === socket) this.phase = "open";
    };
    socket.onmessage = (event) => {
      if (this.#socket !== socket || typeof event.data !== "string") return;
      let frame: BoardFrame;
      try {
        frame = JSON.parse(event.data) as BoardFrame;
      } catch {
        return;
      }
      if (frame?.type !== "board" || !Array.isArray(frame.board?.cards)) return;
      this.#backoff.reset();
      this.apply(frame.board);
    };
    socket.onclose = (event) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      if (event.code === CLOSE_UNAUTHORIZED || event.code === CLOSE_REVOKED) {
        // Not this browser's to watch any more: trying again would only be refused again.
        this.#running = false;
        this.phase = "refused";
        return;
      }
      this.#later();
    };
  }

  /**
   * While `socket` connects, it gives way as soon as the page's own
   * connection is not up: the network went as it was connecting (seen:
   * dead-connection.spec, the page lost it a moment after its board socket
   * set out), and a board handshake left hanging would hold back the page's
   * reconnection, the browser connecting to a host one WebSocket at a time.
   * It tries again once the page is back (mayConnect). And an attempt that
   * does not open in CONNECT_TIMEOUT_MS is given up and tried again.
   */
  #watchConnecting(socket: BoardSocketLike): void {
    const startedAt = this.#now();
    const look = setInterval(() => {
      if (this.#socket !== socket || this.phase === "open") return clearInterval(look);
      const pageDown = this.#options.mayConnect !== undefined && !this.#options.mayConnect();
      if (!pageDown && this.#now() - startedAt < CONNECT_TIMEOUT_MS) return;
      clearInterval(look);
      this.#socket = null;
      socket.onclose = null;
      socket.close();
      this.#later();
    }, WAIT_FOR_PAGE_MS);
  }

  #later(): void {
    if (!this.#running) return;
    this.phase = "reconnecting";
    this.#retry = setTimeout(() => this.#open(), this.#backoff.next());
  }
}

export const board = new BoardStore({ mayConnect: () => connection.phase === "connected" });
