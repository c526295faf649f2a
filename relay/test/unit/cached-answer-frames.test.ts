// An answer from the entries cache reaches its browser in frames no larger
// than pi's own answer would come in: a browser takes one WebSocket message
// in one task of its main thread, so a 20 MB frame was a ~600 ms task before
// any of the page's code could slice the work.
import { describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import type { Grant } from "../../src/access-links.ts";
import { BrowserHub } from "../../src/browser-hub.ts";
import { ReadRouting } from "../../src/read-routing.ts";
import { StdoutReplay } from "../../src/stdout-replay.ts";

class ReadingSocket {
  readonly OPEN = 1;
  readyState = 1;
  frames: Buffer[] = [];
  send(data: string | Buffer, options: { binary: boolean }, done: () => void): void {
    if (options.binary) this.frames.push(Buffer.from(data));
    done();
  }
  pause(): void {}
  resume(): void {}
  close(): void {}
  terminate(): void {}
}

const grant: Grant = { id: "g", role: "viewer", linkId: "link-v", digest: "d", scope: "session" } as Grant;

function entriesAnswer(id: string, count: number): Buffer {
  const entries = Array.from({ length: count }, (_, i) => ({ type: "message", id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, message: { role: "user", content: "x".repeat(200) } }));
  return Buffer.from(`${JSON.stringify({ id, type: "response", command: "get_entries", success: true, data: { entries, leafId: `e${count - 1}` } })}\n`);
}

describe("an answer from the entries cache", () => {
  it("is the same bytes as pi's, with the asker's id, in frames of at most 256 KiB", async () => {
    const replay = new StdoutReplay(64 * 1024 * 1024);
    const hub = new BrowserHub(replay, { pause: () => {}, resume: () => {} }, { now: () => 0, minSpacingMs: 0 });
    const toPi: string[] = [];
    const routing = new ReadRouting(hub, (line) => toPi.push(line.toString()));
    routing.childChanged("running");
    const connect = () => {
      const socket = new ReadingSocket();
      const client = hub.add(socket as unknown as WebSocket, () => ({ type: "notice", level: "info", message: "hello" }));
      return { socket, client };
    };
    const ask = (client: ReturnType<typeof connect>["client"], id: string) =>
      routing.offer(client, grant, { line: Buffer.from(JSON.stringify({ id, type: "get_entries" })), type: "get_entries", id, command: { id, type: "get_entries" } });

    const first = connect();
    ask(first.client, "a");
    await Promise.resolve();
    expect(toPi).toHaveLength(1);
    // pi answers in pipe-sized reads.
    const answer = entriesAnswer("a", 8000);
    expect(answer.length).toBeGreaterThan(1024 * 1024);
    for (let at = 0; at < answer.length; at += 65536) routing.stdout(answer.subarray(at, at + 65536));
    await new Promise((resolve) => setTimeout(resolve, 0));

    const second = connect();
    ask(second.client, "b");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(toPi).toHaveLength(1);
    const received = Buffer.concat(second.socket.frames);
    const line = received.subarray(received.indexOf('{"id":"b"'));
    expect(line.toString()).toBe(entriesAnswer("b", 8000).toString());
    const answerFrames = second.socket.frames.filter((frame) => frame.length > 0);
    expect(Math.max(...answerFrames.map((frame) => frame.length))).toBeLessThanOrEqual(256 * 1024);
  });
});
