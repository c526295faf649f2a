import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  Backoff,
  CLOSE_SILENT,
  DEFAULT_HEARTBEAT_MS,
  OPEN_TIMEOUT_MS,
  RECONNECT_MAX_MS,
  RECONNECT_MIN_MS,
  SILENT_HEARTBEATS,
  relayPaths,
  SocketLink,
  type SocketLike,
  type SocketLinkOptions,
} from "../../src/lib/relay/socket-link.ts";

/** A socket the test drives: it opens, brings frames and closes when told (the link under test is real). */
class TestSocket implements SocketLike {
  binaryType: BinaryType = "blob";
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  sent: string[] = [];
  closedWith: { code?: number; reason?: string } | null = null;
  constructor(readonly url: string) {}
  send(data: string): void {
    if (this.readyState !== 1) throw new Error("not open");
    this.sent.push(data);
  }
  close(code?: number, reason?: string): void {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  message(data: string | ArrayBuffer): void {
    this.onmessage?.({ data } as MessageEvent);
  }
  closedByServer(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
}

function setup(overrides: Partial<SocketLinkOptions> = {}) {
  const sockets: TestSocket[] = [];
  const seen: string[] = [];
  let clock = 1_000_000;
  let retries = 0;
  const link = new SocketLink({
    paths: { socketUrl: "ws://relay.test/live/a/ws", probePath: "http://relay.test/live/a/" },
    onText: (text, at) => seen.push(`text ${text} @${at}`),
    onBytes: (bytes, at) => seen.push(`bytes ${bytes.length} @${at}`),
    onClosed: (code, opened) => seen.push(`closed ${code} ${opened}`),
    onRetry: () => retries++,
    createSocket: (url) => {
      const socket = new TestSocket(url);
      sockets.push(socket);
      return socket;
    },
    now: () => clock,
    random: () => 0.5,
    ...overrides,
  });
  return {
    link,
    sockets,
    seen,
    retries: () => retries,
    tick: (ms: number) => (clock += ms),
    now: () => clock,
  };
}

describe("relay paths", () => {
  const page = { protocol: "https:", host: "tiny.localhost:7788", pathname: "/some/page" };

  it("are today's without a prefix: the socket at /ws, the probe at the page's own path", () => {
    expect(relayPaths("", page)).toEqual({ socketUrl: "wss://tiny.localhost:7788/ws", probePath: "/some/page" });
    expect(relayPaths("", { ...page, protocol: "http:" }).socketUrl).toBe("ws://tiny.localhost:7788/ws");
  });

  it("put the socket and the probe under a prefix", () => {
    expect(relayPaths("/live/s1", page)).toEqual({ socketUrl: "wss://tiny.localhost:7788/live/s1/ws", probePath: "/live/s1/" });
  });

  it("refuse a prefix that is not a path without a trailing slash", () => {
    expect(() => relayPaths("live/s1", page)).toThrow(/starts with "\/"/);
    expect(() => relayPaths("/live/s1/", page)).toThrow(/does not end with one/);
  });
});

describe("backoff", () => {
  it("doubles from the shortest delay up to the cap, with ±20% jitter, and starts over on reset", () => {
    const middle = new Backoff(() => 0.5);
    const delays = Array.from({ length: 8 }, () => middle.next());
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
    middle.reset();
    expect(middle.next()).toBe(RECONNECT_MIN_MS);
    expect(new Backoff(() => 0).next()).toBeCloseTo(RECONNECT_MIN_MS * 0.8);
    const high = new Backoff(() => 0.999999);
    for (let i = 0; i < 10; i++) high.next();
    expect(high.next()).toBeCloseTo(RECONNECT_MAX_MS * 1.2, 0);
  });
});

describe("socket link", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("opens its socket at the URL it was given, binary as array buffers, and hands on frames with their time", () => {
    const { link, sockets, seen, tick } = setup();
    expect(link.open()).toBeNull();
    const socket = sockets[0]!;
    expect(socket.url).toBe("ws://relay.test/live/a/ws");
    expect(socket.binaryType).toBe("arraybuffer");
    expect(link.isOpen).toBe(false);
    expect(link.send("x")).toBe(false);
    socket.open();
    expect(link.isOpen).toBe(true);
    expect(link.send('{"type":"get_state"}')).toBe(true);
    expect(socket.sent).toEqual(['{"type":"get_state"}']);
    tick(5);
    socket.message('{"type":"hello"}');
    socket.message(new Uint8Array([1, 2, 3]).buffer);
    socket.closedByServer(1006);
    expect(seen).toEqual(['text {"type":"hello"} @1000005', "bytes 3 @1000005", "closed 1006 true"]);
    expect(link.isOpen).toBe(false);
  });

  it("says what went wrong when a socket cannot even be made", () => {
    const { link } = setup({
      createSocket: () => {
        throw new SyntaxError("The URL 'nope' is invalid.");
      },
    });
    expect(link.open()).toMatch(/nope/);
    expect(link.isOpen).toBe(false);
  });

  it("ignores what an old socket says once a new one was opened", () => {
    const { link, sockets, seen } = setup();
    link.open();
    link.open();
    sockets[0]!.message("stale");
    sockets[0]!.closedByServer(1000);
    sockets[1]!.message("fresh");
    expect(seen.map((s) => s.split(" @")[0])).toEqual(["text fresh"]);
  });

  it("gives up on an open socket after SILENT_HEARTBEATS of the relay's heartbeats with nothing heard", () => {
    const { link, sockets, seen, tick, now } = setup();
    link.open();
    sockets[0]!.open();
    const heartbeatMs = 2_000;
    tick(SILENT_HEARTBEATS * heartbeatMs);
    link.checkAlive(now(), heartbeatMs);
    expect(seen).toEqual([]);
    sockets[0]!.message("ping"); // anything heard starts the count again
    tick(SILENT_HEARTBEATS * heartbeatMs);
    link.checkAlive(now(), heartbeatMs);
    expect(seen).toHaveLength(1);
    tick(1);
    link.checkAlive(now(), heartbeatMs);
    expect(seen.slice(1)).toEqual([`closed ${CLOSE_SILENT} true`]);
    expect(sockets[0]!.closedWith).toEqual({ code: CLOSE_SILENT, reason: "no word from the relay" });
    expect(link.isOpen).toBe(false);
    // Told once: the socket is forgotten.
    tick(60_000);
    link.checkAlive(now(), heartbeatMs);
    expect(seen).toHaveLength(2);
  });

  it("uses the relay's default heartbeat before a hello told one", () => {
    const { link, sockets, seen, tick, now } = setup();
    link.open();
    sockets[0]!.open();
    tick(SILENT_HEARTBEATS * DEFAULT_HEARTBEAT_MS);
    link.checkAlive(now(), 0);
    expect(seen).toEqual([]);
    tick(1);
    link.checkAlive(now(), 0);
    expect(seen).toEqual([`closed ${CLOSE_SILENT} true`]);
  });

  it("gives up on a socket that neither opened nor was refused within OPEN_TIMEOUT_MS", () => {
    const { link, seen, tick, now } = setup();
    link.open();
    tick(OPEN_TIMEOUT_MS);
    link.checkAlive(now(), 60_000);
    expect(seen).toEqual([]);
    tick(1);
    link.checkAlive(now(), 60_000);
    expect(seen).toEqual([`closed ${CLOSE_SILENT} false`]);
  });

  it("retries after the backoff's delay, one retry at a time; open() and stop() drop a waiting one", () => {
    const { link, retries } = setup();
    expect(link.retryLater()).toBe(true);
    expect(link.retryLater()).toBe(false);
    vi.advanceTimersByTime(RECONNECT_MIN_MS - 1);
    expect(retries()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(retries()).toBe(1);
    expect(link.retrying).toBe(false);
    // The next one waits twice as long.
    link.retryLater();
    vi.advanceTimersByTime(2 * RECONNECT_MIN_MS - 1);
    expect(retries()).toBe(1);
    link.open();
    expect(link.retrying).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(retries()).toBe(1);
    link.resetBackoff();
    link.retryLater();
    link.stop();
    vi.advanceTimersByTime(60_000);
    expect(retries()).toBe(1);
  });

  it("drop() closes the socket normally and no close is reported for it", () => {
    const { link, sockets, seen } = setup();
    link.open();
    sockets[0]!.open();
    link.drop();
    expect(sockets[0]!.closedWith).toEqual({ code: 1000, reason: undefined });
    sockets[0]!.closedByServer(1000);
    expect(seen).toEqual([]);
  });
});

describe("socket link: the unauthorized probe (a real HTTP server on loopback)", () => {
  let server: Server | null = null;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = null;
  });

  async function serve(status: number): Promise<{ base: string; requests: string[] }> {
    const requests: string[] = [];
    server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return { base: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, requests };
  }

  for (const [status, refused] of [
    [401, true],
    [403, true],
    [200, false],
    [502, false],
  ] as const) {
    it(`takes HTTP ${status} at the probe path as ${refused ? "refused" : "not a cookie problem"}`, async () => {
      const { base, requests } = await serve(status);
      const { link } = setup({ paths: { socketUrl: "ws://unused/ws", probePath: `${base}/live/a/` } });
      expect(await link.probeUnauthorized()).toBe(refused);
      expect(requests).toEqual(["HEAD /live/a/"]);
    });
  }

  it("takes a relay that cannot be reached as not a cookie problem", async () => {
    const { base } = await serve(200);
    await new Promise((resolve) => server!.close(resolve));
    server = null;
    const { link } = setup({ paths: { socketUrl: "ws://unused/ws", probePath: `${base}/` } });
    expect(await link.probeUnauthorized()).toBe(false);
  });
});
