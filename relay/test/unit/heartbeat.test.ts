// The heartbeat's rules, with real BrowserClients on fake sockets whose
// network the test drives (a write completes when the test says the browser
// read it) and fake timers: who is cut off, who is kept, who gets keepalives.
import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { WebSocket } from "ws";
import { BrowserClient } from "../../src/browser-client.ts";
import { Heartbeat } from "../../src/heartbeat.ts";

const INTERVAL = 1000;

class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  isPaused = false;
  pings = 0;
  terminated = false;
  sent: string[] = [];
  /** Writes not yet taken by the network. */
  queued: (() => void)[] = [];
  /** Answers pings (a browser does it by itself) while true. */
  answers = true;

  send(data: string | Buffer, _options: unknown, done: () => void): void {
    if (typeof data === "string") this.sent.push(data);
    this.queued.push(done);
  }
  /** The network takes every queued write. */
  flush(): void {
    for (const done of this.queued.splice(0)) done();
  }
  ping(): void {
    this.pings++;
    if (this.answers) queueMicrotask(() => this.emit("pong"));
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
  }
  keepalives(): number {
    return this.sent.filter((text) => JSON.parse(text).type === "keepalive").length;
  }
}

function browser(heartbeat: Heartbeat): { socket: FakeSocket; client: BrowserClient } {
  const socket = new FakeSocket();
  const client = new BrowserClient(socket as unknown as WebSocket, () => {});
  heartbeat.watch(client);
  return { socket, client };
}

/** One interval passes (and the pongs it asked for arrive). */
async function beat(): Promise<void> {
  await vi.advanceTimersByTimeAsync(INTERVAL);
}

describe("Heartbeat", () => {
  let heartbeat: Heartbeat;
  beforeEach(() => {
    vi.useFakeTimers();
    heartbeat = new Heartbeat(INTERVAL);
  });
  afterEach(() => {
    heartbeat.stop();
    vi.useRealTimers();
  });

  it("keeps a browser that answers its pings, and pings it every interval", async () => {
    const { socket } = browser(heartbeat);
    for (let i = 0; i < 5; i++) await beat();
    expect(socket.pings).toBe(5);
    expect(socket.terminated).toBe(false);
  });

  it("cuts off a browser that did not answer by the next ping", async () => {
    const { socket } = browser(heartbeat);
    socket.answers = false;
    await beat();
    expect(socket.terminated).toBe(false);
    await beat();
    expect(socket.terminated).toBe(true);
  });

  it("sends a keepalive to a browser that got nothing else for an interval, and none to one that did", async () => {
    const quiet = browser(heartbeat);
    const busy = browser(heartbeat);
    for (let i = 0; i < 4; i++) {
      busy.client.sendFrame({ type: "peers", count: 2 });
      await vi.advanceTimersByTimeAsync(INTERVAL / 2);
      busy.client.sendFrame({ type: "peers", count: 2 });
      await vi.advanceTimersByTimeAsync(INTERVAL / 2);
      quiet.socket.flush();
      busy.socket.flush();
    }
    expect(quiet.socket.keepalives()).toBe(4);
    expect(busy.socket.keepalives()).toBe(0);
  });

  it("does not judge a browser whose socket is paused (its pong may wait unread)", async () => {
    const { socket } = browser(heartbeat);
    socket.answers = false;
    socket.isPaused = true;
    for (let i = 0; i < 4; i++) await beat();
    expect(socket.terminated).toBe(false);
    // Read again: a whole interval to answer a ping, as for anyone.
    socket.isPaused = false;
    await beat();
    expect(socket.terminated).toBe(false);
    await beat();
    expect(socket.terminated).toBe(true);
  });

  it("spares a slow reader that takes some of its backlog, and cuts off one that takes none for an interval", async () => {
    const slow = browser(heartbeat);
    const gone = browser(heartbeat);
    for (const { socket, client } of [slow, gone]) {
      socket.answers = false; // its ping waits behind the backlog
      client.sendBytes(Buffer.alloc(64 * 1024));
      client.sendBytes(Buffer.alloc(64 * 1024));
    }
    for (let i = 0; i < 4; i++) {
      await vi.advanceTimersByTimeAsync(INTERVAL / 2);
      // The slow one reads a write, then gets another.
      slow.socket.queued.shift()?.();
      slow.client.sendBytes(Buffer.alloc(64 * 1024));
      await vi.advanceTimersByTimeAsync(INTERVAL / 2);
    }
    expect(slow.socket.terminated).toBe(false);
    expect(gone.socket.terminated).toBe(true);
  });

  it("forgets a browser once told: no more pings", async () => {
    const { socket, client } = browser(heartbeat);
    heartbeat.forget(client);
    await beat();
    expect(socket.pings).toBe(0);
  });
});
