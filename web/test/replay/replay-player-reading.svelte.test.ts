// The player of a capture still being read: it feeds only what is read, and
// a position asked for beyond that (the end) is reached as the reading gets
// there, saying so meanwhile.
import { describe, expect, it } from "vitest";
import { openCaptureProgressively } from "../../src/lib/replay/open-capture.ts";
import { ReplayPlayer } from "../../src/lib/replay/replay-player.svelte.ts";
import type { RelayConnection } from "../../src/lib/relay/relay-connection.svelte.ts";
import type { ReplayItem } from "../../src/lib/relay/replay-feed.ts";

const HEADER = JSON.stringify({ type: "pier-capture", version: 1, startedAt: "2026-05-01T10:00:00.000Z", pier: "0.1.0", redacted: [] });
const frame = (t: number, count: number) => JSON.stringify({ t, k: "frame", f: { type: "peers", count } });

/** The part of the connection a player uses: what it was fed, and whether that reached the items' end. */
function connection() {
  const fed: [number, number][] = [];
  const conn = {
    caughtUp: true,
    endsFed: 0,
    beginReplay() {},
    restartReplay() {
      fed.length = 0;
    },
    replay(items: readonly ReplayItem[], from: number, to: number) {
      fed.push([from, to]);
      if (to === items.length) conn.endsFed++;
    },
  };
  return { conn, fed };
}

function opened(lines: string[]) {
  const queue: (() => void)[] = [];
  const result = openCaptureProgressively("big.jsonl", `${[HEADER, ...lines].join("\n")}\n`, { fromChars: 0, firstSliceMs: 0, sliceMs: 0, schedule: (next) => queue.push(next) });
  if (!result.ok) throw new Error(result.message);
  return { capture: result.capture, slice: () => queue.shift()?.() };
}

describe("playing a capture while it is read", () => {
  it("goes to the end as the reading gets there, and only then feeds the capture's end", () => {
    const { capture, slice } = opened([0, 1, 2, 3, 4].map((i) => frame(i * 10, i)));
    const { conn, fed } = connection();
    const player = new ReplayPlayer(conn as unknown as RelayConnection, capture);
    player.start();
    expect([player.available, player.count]).toEqual([1, 5]);
    expect(player.reading).toBe(capture.source.text.indexOf(frame(10, 1)) / capture.source.text.length);
    player.seek(5);
    expect([player.position, player.waitingFor]).toEqual([1, 5]);
    slice();
    slice();
    expect([player.position, player.waitingFor, player.atEnd]).toEqual([3, 5, false]);
    slice();
    slice();
    expect([player.position, player.waitingFor, player.atEnd]).toEqual([5, null, true]);
    // The last slice finds the end of the file.
    expect(player.reading).toBe(1);
    slice();
    expect(player.reading).toBeNull();
    expect(fed).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 5],
    ]);
    // The capture's end was fed once, with its last event, not at the edge of what was read.
    expect(conn.endsFed).toBe(1);
  });

  it("stops at a bad line, says why, and keeps the events before it", () => {
    const { capture, slice } = opened([frame(0, 0), frame(10, 1), "{not json", frame(30, 3)]);
    const { conn } = connection();
    const player = new ReplayPlayer(conn as unknown as RelayConnection, capture);
    player.start();
    player.seek(player.count);
    expect(player.waitingFor).toBe(4);
    slice();
    slice();
    expect([player.position, player.count, player.waitingFor, player.reading]).toEqual([2, 2, null, null]);
    expect(player.readError).toBe("big.jsonl cannot be replayed: Line 4: not JSON.");
    expect(player.atEnd).toBe(true);
  });

  it("stops reading the file once the capture is left", () => {
    const { capture, slice } = opened([0, 1, 2, 3, 4].map((i) => frame(i * 10, i)));
    const { conn } = connection();
    const player = new ReplayPlayer(conn as unknown as RelayConnection, capture);
    player.start();
    slice();
    const read = capture.progress!.read;
    expect(read).toBe(2);
    player.dispose();
    slice();
    slice();
    expect([capture.progress!.read, capture.progress!.done]).toEqual([read, false]);
  });
});
