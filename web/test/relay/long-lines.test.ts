import { describe, expect, it } from "vitest";
import { JsonlDecoder } from "@pier/protocol";
import { LongLineSplitter, type LinePiece } from "../../src/lib/relay/long-lines.ts";
import { HeldLongLine } from "../../src/lib/relay/long-line-parser.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const show = (pieces: LinePiece<HeldLongLine>[]) => pieces.map((p) => `${p.kind}:${text(p.kind === "long" ? p.line.bytes() : p.bytes)}`);
const splitterOf = (longBytes: number) => new LongLineSplitter(() => new HeldLongLine(), longBytes);

describe("long line splitter", () => {
  it("hands whole short lines on and holds the unfinished one, wherever chunks end", () => {
    const splitter = splitterOf(10);
    expect(show(splitter.push(bytes('{"a":1}\n{"b"')))).toEqual(['lines:{"a":1}\n']);
    expect(splitter.heldBytes).toBe(4);
    expect(show(splitter.push(bytes(":2}\n{}\n[")))).toEqual(['lines:{"b":2}\n', "lines:{}\n"]);
    expect(show(splitter.push(bytes("]")))).toEqual([]);
    expect(show(splitter.end())).toEqual(["lines:[]"]);
    expect(splitter.end()).toEqual([]);
  });

  it("sets a line longer than the limit apart, in its place among the others", () => {
    const splitter = splitterOf(10);
    const pieces = [...splitter.push(bytes('{"a":1}\n{"long":"01')), ...splitter.push(bytes("23456789")), ...splitter.push(bytes('"}\r\n{"b":2}\n'))];
    expect(show(pieces)).toEqual(['lines:{"a":1}\n', 'long:{"long":"0123456789"}\r', 'lines:{"b":2}\n']);
  });

  it("hands a long line's bytes on while it arrives, from the chunk that takes it past the limit, without copying them", () => {
    const lines: HeldLongLine[] = [];
    const splitter = new LongLineSplitter(() => {
      const line = new HeldLongLine();
      lines.push(line);
      return line;
    }, 10);
    const parts = [bytes('{"a":1}\n{"lo'), bytes('ng":"0'), bytes("12345"), bytes("6789"), bytes('"}\n')];
    expect(splitter.push(parts[0]!)).toHaveLength(1);
    expect(splitter.push(parts[1]!)).toEqual([]);
    // 9 bytes held: not long yet.
    expect(lines).toHaveLength(0);
    expect(splitter.push(parts[2]!)).toEqual([]);
    // 14: long, and what was held went with it, as the chunks themselves.
    expect(lines).toHaveLength(1);
    expect(lines[0]!.parts.map(text)).toEqual(['{"lo', 'ng":"0', "12345"]);
    expect(lines[0]!.parts[2]).toBe(parts[2]);
    splitter.push(parts[3]!);
    expect(lines[0]!.parts.map(text)).toEqual(['{"lo', 'ng":"0', "12345", "6789"]);
    const ended = splitter.push(parts[4]!);
    expect(ended).toEqual([{ kind: "long", line: lines[0] }]);
    expect(text(lines[0]!.bytes())).toBe('{"long":"0123456789"}');
    expect(splitter.heldBytes).toBe(0);
  });

  it("lets go of a long line that will never end", () => {
    const aborted: string[] = [];
    const splitter = new LongLineSplitter(() => {
      const line = new HeldLongLine();
      line.abort = () => aborted.push(text(line.bytes()));
      return line;
    }, 3);
    splitter.push(bytes("abcdef"));
    splitter.abort();
    expect(aborted).toEqual(["abcdef"]);
    expect(splitter.heldBytes).toBe(0);
    expect(show(splitter.push(bytes("{}\n")))).toEqual(["lines:{}\n"]);
  });

  it("a line of exactly the limit goes to the decoder; one byte more does not", () => {
    const at = splitterOf(4);
    expect(show(at.push(bytes("1234\n")))).toEqual(["lines:1234\n"]);
    expect(show(at.push(bytes("12")))).toEqual([]);
    expect(show(at.push(bytes("345\n")))).toEqual(["long:12345"]);
  });

  it("a long last line without LF is still a line at the end of the stream", () => {
    const splitter = splitterOf(3);
    splitter.push(bytes("abcdef"));
    expect(show(splitter.end())).toEqual(["long:abcdef"]);
  });

  it("gives the decoder the same records, split at every byte, as the bytes whole (multi-byte characters cut too)", () => {
    const stream = bytes('{"x":"é—😀"}\n{"y":"\u2028"}\n{"z":1}\n');
    const whole = new JsonlDecoder().push(stream);
    for (let cut = 1; cut < stream.length; cut++) {
      const splitter = splitterOf(1000);
      const decoder = new JsonlDecoder();
      const lines = [];
      for (const part of [stream.subarray(0, cut), stream.subarray(cut)]) {
        for (const piece of splitter.push(part)) if (piece.kind === "lines") lines.push(...decoder.push(piece.bytes));
      }
      expect(lines).toEqual(whole);
    }
  });
});
