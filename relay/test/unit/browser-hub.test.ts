// The hub's state machine against fake sockets whose "network" is driven by
// the test: a write completes (ws calls back) only when the test lets that
// browser read. Timers and Date are fake, so stalls are exact.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { WebSocket } from "ws";
import type { RelayFrame } from "@pier/protocol";
import { BrowserHub, CLOSE_TOO_SLOW, HIGH_WATER, IDLE_HOLD_LIMIT_MS, MAX_BACKLOG, STALL_DETECT_MS, STALL_LIMIT_MS } from "../../src/browser-hub.ts";
import { StdoutReplay } from "../../src/stdout-replay.ts";

type Written = { kind: "text"; frame: RelayFrame } | { kind: "bytes"; bytes: Buffer };

class FakeSocket {
  readonly OPEN = 1;
  readyState = 1;
  /** Handed to ws, not yet written to the network (the browser is not reading). */
  queue: { data: string | Buffer; binary: boolean; done: () => void }[] = [];
  /** What reached the browser, in order. */
  written: Written[] = [];
  closed: { code: number; reason: string } | null = null;
  terminated = false;
  readonly #onSend: () => void;

  constructor(onSend: () => void = () => {}) {
    this.#onSend = onSend;
  }

  send(data: string | Buffer, options: { binary: boolean }, done: () => void): void {
    this.#onSend();
    this.queue.push({ data, binary: options.binary, done });
  }
  /** The browser reads: up to `count` queued frames get written (and whatever that makes the hub send next). */
  read(count = Number.POSITIVE_INFINITY): void {
    for (let i = 0; i < count && this.queue.length > 0; i++) {
      const next = this.queue.shift()!;
      this.written.push(next.binary ? { kind: "bytes", bytes: Buffer.from(next.data) } : { kind: "text", frame: JSON.parse(next.data as string) as RelayFrame });
      next.done();
    }
  }
  get queuedBytes(): number {
    return this.queue.reduce((sum, entry) => sum + (typeof entry.data === "string" ? Buffer.byteLength(entry.data) : entry.data.length), 0);
  }
  bytes(): Buffer {
    return Buffer.concat(this.written.flatMap((entry) => (entry.kind === "bytes" ? [entry.bytes] : [])));
  }
  frames(): RelayFrame[] {
    return this.written.flatMap((entry) => (entry.kind === "text" ? [entry.frame] : []));
  }
  pause(): void {}
  resume(): void {}
  close(code: number, reason: string): void {
    this.closed = { code, reason };
    this.readyState = 2;
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
  }
}

function setup(replayBytes = 8 * 1024 * 1024) {
  const replay = new StdoutReplay(replayBytes);
  const flow = { paused: false, pauses: 0, pause: () => ((flow.paused = true), flow.pauses++), resume: () => (flow.paused = false) };
  /**
   * The batcher's clock (ms). It stands still unless a test moves it (or
   * gives each send a cost), so a fan-out takes no time and, with no floor
   * between fan-outs (minSpacingMs: 0), every chunk goes out as it comes:
   * these tests follow single chunks through the flow control.
   */
  const clock = { ms: 0, perSend: 0 };
  const hub = new BrowserHub(replay, flow, { now: () => clock.ms, minSpacingMs: 0 });
  let written = 0;
  /** pi writes `count` records of `size` bytes (one chunk each). */
  const piWrites = (count = 1, size = 64 * 1024) => {
    for (let i = 0; i < count; i++) {
      const chunk = Buffer.alloc(size, 97 + (written++ % 26));
      chunk[size - 1] = 0x0a;
      hub.writeStdout(chunk);
    }
  };
  const connect = () => {
    const socket = new FakeSocket(() => (clock.ms += clock.perSend));
    const client = hub.add(socket as unknown as WebSocket, (c) => ({ type: "notice", level: "info", message: `hello ${c.id}` }));
    return { socket, client };
  };
  return { replay, flow, hub, clock, piWrites, connect };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("BrowserHub", () => {
  it("sends a new browser its hello, the replay as pi's chunks, replay_end, then live chunks", () => {
    const { replay, piWrites, connect } = setup();
    piWrites(3, 1000);
    const { socket } = connect();
    socket.read();
    piWrites(1, 500);
    socket.read();
    const kinds = socket.written.map((entry) => (entry.kind === "text" ? entry.frame.type : entry.bytes.length));
    expect(kinds).toEqual(["notice", 1000, 1000, 1000, "replay_end", 500]);
    expect(socket.bytes().equals(Buffer.concat(replay.chunks))).toBe(true);
  });

  it("sends a large replay in batches as the browser reads, and pi waits for it meanwhile", () => {
    const { flow, piWrites, connect } = setup();
    piWrites(64); // 4 MiB
    const { socket } = connect();
    expect(socket.queuedBytes).toBeLessThanOrEqual(HIGH_WATER + 64 * 1024);
    expect(flow.paused).toBe(true);
    socket.read();
    expect(socket.bytes().length).toBe(64 * 64 * 1024);
    expect(socket.frames().map((frame) => frame.type)).toEqual(["notice", "replay_end"]);
    expect(flow.paused).toBe(false);
  });

  it("makes pi wait for a live browser over the high-water mark while it reads", () => {
    const { flow, piWrites, connect } = setup();
    const { socket } = connect();
    socket.read();
    piWrites(20);
    expect(flow.paused).toBe(true);
    vi.advanceTimersByTime(STALL_DETECT_MS / 2);
    socket.read(4);
    vi.advanceTimersByTime(STALL_DETECT_MS / 2 + 10);
    expect(flow.paused).toBe(true);
    socket.read();
    expect(flow.paused).toBe(false);
    expect(socket.bytes().length).toBe(20 * 64 * 1024);
  });

  it("gives up on a browser that stopped reading: pi resumes for the others, and it later catches up byte for byte", () => {
    const { flow, piWrites, connect } = setup();
    const healthy = connect();
    const stalled = connect();
    healthy.socket.read();
    stalled.socket.read();
    for (let i = 0; i < 20; i++) {
      piWrites(1);
      healthy.socket.read();
    }
    expect(flow.paused).toBe(true);
    const queuedWhenStalled = stalled.socket.queue.length;
    vi.advanceTimersByTime(STALL_DETECT_MS + 60);
    expect(flow.paused).toBe(false);
    expect(stalled.client.state).toBe("catching_up");
    // pi goes on for the healthy browser; nothing more is queued for the stalled one.
    for (let i = 0; i < 40; i++) {
      piWrites(1);
      healthy.socket.read();
    }
    expect(flow.paused).toBe(false);
    expect(stalled.socket.queue.length).toBe(queuedWhenStalled);
    // It reads again: everything, from where its live stream stopped.
    stalled.socket.read();
    expect(stalled.client.state).toBe("live");
    expect(stalled.socket.bytes().equals(healthy.socket.bytes())).toBe(true);
    piWrites(1);
    stalled.socket.read();
    healthy.socket.read();
    expect(stalled.socket.bytes().equals(healthy.socket.bytes())).toBe(true);
  });

  it("while another browser could take bytes, holds pi for a slow reader at most STALL_LIMIT_MS in one go", () => {
    const { flow, piWrites, connect } = setup();
    const healthy = connect();
    const slow = connect();
    healthy.socket.read();
    slow.socket.read();
    piWrites(40);
    healthy.socket.read();
    expect(flow.paused).toBe(true);
    // A frame at half the stall detection: progress, but not enough to get under the low-water mark in time.
    const step = STALL_DETECT_MS / 2;
    let waited = 0;
    for (; waited < STALL_LIMIT_MS + step && flow.paused; waited += step) {
      vi.advanceTimersByTime(step);
      slow.socket.read(1);
    }
    expect(waited).toBeGreaterThanOrEqual(STALL_LIMIT_MS);
    expect(flow.paused).toBe(false);
    expect(slow.client.state).toBe("catching_up");
    // Too slow, not stalled: it may make pi wait again only once it has caught up.
    slow.socket.read(1);
    piWrites(1);
    expect(flow.paused).toBe(false);
  });

  it("waits for a lone browser that pauses, even for seconds: it keeps its place and misses nothing", () => {
    const { flow, piWrites, connect } = setup();
    const { socket, client } = connect();
    socket.read();
    piWrites(40);
    expect(flow.paused).toBe(true);
    vi.advanceTimersByTime(3000);
    expect(flow.paused).toBe(true);
    expect(client.state).toBe("live");
    // A slow reader alone paces pi however long it takes.
    for (let t = 0; t < 3000; t += 100) {
      vi.advanceTimersByTime(100);
      socket.read(1);
    }
    expect(flow.paused).toBe(true);
    socket.read();
    expect(flow.paused).toBe(false);
    expect(socket.bytes().length).toBe(40 * 64 * 1024);
  });

  it("stops waiting for a lone browser that reads nothing for IDLE_HOLD_LIMIT_MS", () => {
    const { flow, piWrites, connect } = setup();
    const { socket, client } = connect();
    socket.read();
    piWrites(40);
    vi.advanceTimersByTime(IDLE_HOLD_LIMIT_MS - 100);
    expect(flow.paused).toBe(true);
    vi.advanceTimersByTime(200);
    expect(flow.paused).toBe(false);
    expect(client.state).toBe("catching_up");
  });

  it("stops waiting for an idle browser at once when another one needs bytes", () => {
    const { flow, piWrites, connect } = setup();
    const idle = connect();
    idle.socket.read();
    piWrites(40);
    vi.advanceTimersByTime(2000);
    expect(flow.paused).toBe(true);
    // A new page: it gets the replay, turns live, and pi stops waiting for the idle one.
    const fresh = connect();
    fresh.socket.read();
    vi.advanceTimersByTime(1);
    expect(flow.paused).toBe(false);
    expect(idle.client.state).toBe("catching_up");
    piWrites(1);
    fresh.socket.read();
    expect(fresh.client.state).toBe("live");
  });

  it("lets a browser that stalled make pi wait again once it reads, so it catches up instead of being dropped", () => {
    const { flow, piWrites, connect } = setup(4 * 1024 * 1024);
    const healthy = connect();
    const stalled = connect();
    healthy.socket.read();
    stalled.socket.read();
    for (let i = 0; i < 20; i++) {
      piWrites(1);
      healthy.socket.read();
    }
    vi.advanceTimersByTime(STALL_DETECT_MS + 10);
    expect(stalled.client.state).toBe("catching_up");
    for (let i = 0; i < 30; i++) {
      piWrites(1);
      healthy.socket.read();
    }
    expect(flow.paused).toBe(false);
    // It reads a little: it is behind by more than HIGH_WATER and reading, so pi waits for it.
    stalled.socket.read(1);
    piWrites(1);
    healthy.socket.read();
    expect(flow.paused).toBe(true);
    stalled.socket.read();
    healthy.socket.read();
    expect(flow.paused).toBe(false);
    expect(stalled.client.state).toBe("live");
    expect(stalled.socket.closed).toBeNull();
    expect(stalled.socket.bytes().equals(healthy.socket.bytes())).toBe(true);
  });

  it("closes a browser with 4008 when the bytes it needs left the replay, and cuts it off if it cannot take the close", () => {
    const { piWrites, connect } = setup(256 * 1024);
    const healthy = connect();
    const stalled = connect();
    for (let i = 0; i < 20; i++) {
      piWrites(1);
      healthy.socket.read();
    }
    vi.advanceTimersByTime(STALL_DETECT_MS + 60);
    expect(stalled.socket.closed).toBeNull();
    for (let i = 0; i < 10; i++) {
      piWrites(1);
      healthy.socket.read();
    }
    expect(stalled.socket.closed).toEqual({ code: CLOSE_TOO_SLOW, reason: expect.stringMatching(/too slow/) });
    expect(stalled.client.state).toBe("closing");
    // What it got before is a prefix of the healthy browser's stream.
    stalled.socket.read();
    expect(healthy.socket.bytes().subarray(0, stalled.socket.bytes().length).equals(stalled.socket.bytes())).toBe(true);
    expect(stalled.socket.terminated).toBe(false);
    vi.advanceTimersByTime(10_000);
    expect(stalled.socket.terminated).toBe(true);
  });

  it("puts child_exited after the bytes of live browsers and closes browsers still catching up", () => {
    const { hub, piWrites, connect } = setup();
    const live = connect();
    live.socket.read();
    const behind = connect();
    piWrites(20);
    live.socket.read();
    vi.advanceTimersByTime(STALL_DETECT_MS + 60);
    expect(behind.client.state).toBe("catching_up");
    const exited: RelayFrame = { type: "child_exited", child: { state: "exited", epoch: 1, code: 0, signal: null, exitedAt: 0 } };
    hub.broadcastAfterStdout(exited);
    live.socket.read();
    expect(live.socket.written.at(-1)).toEqual({ kind: "text", frame: exited });
    expect(behind.socket.closed?.code).toBe(CLOSE_TOO_SLOW);
  });

  it("sends what pi wrote during the spacing after a costly fan-out as one frame, kept whole in the replay", () => {
    const { replay, hub, clock, connect } = setup();
    const browsers = [connect(), connect(), connect()];
    for (const { socket } of browsers) socket.read();
    clock.perSend = 1; // 3 ms a fan-out: the next one 12 ms after it
    hub.writeStdout(Buffer.from('{"n":1}\n'));
    hub.writeStdout(Buffer.from('{"n":2}\n{"n'));
    hub.writeStdout(Buffer.from('":3}\n'));
    for (const { socket } of browsers) socket.read();
    vi.advanceTimersByTime(20);
    const frames = ['{"n":1}\n', '{"n":2}\n{"n":3}\n'];
    for (const { socket } of browsers) {
      socket.read();
      expect(socket.written.flatMap((entry) => (entry.kind === "bytes" ? [entry.bytes.toString()] : []))).toEqual(frames);
    }
    expect(replay.chunks.map(String)).toEqual(frames);
  });

  it("gives a browser that arrives while a batch waits every byte exactly once, whether it turns live at once or catches up", () => {
    const { hub, clock, piWrites, connect } = setup();
    const watcher = connect();
    watcher.socket.read();
    piWrites(30); // ~2 MiB of replay: more than a new browser is sent in one go
    watcher.socket.read();
    clock.perSend = 1;
    piWrites(1, 100); // a fan-out that "took" 1 ms: what comes next waits for the next batch
    hub.writeStdout(Buffer.from("pending, part one\n"));
    const early = connect(); // arrives with a batch waiting, reads its replay at once: live before the batch goes
    early.socket.read();
    expect(early.client.state).toBe("live");
    expect(early.socket.bytes().includes("pending")).toBe(false);
    hub.writeStdout(Buffer.from("pending, part two\n"));
    const late = connect(); // arrives with a batch waiting, does not read yet: still catching up when it goes
    expect(late.client.state).toBe("catching_up");
    vi.advanceTimersByTime(10);
    piWrites(1, 100);
    for (const browser of [watcher, early, late]) browser.socket.read();
    expect(late.client.state).toBe("live");
    const everything = watcher.socket.bytes();
    expect(everything.toString().match(/pending, part/g)).toHaveLength(2);
    expect(early.socket.bytes().equals(everything)).toBe(true);
    expect(late.socket.bytes().equals(everything)).toBe(true);
    expect(early.socket.frames().map((frame) => frame.type)).toEqual(["notice", "replay_end"]);
  });

  it("sends the bytes waiting for a batch before a frame that belongs after all of pi's output", () => {
    const { hub, clock, connect } = setup();
    const { socket } = connect();
    socket.read();
    clock.perSend = 1;
    hub.writeStdout(Buffer.from('{"last":0}\n'));
    hub.writeStdout(Buffer.from('{"last":1}\n'));
    const exited: RelayFrame = { type: "child_exited", child: { state: "exited", epoch: 1, code: 0, signal: null, exitedAt: 0 } };
    hub.broadcastAfterStdout(exited);
    socket.read();
    expect(socket.written.slice(-3)).toEqual([
      { kind: "bytes", bytes: Buffer.from('{"last":0}\n') },
      { kind: "bytes", bytes: Buffer.from('{"last":1}\n') },
      { kind: "text", frame: exited },
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("copies each chunk once, into the replay (pi's Buffer is freed at once), and sends live and late browsers alike views of that copy", () => {
    const { replay, hub, connect } = setup();
    const record = (letter: string) => Buffer.concat([Buffer.alloc(8191, letter), Buffer.from("\n")]);
    const alone = record("a");
    hub.writeStdout(alone); // nobody watching
    expect(alone.length).toBe(0);
    const [one, two] = [connect(), connect()];
    for (const { socket } of [one, two]) socket.read();
    const chunk = record("b");
    hub.writeStdout(chunk);
    expect(chunk.length).toBe(0);
    const live = [one, two].map(({ socket }) => socket.queue.at(-1)!.data as Buffer);
    // Both got the same view of the replay's storage, lent until both have it written.
    expect(live[0]!.equals(record("b"))).toBe(true);
    expect(live[1]).toBe(live[0]);
    expect(replay.slabsLent).toBe(1);
    one.socket.read();
    expect(replay.slabsLent).toBe(1);
    two.socket.read();
    expect(replay.slabsLent).toBe(0);
    const expected = Buffer.concat([record("a"), record("b")]);
    expect(one.socket.bytes().equals(expected)).toBe(true);
    expect(two.socket.bytes().equals(expected)).toBe(true);
    const late = connect();
    const pieces = late.socket.queue.flatMap((entry) => (Buffer.isBuffer(entry.data) ? [entry.data] : []));
    expect(pieces.map((piece) => piece.length)).toEqual([8192, 8192]);
    // Views of the same slab, not copies: a class catching up shares them with the live browsers.
    expect(pieces[0]!.buffer).toBe(pieces[1]!.buffer);
    expect(pieces[0]!.buffer).toBe(live[0]!.buffer);
    expect(replay.slabsLent).toBe(1);
    late.socket.read();
    expect(replay.slabsLent).toBe(0);
    expect(late.socket.bytes().equals(expected)).toBe(true);
    expect(Buffer.concat(replay.chunks).equals(expected)).toBe(true);
  });

  it("bounds relay frames queued for a browser that never reads", () => {
    const { hub, connect } = setup();
    const { socket } = connect();
    const line = "x".repeat(64 * 1024);
    for (let i = 0; i * line.length <= MAX_BACKLOG + line.length && socket.closed === null; i++) hub.broadcastFrame({ type: "stderr", line });
    expect(socket.closed?.code).toBe(CLOSE_TOO_SLOW);
    expect(hub.size).toBe(0);
  });

  it("resumes pi when the browser it waited for goes away", () => {
    const { flow, hub, piWrites, connect } = setup();
    const { socket, client } = connect();
    socket.read();
    piWrites(20);
    expect(flow.paused).toBe(true);
    hub.remove(client);
    expect(flow.paused).toBe(false);
  });
});
