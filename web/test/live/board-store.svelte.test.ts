// The board store on a socket the test plays the relay through: cards from
// frames, what needs the person derived from them, reconnecting with backoff,
// giving up when the relay refuses the browser, and what was looked at kept.
import { flushSync } from "svelte";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CLOSE_REVOKED, type LiveBoard, type LiveCard } from "@pier/protocol";
import { BoardStore, CLOSE_UNAUTHORIZED, type BoardSocketLike } from "../../src/lib/live/board-store.svelte.ts";
import { card } from "./cards.ts";

class FakeSocket implements BoardSocketLike {
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  closed: number | null = null;
  constructor(readonly url: string) {}
  close(code?: number): void {
    this.closed = code ?? 1005;
  }
  open(): void {
    this.onopen?.(new Event("open"));
  }
  board(board: LiveBoard): void {
    this.onmessage?.(new MessageEvent("message", { data: JSON.stringify({ type: "board", board }) }));
  }
  drop(code: number): void {
    this.onclose?.(new CloseEvent("close", { code }));
  }
}

function memoryStorage() {
  const map = new Map<string, string>();
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
}

const boardOf = (cards: LiveCard[], role: LiveBoard["role"] = "driver"): LiveBoard => ({ cards, maxRunning: 8, role });

describe("the board store", () => {
  let sockets: FakeSocket[];
  let storage: ReturnType<typeof memoryStorage>;
  let clock: number;
  const make = (pathname = "/", mayConnect?: () => boolean) =>
    new BoardStore({
      pathname,
      socketOrigin: "ws://pier.test",
      createSocket: (url) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
      storage,
      now: () => clock,
      random: () => 0.5,
      ...(mayConnect ? { mayConnect } : {}),
    });

  beforeEach(() => {
    sockets = [];
    storage = memoryStorage();
    clock = 10_000;
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it("waits for the page's own connection before opening its socket (a hanging board socket would hold the page's back)", () => {
    let pageConnected = false;
    const store = make("/", () => pageConnected);
    store.start();
    vi.advanceTimersByTime(2_000);
    expect(sockets).toEqual([]);
    pageConnected = true;
    vi.advanceTimersByTime(600);
    expect(sockets.map((s) => s.url)).toEqual(["ws://pier.test/api/live/board"]);
    store.stop();
  });

  it("a socket still connecting when the page loses its connection gives way at once, and tries again once the page is back", () => {
    let pageConnected = true;
    const store = make("/", () => pageConnected);
    store.start();
    expect(sockets).toHaveLength(1);
    // The network goes while the board's handshake is out: the page notices first.
    pageConnected = false;
    vi.advanceTimersByTime(500);
    expect(sockets[0]!.closed).not.toBeNull();
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
    pageConnected = true;
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(store.phase).toBe("open");
    // Once open, the page's connection coming and going is the page's business.
    pageConnected = false;
    vi.advanceTimersByTime(2_000);
    expect(sockets[1]!.closed).toBeNull();
    store.stop();
  });

  it("gives up a socket that does not open in 15 s, and tries again", () => {
    const store = make();
    store.start();
    expect(sockets).toHaveLength(1);
    clock += 14_000;
    vi.advanceTimersByTime(500);
    expect(sockets[0]!.closed).toBeNull();
    clock += 1_500;
    vi.advanceTimersByTime(500);
    expect(sockets[0]!.closed).not.toBeNull();
    expect(store.phase).toBe("reconnecting");
    vi.advanceTimersByTime(5_000);
    expect(sockets).toHaveLength(2);
    store.stop();
  });

  it("opens the board socket and holds the cards of each frame, with what needs the person derived", () => {
    const store = make();
    store.start();
    expect(sockets.map((s) => s.url)).toEqual(["ws://pier.test/api/live/board"]);
    expect(store.phase).toBe("connecting");
    sockets[0]!.open();
    expect(store.phase).toBe("open");
    const question = { id: "r", method: "confirm", title: "Go?" };
    sockets[0]!.board(boardOf([card({ id: "1", primary: true, state: "idle" }), card({ id: "2", state: "needs_you", since: 900, question }), card({ id: "3", state: "done", since: 800 })]));
    flushSync();
    expect(store.loaded).toBe(true);
    expect(store.canDrive).toBe(true);
    expect(store.cards.map((c) => c.id)).toEqual(["1", "2", "3"]);
    expect(store.needsYou.map((c) => c.id)).toEqual(["2"]);
    expect(store.inbox.map((i) => `${i.card.id}:${i.kind}`)).toEqual(["3:done", "2:question"]);
    expect(store.own?.id).toBe("1");
    store.stop();
  });

  it("started from an effect, opens one socket however its state changes (the effect does not follow the store's state)", () => {
    const store = make();
    const stop = $effect.root(() => {
      $effect(() => {
        store.start();
        return () => store.stop();
      });
    });
    flushSync();
    sockets[0]!.open();
    flushSync();
    sockets[0]!.board(boardOf([card({ id: "1", state: "done", since: 5 })]));
    flushSync();
    store.markLooked(store.cards);
    flushSync();
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.closed).toBeNull();
    stop();
    expect(sockets[0]!.closed).toBe(1000);
  });

  it("tells listeners each board with the one before (none before the first)", () => {
    const store = make();
    const told: [string[] | null, string[]][] = [];
    store.onFrame((before, now) => told.push([before?.map((c) => c.state) ?? null, now.map((c) => c.state)]));
    store.start();
    sockets[0]!.board(boardOf([card({ id: "1", state: "idle" })]));
    sockets[0]!.board(boardOf([card({ id: "1", state: "working" })]));
    expect(told).toEqual([
      [null, ["idle"]],
      [["idle"], ["working"]],
    ]);
    store.stop();
  });

  it("knows its own card by the page's path, and the next one that needs you, wrapping round", () => {
    const store = make("/live/3/");
    store.start();
    const ask = (id: string, since: number) => card({ id, state: "needs_you", since, question: { id: `q${id}`, method: "confirm", title: "?" } });
    sockets[0]!.board(boardOf([card({ id: "1", primary: true }), ask("2", 300), ask("3", 100), ask("4", 200)]));
    flushSync();
    expect(store.pageId).toBe("3");
    expect(store.own?.id).toBe("3");
    expect(store.needsYou.map((c) => c.id)).toEqual(["3", "4", "2"]);
    expect(store.nextNeedingYou("3")?.id).toBe("4");
    expect(store.nextNeedingYou("2")?.id).toBe("3");
    expect(store.nextNeedingYou(null)?.id).toBe("3");
    expect(store.nextNeedingYou("1")?.id).toBe("3");
    store.stop();
  });

  it("a scoped viewer at / sees one card: that is its own", () => {
    const store = make("/");
    store.start();
    sockets[0]!.board(boardOf([card({ id: "4" })], "viewer"));
    flushSync();
    expect(store.own?.id).toBe("4");
    expect(store.canDrive).toBe(false);
    store.stop();
  });

  it("reconnects after a drop, waiting longer each time, and from the start once a frame arrives", () => {
    const store = make();
    store.start();
    sockets[0]!.drop(1006);
    expect(store.phase).toBe("reconnecting");
    vi.advanceTimersByTime(499);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.drop(1006);
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    sockets[2]!.board(boardOf([]));
    sockets[2]!.drop(1001);
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(4);
    store.stop();
    expect(sockets[3]!.closed).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(4);
  });

  it("gives up when the relay refuses this browser (not signed in, link revoked)", () => {
    for (const code of [CLOSE_UNAUTHORIZED, CLOSE_REVOKED]) {
      sockets = [];
      const store = make();
      store.start();
      sockets[0]!.drop(code);
      expect(store.phase).toBe("refused");
      vi.advanceTimersByTime(60_000);
      expect(sockets).toHaveLength(1);
    }
  });

  it("ignores what is not a board frame", () => {
    const store = make();
    store.start();
    sockets[0]!.onmessage?.(new MessageEvent("message", { data: "not json" }));
    sockets[0]!.onmessage?.(new MessageEvent("message", { data: JSON.stringify({ type: "other" }) }));
    expect(store.loaded).toBe(false);
    store.stop();
  });

  it("remembers what the person looked at, in this browser, across stores", () => {
    const store = make();
    store.start();
    const done = card({ id: "2", state: "done", since: 5_000 });
    const failed = card({ id: "3", state: "failed", since: 6_000 });
    sockets[0]!.board(boardOf([done, failed]));
    flushSync();
    expect(store.inbox).toHaveLength(2);
    store.markLooked([done]);
    flushSync();
    expect(store.inbox.map((i) => i.card.id)).toEqual(["3"]);
    store.stop();

    const again = make();
    again.start();
    sockets.at(-1)!.board(boardOf([done, failed]));
    flushSync();
    expect(again.inbox.map((i) => i.card.id)).toEqual(["3"]);
    again.markAllLooked();
    flushSync();
    expect(again.inbox).toEqual([]);
    expect(JSON.parse(storage.map.get("pier.board.looked")!)).toMatchObject({ "2@500": 10_000, "3@500": 10_000 });
    again.stop();
  });
});
