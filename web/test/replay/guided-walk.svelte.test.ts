import { describe, expect, it } from "vitest";
import { GuidedWalk, parseRecordList } from "../../src/lib/replay/guided-walk.svelte.ts";
import { openCaptureText, type OpenedCapture } from "../../src/lib/replay/open-capture.ts";
import type { ReplayPlayer } from "../../src/lib/replay/replay-player.svelte.ts";
import { readCapture } from "../../src/lib/wire-log/capture.ts";

const HEADER = JSON.stringify({ type: "pier-capture", version: 2, startedAt: "2026-05-01T10:00:00.000Z", pier: "0.1.0", redacted: [] });
const frame = (t: number, count: number) => JSON.stringify({ t, k: "frame", f: { type: "peers", count } });
/** Five events, one record each. */
const EVENTS = [0, 1, 2, 3, 4].map((i) => frame(i * 10, i)).join("\n");
const note = (at: number, text: string, records: number[] = []) => JSON.stringify({ k: "note", at, records, text });

function opened(notes: string[] = []): OpenedCapture {
  const result = openCaptureText("walk.jsonl", `${[HEADER, EVENTS, ...notes].join("\n")}\n`);
  if (!result.ok) throw new Error(result.message);
  return result.capture;
}

/** The part of a player the walk uses: a position it seeks to. */
function player(capture: OpenedCapture): ReplayPlayer {
  const fake = {
    capture,
    position: 0,
    count: capture.items.length,
    pause() {},
    seek(position: number) {
      fake.position = position;
    },
  };
  return fake as unknown as ReplayPlayer;
}

describe("a guided walk", () => {
  it("steps note to note, moving the player to each note's position", () => {
    const walk = new GuidedWalk(player(opened([note(4, "d"), note(1, "a", [1]), note(3, "c")])));
    expect(walk.notes.map((n) => n.text)).toEqual(["a", "c", "d"]);
    expect(walk.current).toBeNull();
    // Before the first note, Next goes to it.
    walk.next();
    expect([walk.index, walk.player.position, walk.visit]).toEqual([0, 1, 1]);
    walk.previous();
    expect(walk.index).toBe(0);
    walk.next();
    walk.next();
    walk.next();
    expect([walk.index, walk.player.position]).toEqual([2, 4]);
  });

  it("adds at the player's position, edits, moves and deletes, in order of position; refuses what cannot be", () => {
    const p = player(opened([note(1, "a"), note(4, "d")]));
    const walk = new GuidedWalk(p);
    p.seek(3);
    expect(walk.add({ text: "c", records: [3, 2, 3] })).toBeNull();
    expect(walk.notes.map((n) => [n.at, n.text, n.records])).toEqual([
      [1, "a", []],
      [3, "c", [2, 3]],
      [4, "d", []],
    ]);
    expect([walk.index, walk.edited]).toEqual([1, true]);
    expect(walk.add({ text: "  ", records: [] })).toBe("A note needs some text.");
    expect(walk.add({ text: "x", records: [4] })).toBe("Record 4 is not shown at position 3 (the page holds 3 records there).");
    expect(walk.update(0, { text: "a2", records: [1] })).toBeNull();
    expect(walk.notes[0]).toEqual({ at: 1, records: [1], text: "a2" });
    p.seek(5);
    expect(walk.moveHere(0)).toBeNull();
    expect(walk.notes.map((n) => n.text)).toEqual(["c", "d", "a2"]);
    expect(walk.index).toBe(2);
    walk.remove(2);
    expect(walk.notes.map((n) => n.text)).toEqual(["c", "d"]);
    expect(walk.index).toBe(1);

    // Written out, read back: the same notes, the same events.
    const read = readCapture(walk.text());
    expect(read.ok && read.notes).toEqual(walk.notes);
    expect(read.ok && read.events.length).toBe(5);
  });

  it("reads a list of record numbers, or says which word is not one", () => {
    expect(parseRecordList(" 12, #15  7")).toEqual([12, 15, 7]);
    expect(parseRecordList("")).toEqual([]);
    expect(parseRecordList("12, x")).toBe("“x” is not a record number.");
    expect(parseRecordList("0")).toBe("“0” is not a record number.");
  });
});
