import { describe, expect, it } from "vitest";
import { StdoutReplay } from "../../src/stdout-replay.ts";

const text = (replay: StdoutReplay) => Buffer.concat(replay.chunks).toString("utf8");

describe("StdoutReplay", () => {
  it("keeps chunks as read while under the bound", () => {
    const replay = new StdoutReplay(100);
    replay.append(Buffer.from('{"type":"a"}\n{"ty'));
    replay.append(Buffer.from('pe":"b"}\n'));
    expect(replay.chunks.map((chunk) => chunk.toString())).toEqual(['{"type":"a"}\n{"ty', 'pe":"b"}\n']);
    expect(replay.bytes).toBe(26);
    expect(replay.truncated).toBe(false);
  });

  it("drops the oldest records and starts at a record boundary", () => {
    const replay = new StdoutReplay(30);
    replay.append(Buffer.from('{"type":"one"}\n{"type":"tw'));
    replay.append(Buffer.from('o"}\n{"type":"three"}\n'));
    expect(replay.truncated).toBe(true);
    expect(text(replay)).toBe('{"type":"three"}\n');
    expect(replay.bytes).toBe(Buffer.byteLength('{"type":"three"}\n'));
  });

  it("never holds more than its bound", () => {
    const replay = new StdoutReplay(1000);
    for (let i = 0; i < 5000; i++) {
      replay.append(Buffer.from(`{"type":"message_update","n":${i}}\n`));
      expect(replay.bytes).toBeLessThanOrEqual(1000);
    }
    const lines = text(replay).split("\n").filter(Boolean);
    expect(lines.at(-1)).toBe('{"type":"message_update","n":4999}');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("skips the rest of a record whose start was dropped with an oversized chunk", () => {
    const replay = new StdoutReplay(20);
    replay.append(Buffer.from('{"type":"a very long record that is'));
    expect(replay.bytes).toBe(0);
    replay.append(Buffer.from(' still going"}\n{"type":"b"}\n'));
    expect(text(replay)).toBe('{"type":"b"}\n');
  });

  it("clears for a new child", () => {
    const replay = new StdoutReplay(10);
    replay.append(Buffer.from("01234567890123\n"));
    replay.clear();
    expect(replay.truncated).toBe(false);
    replay.append(Buffer.from('{"a":1}\n'));
    expect(text(replay)).toBe('{"a":1}\n');
  });
});
