import { JsonlDecoder } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import type { RawToken } from "../../src/lib/wire-log/raw-tokens.ts";
import {
  appendChunk,
  createRawView,
  droppedSummary,
  endStream,
  heldChunks,
  lineByNo,
  lineOfSeq,
  lineSegments,
  pendingRange,
  renderChunk,
  renderLine,
  renderRange,
  setLineSeq,
  type RawView,
} from "../../src/lib/wire-log/raw-view.ts";
import { chunked, fixtureNames, fixtureText, random } from "./support.ts";

const encoder = new TextEncoder();
const bytes = (text: string): Uint8Array => encoder.encode(text);

function viewOf(chunks: readonly Uint8Array[], maxBytes?: number): RawView {
  const view = createRawView(maxBytes);
  chunks.forEach((chunk, i) => appendChunk(view, { seq: i + 1, at: 1000 + i, bytes: chunk }));
  return view;
}

/** The tokens' text put back together (boundaries add nothing). */
const joined = (tokens: readonly RawToken[]): string => tokens.map((t) => t.text).join("");
const kinds = (tokens: readonly RawToken[]): string[] => tokens.map((t) => (t.kind === "text" ? `text:${t.text}` : t.kind));

describe("lines from chunks", () => {
  it.each(fixtureNames())("finds the same lines as JsonlDecoder in %s, whatever the chunking", (name) => {
    const all = bytes(fixtureText(name));
    const chunks = chunked(all, random(name.length), 300);
    const decoder = new JsonlDecoder();
    const view = createRawView();
    const decoded: string[] = [];
    chunks.forEach((chunk, i) => {
      const lines = decoder.push(chunk);
      const done = appendChunk(view, { seq: i + 1, at: i, bytes: chunk });
      expect(done.count).toBe(lines.length);
      lines.forEach((line, k) => {
        decoded.push(line.raw);
        setLineSeq(view, done.firstLine + k, 100 + decoded.length);
      });
    });
    const utf8 = new TextDecoder();
    decoded.forEach((raw, i) => {
      const line = lineByNo(view, i + 1)!;
      expect(line.lineNo).toBe(i + 1);
      expect(lineOfSeq(view, 101 + i)).toBe(line);
      // The chunks that carried it, joined, give the line back exactly (its LF included).
      const segments = lineSegments(view, line);
      const parts = segments.map((s) =>
        heldChunks(view)
          .find((c) => c.seq === s.chunkSeq)!
          .bytes.subarray(s.chunkFrom, s.chunkTo),
      );
      const joinedBytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      parts.reduce((offset, p) => (joinedBytes.set(p, offset), offset + p.length), 0);
      expect(utf8.decode(joinedBytes)).toBe(`${raw}\n`);
      // And the rendering shows the same text, with one boundary marker per split.
      const { tokens } = renderLine(view, line);
      expect(joined(tokens)).toBe(`${raw}\n`);
      const splits = tokens.filter((t) => t.kind === "boundary" && t.byteOffset > line.start).length;
      expect(splits).toBe(segments.length - 1);
    });
  });

  it("joins a line split inside a multi-byte character, and marks the split without corrupting it", () => {
    const text = '{"t":"héllo 🙂"}\n';
    const all = bytes(text);
    const e = all.indexOf(0xc3); // é = C3 A9
    const smile = all.indexOf(0xf0); // 🙂 = F0 9F 99 82
    const view = viewOf([all.slice(0, e + 1), all.slice(e + 1, smile + 2), all.slice(smile + 2)]);
    const { tokens } = renderLine(view, lineByNo(view, 1)!);
    expect(joined(tokens)).toBe(text);
    const boundaries = tokens.filter((t) => t.kind === "boundary");
    expect(boundaries.map((b) => [b.chunkSeq, b.splitsCharacter, b.byteOffset])).toEqual([
      [1, false, 0],
      [2, true, e + 1],
      [3, true, smile + 2],
    ]);
    // Each split marker follows the whole character it splits.
    const afterE = tokens[tokens.indexOf(boundaries[1]!) - 1]!;
    expect(afterE.text.endsWith("é")).toBe(true);
    const afterSmile = tokens[tokens.indexOf(boundaries[2]!) - 1]!;
    expect(afterSmile.text.endsWith("🙂")).toBe(true);
  });

  it("shows a character split at a chunk's edge whole, from the chunk where it starts", () => {
    const all = bytes("aé\n");
    const view = viewOf([all.slice(0, 2), all.slice(2)]);
    const [first, second] = heldChunks(view);
    const a = renderChunk(view, first!).tokens.filter((t) => t.kind !== "boundary");
    expect(a).toEqual([{ kind: "text", text: "aé", label: "aé", byteOffset: 0, byteLength: 3 }]);
    const b = renderChunk(view, second!).tokens;
    // The second chunk starts inside é: its first token starts one byte earlier.
    expect(b[0]).toMatchObject({ kind: "text", text: "é", byteOffset: 1, byteLength: 2 });
    expect(b[1]).toMatchObject({ kind: "boundary", splitsCharacter: true, byteOffset: 2 });
    expect(b.at(-1)).toMatchObject({ kind: "lf" });
  });

  it("notes CRLF line ends", () => {
    const view = viewOf([bytes('{"a":1}\r'), bytes('\n{"b":2}\n')]);
    expect(lineByNo(view, 1)).toMatchObject({ crlf: true, contentEnd: 7, lf: 8 });
    expect(lineByNo(view, 2)).toMatchObject({ crlf: false });
    expect(kinds(renderLine(view, lineByNo(view, 1)!).tokens)).toEqual(["boundary", 'text:{"a":1}', "cr", "boundary", "lf"]);
  });

  it("keeps the line still arriving apart, and closes it at the end of the stream", () => {
    const view = viewOf([bytes('{"a":1}\n{"b"')]);
    expect(lineByNo(view, 2)).toBeUndefined();
    const pending = pendingRange(view);
    expect(joined(renderRange(view, pending.from, pending.to).tokens)).toBe('{"b"');
    expect(endStream(view)).toEqual({ firstLine: 2, count: 1 });
    expect(lineByNo(view, 2)).toMatchObject({ lf: null, start: 8, contentEnd: 12 });
  });
});

describe("visible characters", () => {
  it("makes separators, tabs and control characters tokens of their own", () => {
    const text = "a\tb\u2028c\u2029d\u0085e\u001b[0m\u007f\ufefff\r\n";
    const view = viewOf([bytes(text)]);
    const tokens = renderLine(view, lineByNo(view, 1)!).tokens.filter((t) => t.kind !== "boundary");
    expect(kinds(tokens)).toEqual(["text:a", "tab", "text:b", "ls", "text:c", "ps", "text:d", "nel", "text:e", "control", "text:[0m", "control", "control", "text:f", "cr", "lf"]);
    expect(tokens.map((t) => t.label).filter((l) => !/^[a-f[0m]+$/.test(l))).toEqual(["\\t", "U+2028", "U+2029", "U+0085", "U+001B", "U+007F", "U+FEFF", "\\r", "\\n"]);
    expect(joined(tokens)).toBe(text);
  });

  it("shows bytes that are not UTF-8 as such, one by one, and a character not yet complete", () => {
    const view = viewOf([new Uint8Array([0x61, 0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x62, 0x0a, 0xe2, 0x82])]);
    const first = renderLine(view, lineByNo(view, 1)!).tokens.filter((t) => t.kind !== "boundary");
    expect(first.map((t) => [t.kind, t.label])).toEqual([
      ["text", "a"],
      ["invalid-utf8", "\\xFF"],
      ["invalid-utf8", "\\xC3"],
      ["text", "("],
      ["invalid-utf8", "\\xED"], // a surrogate's encoding is not valid UTF-8
      ["invalid-utf8", "\\xA0"],
      ["invalid-utf8", "\\x80"],
      ["text", "b"],
      ["lf", "\\n"],
    ]);
    const pending = pendingRange(view);
    expect(renderRange(view, pending.from, pending.to).tokens.filter((t) => t.kind !== "boundary")).toEqual([{ kind: "incomplete", text: "", label: "\\xE2\\x82", byteOffset: 9, byteLength: 2 }]);
    appendChunk(view, { seq: 2, at: 0, bytes: new Uint8Array([0xac, 0x0a]) });
    expect(joined(renderLine(view, lineByNo(view, 2)!).tokens)).toBe("€\n");
  });

  it("stops a huge line at maxTokens", () => {
    const view = viewOf([bytes(`${"a\t".repeat(1000)}\n`)]);
    const rendered = renderLine(view, lineByNo(view, 1)!, { maxTokens: 50 });
    expect(rendered.truncated).toBe(true);
    expect(rendered.tokens.length).toBeLessThanOrEqual(51);
  });
});

describe("bounds", () => {
  it("drops the oldest chunks and lines beyond maxBytes and says how much", () => {
    const line = `{"n":"${"x".repeat(90)}"}\n`; // 100 bytes
    const view = createRawView(1024);
    for (let i = 0; i < 100; i++) appendChunk(view, { seq: i + 1, at: i, bytes: bytes(line) });
    expect(view.totalBytes - view.firstByte).toBeLessThanOrEqual(1024);
    const dropped = droppedSummary(view);
    expect(dropped.bytes).toBe(view.firstByte);
    expect(dropped.chunks).toBe(100 - heldChunks(view).length);
    expect(dropped.lines).toBe(dropped.chunks);
    expect(lineByNo(view, 1)).toBeUndefined();
    expect(joined(renderLine(view, lineByNo(view, 100)!).tokens)).toBe(line);
  });

  it("keeps a line whose start was dropped, marked truncated", () => {
    const view = createRawView(1024);
    appendChunk(view, { seq: 1, at: 0, bytes: bytes(`{"big":"${"y".repeat(1500)}`) });
    // One chunk bigger than the budget: only its tail is kept.
    expect(heldChunks(view)[0]).toMatchObject({ clipped: true, start: 1508 - 1024 });
    expect(joined(renderRange(view, 0, view.totalBytes).tokens)).toBe("y".repeat(1024));
    appendChunk(view, { seq: 2, at: 1, bytes: bytes('yy"}\n') });
    const line = lineByNo(view, 1)!;
    expect(line.start).toBe(0);
    const rendered = renderLine(view, line);
    expect(rendered.truncatedStart).toBe(true);
    expect(joined(rendered.tokens)).toBe('yy"}\n');
  });

  it("forgets record links of dropped lines", () => {
    const view = createRawView(1024);
    for (let i = 0; i < 50; i++) {
      const done = appendChunk(view, { seq: i, at: i, bytes: bytes(`${"z".repeat(99)}\n`) });
      setLineSeq(view, done.firstLine, 1000 + i);
    }
    expect(view.bySeq.size).toBeLessThanOrEqual(11);
    expect(lineOfSeq(view, 1000)).toBeUndefined();
    expect(lineOfSeq(view, 1049)!.lineNo).toBe(50);
  });
});
