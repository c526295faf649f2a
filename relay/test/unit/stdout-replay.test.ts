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

  it("gives its storage back when cleared for good (a sleeping session), a lent piece's slab once it comes back", () => {
    const replay = new StdoutReplay(1024 * 1024);
    replay.append(Buffer.alloc(300 * 1024, 0x61));
    replay.append(Buffer.from("\n"));
    const lent = replay.lendPiece(replay.start)!;
    const held = replay.lendPiece(replay.end - 1)!;
    held.giveBack();
    const [first, second] = [lent.bytes.buffer, held.bytes.buffer];
    expect(first).not.toBe(second);
    // clear() keeps the storage for the next child's output.
    replay.clear();
    expect(second.byteLength).toBeGreaterThan(0);
    replay.clearAndFree();
    expect(second.byteLength).toBe(0);
    // The piece out (a socket still sending it) keeps its bytes until it is given back.
    expect(first.byteLength).toBeGreaterThan(0);
    expect(lent.bytes[0]).toBe(0x61);
    lent.giveBack();
    expect(first.byteLength).toBe(0);
    expect(replay.slabsLent).toBe(0);
  });

  it("gives stream offsets that never restart, and pieces from any held offset", () => {
    const replay = new StdoutReplay(100);
    replay.append(Buffer.from('{"a":1}\n{"b":'));
    replay.append(Buffer.from("2}\n"));
    expect([replay.start, replay.end]).toEqual([0, 16]);
    expect(replay.pieceAt(4)?.toString()).toBe(':1}\n{"b":');
    expect(replay.pieceAt(4, 6)?.toString()).toBe(":1");
    expect(replay.pieceAt(13)?.toString()).toBe("2}\n");
    expect(replay.pieceAt(16)).toBeNull();
    replay.clear();
    expect([replay.start, replay.end]).toEqual([16, 16]);
    expect(replay.pieceAt(3)).toBeNull();
    replay.append(Buffer.from('{"c":3}\n'));
    expect([replay.start, replay.end]).toEqual([16, 24]);
    expect(replay.pieceAt(16)?.toString()).toBe('{"c":3}\n');
  });

  // Against a model that keeps everything: random records (some longer than
  // the bound), cut into random reads (some across the 256 KiB storage slabs).
  it.each([0, 20, 1000, 64 * 1024, 300_000, 700_000])("keeps exactly the right suffix of the stream (bound %i)", (maxBytes) => {
    let seed = maxBytes + 1;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const replay = new StdoutReplay(maxBytes);
    let all = Buffer.alloc(1024 * 1024);
    const boundaries = new Set<number>();
    let total = 0;
    let sinceClear = 0;
    for (let round = 0; round < 150; round++) {
      if (random(150) === 0) {
        replay.clear();
        sinceClear = total;
      }
      const record = random(40) === 0 ? 2 * maxBytes + random(5000) : random(3000);
      const bytes = Buffer.alloc(record + 1, 97 + (round % 26));
      bytes[record] = 0x0a;
      for (let at = 0; at < bytes.length;) {
        const size = Math.min(bytes.length - at, 1 + random(70_000));
        const chunk = bytes.subarray(at, at + size);
        boundaries.add(total);
        replay.append(chunk);
        if (total + size > all.length) all = Buffer.concat([all, Buffer.alloc(all.length + size)]);
        chunk.copy(all, total);
        total += size;
        at += size;
      }
      expect(replay.end).toBe(total);
      expect(replay.bytes).toBeLessThanOrEqual(maxBytes);
      expect(replay.start).toBeGreaterThanOrEqual(sinceClear);
      if (replay.bytes > 0 && replay.start > sinceClear) expect(all[replay.start - 1]).toBe(0x0a);
      const chunks = replay.chunks;
      expect(Buffer.concat(chunks).equals(all.subarray(replay.start, replay.end))).toBe(true);
      // Cut where pi's reads were (and where a storage slab ends), but for the first chunk's start.
      const cut = (offset: number) => boundaries.has(offset) || (offset - sinceClear) % SLAB === 0;
      let offset = replay.start;
      for (const [index, chunk] of chunks.entries()) {
        if (index > 0) expect(cut(offset)).toBe(true);
        offset += chunk.length;
      }
      if (replay.bytes > 0) {
        const from = replay.start + random(replay.bytes);
        const piece = replay.pieceAt(from)!;
        expect(piece.equals(all.subarray(from, from + piece.length))).toBe(true);
        const next = from + piece.length;
        expect(next === replay.end || cut(next)).toBe(true);
      }
      expect(replay.pieceAt(replay.start - 1)).toBeNull();
    }
  });

  it("lends pieces as views of its storage that stay intact while the replay moves on, and frees a dropped slab once they are back", () => {
    const replay = new StdoutReplay(SLAB);
    replay.append(line("a", 64 * 1024));
    replay.append(line("b", 64 * 1024));
    const first = replay.lendPiece(replay.start)!;
    const second = replay.lendPiece(replay.start + 64 * 1024)!;
    expect(first.bytes.equals(line("a", 64 * 1024))).toBe(true);
    // One slab under both: nothing was copied.
    expect(first.bytes.buffer).toBe(second.bytes.buffer);
    expect(replay.slabsLent).toBe(1);
    // pi writes on, well past the bound: the lent slab leaves the replay, and its space must not be reused under the pieces.
    for (let i = 0; i < 20; i++) replay.append(line(String.fromCharCode(99 + i), 64 * 1024));
    expect(replay.start).toBeGreaterThan(SLAB);
    expect(first.bytes.equals(line("a", 64 * 1024))).toBe(true);
    expect(second.bytes.equals(line("b", 64 * 1024))).toBe(true);
    first.giveBack();
    first.giveBack(); // twice counts once
    expect(second.bytes.length).toBe(64 * 1024);
    second.giveBack();
    // Retired and freed at once (its memory is not left to the collector).
    expect(replay.slabsLent).toBe(0);
    expect(second.bytes.length).toBe(0);
  });

  it("keeps a chunk that crosses into the next slab as two, each lent as a view: no piece is ever a copy", () => {
    const replay = new StdoutReplay(1024 * 1024);
    replay.append(line("z", 300 * 1024));
    expect(replay.chunks.map((chunk) => chunk.length)).toEqual([SLAB, 300 * 1024 - SLAB]);
    const [one, two] = [replay.lendPiece(replay.start)!, replay.lendPiece(replay.start + SLAB)!];
    expect(Buffer.concat([one.bytes, two.bytes]).equals(line("z", 300 * 1024))).toBe(true);
    expect(one.bytes.buffer.byteLength).toBe(SLAB);
    expect(two.bytes.buffer).not.toBe(one.bytes.buffer);
    expect(replay.slabsLent).toBe(2);
    one.giveBack();
    two.giveBack();
    expect(replay.slabsLent).toBe(0);
    expect(replay.lendPiece(replay.end)).toBeNull();
  });

  it("stages bytes outside the stream until commit, which lends them as views of its storage, one per slab", () => {
    const replay = new StdoutReplay(1024 * 1024);
    replay.append(line("a", SLAB - 100));
    replay.stage(Buffer.from('{"n":1}\n'));
    replay.stage(line("b", 200));
    expect([replay.end, replay.staged]).toEqual([SLAB - 100, 208]);
    expect(replay.lendPiece(SLAB - 100)).toBeNull();
    const pieces = replay.commit();
    expect(pieces.map((piece) => piece.bytes.length)).toEqual([100, 108]);
    expect(Buffer.concat(pieces.map((piece) => piece.bytes)).toString()).toBe(`{"n":1}\n${line("b", 200).toString()}`);
    expect(replay.slabsLent).toBe(2);
    expect([replay.end, replay.staged]).toEqual([SLAB + 108, 0]);
    // The replay keeps the batch cut where the live browsers got it.
    expect(replay.chunks.slice(-2).map((chunk) => chunk.length)).toEqual([100, 108]);
    for (const piece of pieces) piece.giveBack();
    expect(replay.slabsLent).toBe(0);
    expect(replay.commit()).toEqual([]);
  });

  it("commits bytes it cannot hold (a record longer than its bound) as views all the same, and holds from the next record on", () => {
    const replay = new StdoutReplay(100);
    replay.stage(Buffer.from(`{"long":"${"x".repeat(500)}`));
    const first = replay.commit();
    expect(replay.bytes).toBe(0);
    replay.stage(Buffer.from('"}\n{"b":1}\n'));
    const second = replay.commit();
    expect(Buffer.concat([...first, ...second].map((piece) => piece.bytes)).toString()).toBe(`{"long":"${"x".repeat(500)}"}\n{"b":1}\n`);
    expect(Buffer.concat(replay.chunks).toString()).toBe('{"b":1}\n');
    for (const piece of [...first, ...second]) piece.giveBack();
    expect(replay.slabsLent).toBe(0);
  });
});

const SLAB = 256 * 1024;

/** One record of `size` bytes, LF included. */
function line(letter: string, size: number): Buffer {
  return Buffer.concat([Buffer.alloc(size - 1, letter), Buffer.from("\n")]);
}
