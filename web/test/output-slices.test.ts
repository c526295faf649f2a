// outputSlices: a frame cut for xterm's write, in order, whole, without copies.
import { describe, expect, test } from "vitest";
import { OUTPUT_SLICE_BYTES, outputSlices } from "../src/lib/bash/output-slices.ts";

describe("outputSlices", () => {
  test("a frame no larger than a slice is written as it is", () => {
    const bytes = new Uint8Array(OUTPUT_SLICE_BYTES);
    expect(outputSlices(bytes)).toEqual([bytes]);
    expect(outputSlices(bytes)[0]).toBe(bytes);
    expect(outputSlices(new Uint8Array(0))).toHaveLength(1);
  });

  test("a larger frame is cut into slices of at most the size, in order, which together are the frame", () => {
    const bytes = Uint8Array.from({ length: 25 }, (_, i) => i);
    const slices = outputSlices(bytes, 10);
    expect(slices.map((slice) => slice.length)).toEqual([10, 10, 5]);
    expect(Array.from(slices.flatMap((slice) => Array.from(slice)))).toEqual(Array.from(bytes));
  });

  test("slices are views into the frame, not copies", () => {
    const bytes = new Uint8Array(3 * OUTPUT_SLICE_BYTES + 1);
    for (const slice of outputSlices(bytes)) expect(slice.buffer).toBe(bytes.buffer);
  });

  test("a size that is no whole number of bytes is refused with a sentence", () => {
    expect(() => outputSlices(new Uint8Array(4), 0)).toThrow(/whole number of bytes, at least 1/);
    expect(() => outputSlices(new Uint8Array(4), 1.5)).toThrow(/got 1.5/);
  });
});
