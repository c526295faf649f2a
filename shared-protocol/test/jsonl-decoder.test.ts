import { describe, expect, it } from "vitest";
import { JsonlDecoder, type DecodedLine } from "../src/jsonl-decoder.ts";

const encoder = new TextEncoder();

// A slice of a real pi 0.87.1 RPC stream (shapes as captured), with characters
// that break naive framing: CJK and emoji (multi-byte UTF-8), U+2028/U+2029
// and U+0085 inside strings.
const capture = [
  { id: "c1:1", type: "response", command: "prompt", success: true },
  { type: "agent_start" },
  { type: "turn_start" },
  { type: "message_start", message: { role: "system", content: "", sections: { preamble: "You are pi" } } },
  { type: "message_end", message: { role: "system", content: "", sections: { preamble: "You are pi" } } },
  { type: "message_start", message: { role: "user", content: [{ type: "text", text: "只回复两个字母：OK" }], timestamp: 1 } },
  { type: "message_update", usage: { input: 0, output: 0, totalTokens: 0 }, assistantMessageEvent: { type: "text_start", contentIndex: 0 } },
  { type: "message_update", usage: { totalTokens: 0 }, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "line\u2028sep\u2029para\u0085nel 🚀 é" } },
  { type: "message_update", usage: { totalTokens: 3554 }, assistantMessageEvent: { type: "text_end", contentIndex: 0, content: "OK 👍" } },
  { type: "tool_execution_update", toolCallId: "call_1", partialResult: { content: [{ type: "text", text: "a\r\nb\n" }] } },
  { type: "agent_end", messages: [], willRetry: false },
  { type: "agent_settled" },
];
const text = capture.map((record) => JSON.stringify(record) + "\n").join("");
const bytes = encoder.encode(text);

function decodeAll(chunks: Uint8Array[]): DecodedLine[] {
  const decoder = new JsonlDecoder();
  const lines = chunks.flatMap((chunk) => decoder.push(chunk));
  return [...lines, ...decoder.end()];
}

function values(lines: DecodedLine[]): unknown[] {
  return lines.map((line) => (line.kind === "record" ? line.value : line));
}

describe("JsonlDecoder", () => {
  it("decodes a whole capture in one chunk", () => {
    expect(values(decodeAll([bytes]))).toEqual(capture);
  });

  it("gives the same records for every split position", () => {
    // JSON.stringify escapes no U+2028, so the raw bytes really contain it.
    expect(text).toContain("\u2028");
    for (let cut = 0; cut <= bytes.length; cut++) {
      const lines = decodeAll([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(values(lines), `split at byte ${cut}`).toEqual(capture);
    }
  });

  it("gives the same records for every pair of split positions on a short record", () => {
    const short = encoder.encode(JSON.stringify({ type: "x", t: "é🚀\u2028" }) + "\n");
    for (let a = 0; a <= short.length; a++) {
      for (let b = a; b <= short.length; b++) {
        const lines = decodeAll([short.subarray(0, a), short.subarray(a, b), short.subarray(b)]);
        expect(values(lines)).toEqual([{ type: "x", t: "é🚀\u2028" }]);
      }
    }
  });

  it("decodes byte by byte", () => {
    const chunks = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(values(decodeAll(chunks))).toEqual(capture);
  });

  it("decodes random chunkings the same way", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length;) {
        const size = 1 + Math.floor(random() * 64);
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      expect(values(decodeAll(chunks))).toEqual(capture);
    }
  });

  it("strips one trailing CR (CRLF framing) and keeps CRs elsewhere", () => {
    const crlf = encoder.encode('{"type":"a"}\r\n{"type":"b","t":"x\\r"}\r\n');
    const lines = decodeAll([crlf]);
    expect(values(lines)).toEqual([{ type: "a" }, { type: "b", t: "x\r" }]);
    expect(lines[0]?.raw).toBe('{"type":"a"}');
  });

  it("strips only one CR (the other is JSON whitespace and stays in raw)", () => {
    const lines = decodeAll([encoder.encode('{"type":"a"}\r\r\n')]);
    expect(lines[0]).toMatchObject({ kind: "record", value: { type: "a" } });
    expect(lines[0]?.raw).toBe('{"type":"a"}\r');
  });

  it("does not split on U+2028, U+2029 or U+0085 written raw", () => {
    const raw = '{"type":"t","text":"a\u2028b\u2029c\u0085d"}\n';
    expect(values(decodeAll([encoder.encode(raw)]))).toEqual([{ type: "t", text: "a\u2028b\u2029c\u0085d" }]);
  });

  it("reports a junk line with its raw text and keeps the records around it", () => {
    const junk = encoder.encode('{"type":"a"}\nWarning: something on stdout\n{"type":"b"}\n');
    const lines = decodeAll([junk]);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ kind: "record", value: { type: "a" } });
    expect(lines[1]).toMatchObject({ kind: "invalid", raw: "Warning: something on stdout" });
    expect(lines[1]?.kind === "invalid" && lines[1].error.length).toBeGreaterThan(0);
    expect(lines[2]).toMatchObject({ kind: "record", value: { type: "b" } });
  });

  it("reports a truncated JSON record as invalid without losing the next", () => {
    const lines = decodeAll([encoder.encode('{"type":"a","x":\n{"type":"b"}\n')]);
    expect(lines.map((line) => line.kind)).toEqual(["invalid", "record"]);
  });

  it("emits a final line without LF at end of stream", () => {
    const decoder = new JsonlDecoder();
    expect(decoder.push(encoder.encode('{"type":"a"}\n{"type":"b"}'))).toHaveLength(1);
    expect(decoder.pendingBytes).toBe(12);
    expect(values(decoder.end())).toEqual([{ type: "b" }]);
    expect(decoder.end()).toEqual([]);
  });

  it("copies pending bytes so a reused input buffer cannot corrupt them", () => {
    const decoder = new JsonlDecoder();
    const buffer = encoder.encode('{"type":"ab');
    decoder.push(buffer);
    buffer.fill(0x20);
    expect(values(decoder.push(encoder.encode('c"}\n')))).toEqual([{ type: "abc" }]);
  });

  it("drops a byte order mark that opens the stream, and keeps one that starts a later line", () => {
    const decoder = new JsonlDecoder();
    const lines = [...decoder.push(encoder.encode('\ufeff{"type":"a"}\n\ufeff{"type":"b"}\n')), ...decoder.end()];
    expect(lines.map((line) => line.kind)).toEqual(["record", "invalid"]);
    expect(lines[1]!.raw).toBe('\ufeff{"type":"b"}');
  });

  it("joins a long line that arrives over many chunks, counting the bytes it holds", () => {
    const text = `{"type":"long","text":"${"é".repeat(50_000)}"}`;
    const bytes = encoder.encode(`${text}\n`);
    const decoder = new JsonlDecoder();
    const lines = [];
    for (let at = 0; at < bytes.length; at += 1000) {
      lines.push(...decoder.push(bytes.subarray(at, at + 1000)));
      if (at + 1000 < bytes.length - 1) expect(decoder.pendingBytes).toBe(Math.min(at + 1000, bytes.length));
    }
    expect(lines.map((line) => line.raw)).toEqual([text]);
    expect(decoder.pendingBytes).toBe(0);
  });

  it("replaces invalid UTF-8 instead of throwing", () => {
    const bad = Uint8Array.of(...encoder.encode('{"type":"'), 0xff, ...encoder.encode('"}\n'));
    expect(values(decodeAll([bad]))).toEqual([{ type: "\ufffd" }]);
  });

  it("reads every ASCII byte the same in short and long lines, and a short line with one byte above 0x7F", () => {
    // Short ASCII lines are made into strings without TextDecoder: both ways must agree.
    const ascii = Array.from({ length: 128 }, (_, byte) => byte).filter((byte) => byte !== 0x0a);
    const lineOf = (length: number) => Uint8Array.from({ length }, (_, at) => ascii[at % ascii.length]!);
    const lines = [0, 1, 127, 1023, 1024, 1025, 5000].map(lineOf);
    const withHighByte = Uint8Array.of(...lineOf(40), 0xc3, 0xa9, 0x80);
    const record = encoder.encode(JSON.stringify({ type: "message_update", delta: "x".repeat(990) }));
    const all = [...lines, withHighByte, record];
    const stream = Uint8Array.from(all.flatMap((line) => [...line, 0x0a]));
    const utf8 = new TextDecoder();
    for (const size of [7, 1000, stream.length]) {
      const chunks = Array.from({ length: Math.ceil(stream.length / size) }, (_, at) => stream.subarray(at * size, (at + 1) * size));
      const decoded = decodeAll(chunks);
      expect(decoded.map((line) => line.raw)).toEqual(all.map((line) => utf8.decode(line).replace(/\r$/, "")));
      expect(decoded.at(-1)).toMatchObject({ kind: "record", value: { delta: "x".repeat(990) } });
    }
  });
});
