// BrowserHub.writePrivate: the answer to a browser's own read reaches that
// browser alone, at the place in pi's stream where pi wrote it, whether the
// browser is live, still catching up from the replay, or the bytes before
// the answer are waiting for the next batch; never the replay.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { WebSocket } from "ws";
import { BrowserHub } from "../../src/browser-hub.ts";
import { StdoutReplay } from "../../src/stdout-replay.ts";

class FakeSocket {
  readonly OPEN = 1;
  readyState = 1;
  queue: { data: string | Buffer; binary: boolean; done: () => void }[] = [];
  received: Buffer[] = [];
  send(data: string | Buffer, options: { binary: boolean }, done: () => void): void {
    this.queue.push({ data, binary: options.binary, done });
  }
  read(): void {
    while (this.queue.length > 0) {
      const next = this.queue.shift()!;
      if (next.binary) this.received.push(Buffer.from(next.data));
      next.done();
    }
  }
  text(): string {
    return Buffer.concat(this.received).toString();
  }
  pause(): void {}
  resume(): void {}
  close(): void {
    this.readyState = 2;
  }
  terminate(): void {
    this.readyState = 3;
  }
}

function setup(batching: { minSpacingMs: number; maxWaitMs?: number } = { minSpacingMs: 0 }) {
  const replay = new StdoutReplay(64 * 1024 * 1024);
  const clock = { ms: 0 };
  const hub = new BrowserHub(replay, { pause: () => {}, resume: () => {} }, { now: () => clock.ms, ...batching });
  const connect = () => {
    const socket = new FakeSocket();
    const client = hub.add(socket as unknown as WebSocket, () => ({ type: "notice", level: "info", message: "hello" }));
    return { socket, client };
  };
  const shared = (text: string) => hub.writeStdout(Buffer.from(text));
  return { hub, replay, clock, connect, shared };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("BrowserHub.writePrivate", () => {
  it("a live browser gets its answer between the records around it; the others and the replay never do", () => {
    const { hub, replay, connect, shared } = setup();
    const asker = connect();
    const other = connect();
    asker.socket.read();
    other.socket.read();
    shared("A\n");
    hub.writePrivate(asker.client, Buffer.from("ANSWER\n"));
    shared("B\n");
    asker.socket.read();
    other.socket.read();
    expect(asker.socket.text()).toBe("A\nANSWER\nB\n");
    expect(other.socket.text()).toBe("A\nB\n");
    expect(Buffer.concat(replay.chunks).toString()).toBe("A\nB\n");
  });

  it("shared bytes waiting for the next batch go out before the answer", () => {
    const { hub, clock, connect, shared } = setup({ minSpacingMs: 4, maxWaitMs: 5 });
    const asker = connect();
    asker.socket.read();
    shared("A\n"); // goes at once, and the next fan-out waits
    shared("B\n"); // waits for the batch
    clock.ms += 1;
    hub.writePrivate(asker.client, Buffer.from("ANSWER\n"));
    shared("C\n");
    clock.ms += 10;
    vi.advanceTimersByTime(10);
    asker.socket.read();
    expect(asker.socket.text()).toBe("A\nB\nANSWER\nC\n");
  });

  it("a browser still catching up gets its answer where pi wrote it, after the replay bytes before it", () => {
    const { hub, connect, shared } = setup();
    const big = "x".repeat(64 * 1024 - 1) + "\n";
    for (let i = 0; i < 40; i++) shared(big); // 2.5 MiB: more than one browser is sent at once
    const asker = connect();
    expect(asker.client.state).toBe("catching_up");
    shared("A\n");
    hub.writePrivate(asker.client, Buffer.from("ANS"));
    hub.writePrivate(asker.client, Buffer.from("WER\n"));
    shared("B\n");
    asker.socket.read();
    vi.advanceTimersByTime(10);
    asker.socket.read();
    expect(asker.client.state).toBe("live");
    expect(asker.socket.text()).toBe(big.repeat(40) + "A\nANSWER\nB\n");
    // A browser joining now replays no answer.
    const late = connect();
    late.socket.read();
    expect(late.socket.text()).toBe(big.repeat(40) + "A\nB\n");
  });

  it("drops an answer for a browser that has gone", () => {
    const { hub, connect, shared } = setup();
    const asker = connect();
    const other = connect();
    asker.socket.read();
    hub.remove(asker.client);
    hub.writePrivate(asker.client, Buffer.from("ANSWER\n"));
    shared("A\n");
    asker.socket.read();
    other.socket.read();
    expect(asker.socket.text()).toBe("");
    expect(other.socket.text()).toBe("A\n");
  });
});
