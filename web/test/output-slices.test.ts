// outputSlices: a frame cut for xterm's write, in order, whole, without copies.
import { describe, expect, test } from "vitest";
import { OUTPUT_SLICE_BYTES, OUTPUT_SLICE_LINES, outputSlices } from "../src/lib/bash/output-slices.ts";

const ascii = (text: string) => new TextEncoder().encode(text);
const texts = (slices: Uint8Array[]) => slices.map((slice) => new TextDecoder().decode(slice));

describe("outputSlices", () => {
  test("a frame no larger than a slice is written as it is", () => {
    const bytes = new Uint8Array(OUTPUT_SLICE_BYTES);
    expect(outputSlices(bytes)).toEqual([bytes]);
    expect(outputSlices(bytes)[0]).toBe(bytes);
    expect(outputSlices(new Uint8Array(0))).toHaveLength(1);
  });

  test("a larger frame is cut into slices of at most the size, in order, which together are the frame", () => {
    const bytes = Uint8Array.from({ length: 25 }, (_, i) => i);
    const slices = outputSlices(bytes, { bytes: 10 });
    expect(slices.map((slice) => slice.length)).toEqual([10, 10, 5]);
    expect(Array.from(slices.flatMap((slice) => Array.from(slice)))).toEqual(Array.from(bytes));
  });

  test("slices are views into the frame, not copies", () => {
    const bytes = new Uint8Array(3 * OUTPUT_SLICE_BYTES + 1);
    for (const slice of outputSlices(bytes)) expect(slice.buffer).toBe(bytes.buffer);
  });

  test("a size that is no whole number of bytes is refused with a sentence", () => {
    expect(() => outputSlices(new Uint8Array(4), { bytes: 0 })).toThrow(/whole number of bytes, at least 1/);
    expect(() => outputSlices(new Uint8Array(4), { bytes: 1.5 })).toThrow(/got 1.5/);
    expect(() => outputSlices(new Uint8Array(4), { lines: 0 })).toThrow(/whole number of lines, at least 1 \(got 0\)/);
  });

  // xterm updates its scrollbar for every line while its scrollback fills (~40 µs each): a slice's cost is its lines.
  test("a slice ends after at most the line limit of line breaks (LF, VT and FF move down a line alike)", () => {
    expect(texts(outputSlices(ascii("a\nb\nc\nd\ne"), { lines: 2 }))).toEqual(["a\nb\n", "c\nd\n", "e"]);
    expect(texts(outputSlices(ascii("1\x0b2\x0c3\r\n4\n"), { lines: 2 }))).toEqual(["1\x0b2\x0c", "3\r\n4\n"]);
  });

  test("whichever limit comes first cuts, and each slice counts afresh", () => {
    expect(texts(outputSlices(ascii("abcdefg\nh\ni\nj"), { bytes: 4, lines: 2 }))).toEqual(["abcd", "efg\n", "h\ni\n", "j"]);
  });

  test("by default a flood of short lines (`yes`) goes in slices of OUTPUT_SLICE_LINES lines, long lines in slices of OUTPUT_SLICE_BYTES", () => {
    const yes = ascii("y\n".repeat(3 * OUTPUT_SLICE_LINES + 5));
    expect(outputSlices(yes).map((slice) => slice.length)).toEqual([2 * OUTPUT_SLICE_LINES, 2 * OUTPUT_SLICE_LINES, 2 * OUTPUT_SLICE_LINES, 10]);
    const base64 = ascii(`${"A".repeat(76)}\n`.repeat(200));
    const slices = outputSlices(base64);
    expect(slices.slice(0, -1).every((slice) => slice.length === OUTPUT_SLICE_BYTES)).toBe(true);
    expect(slices.reduce((sum, slice) => sum + slice.length, 0)).toBe(base64.length);
  });
});
