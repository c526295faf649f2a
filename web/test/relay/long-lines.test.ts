import { describe, expect, it } from "vitest";
import { JsonlDecoder } from "@pier/protocol";
import { LongLineSplitter, type LinePiece } from "../../src/lib/relay/long-lines.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const show = (pieces: LinePiece[]) => pieces.map((p) => `${p.kind}:${text(p.bytes)}`);

describe("long line splitter", () => {
  it("hands whole short lines on and holds the unfinished one, wherever chunks end", () => {
    const splitter = new LongLineSplitter(10);
    expect(show(splitter.push(bytes('{"a":1}\n{"b"')))).toEqual(['lines:{"a":1}\n']);
    expect(splitter.heldBytes).toBe(4);
    expect(show(splitter.push(bytes(":2}\n{}\n[")))).toEqual(['lines:{"b":2}\n', "lines:{}\n"]);
    expect(show(splitter.push(bytes("]")))).toEqual([]);
    expect(show(splitter.end())).toEqual(["lines:[]"]);
    expect(splitter.end()).toEqual([]);
  });

  it("sets a line longer than the limit apart, in a buffer of its own, in its place among the others", () => {
    const splitter = new LongLineSplitter(10);
    const pieces = [...splitter.push(bytes('{"a":1}\n{"long":"01')), ...splitter.push(bytes("23456789")), ...splitter.push(bytes('"}\r\n{"b":2}\n'))];
    expect(show(pieces)).toEqual(['lines:{"a":1}\n', 'long:{"long":"0123456789"}\r', 'lines:{"b":2}\n']);
    const long = pieces[1]!.bytes;
    // Transferable without a copy: the line is its buffer, whole.
    expect(long.byteOffset).toBe(0);
    expect(long.buffer.byteLength).toBe(long.length);
  });

  it("a line of exactly the limit goes to the decoder; one byte more does not", () => {
    const at = new LongLineSplitter(4);
    expect(show(at.push(bytes("1234\n")))).toEqual(["lines:1234\n"]);
    expect(show(at.push(bytes("12")))).toEqual([]);
    expect(show(at.push(bytes("345\n")))).toEqual(["long:12345"]);
  });

  it("a long last line without LF is still a line at the end of the stream", () => {
    const splitter = new LongLineSplitter(3);
    splitter.push(bytes("abcdef"));
    expect(show(splitter.end())).toEqual(["long:abcdef"]);
  });

  it("gives the decoder the same records, split at every byte, as the bytes whole (multi-byte characters cut too)", () => {
    const stream = bytes('{"x":"é—😀"}\n{"y":"\u2028"}\n{"z":1}\n');
    const whole = new JsonlDecoder().push(stream);
    for (let cut = 1; cut < stream.length; cut++) {
      const splitter = new LongLineSplitter(1000);
      const decoder = new JsonlDecoder();
      const lines = [];
      for (const part of [stream.subarray(0, cut), stream.subarray(cut)]) {
        for (const piece of splitter.push(part)) lines.push(...decoder.push(piece.bytes));
      }
      expect(lines).toEqual(whole);
    }
  });
});
