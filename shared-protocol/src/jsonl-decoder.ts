// Streaming decoder for pi's stdout: strict JSONL framing.
//
// Records are split on LF only and one trailing CR is stripped. U+2028/
// U+2029/U+0085 (which generic line readers treat as line breaks) stay
// inside their JSON strings.
//
// The bytes are cut at LF before they are decoded: 0x0A never occurs inside
// a multi-byte UTF-8 sequence, so each line is whole characters and decodes
// in one call, without the decoder's streaming mode (in Node that mode is
// several times slower than the one-shot path). Each line is decoded on its
// own, not a chunk's lines at once and then sliced: in Chromium, which runs
// it for the page, TextDecoder's strings are costly to collect, and the
// slices kept each chunk's whole text alive (100,000 records of real pi
// output, from a collected heap: 633 → 447 ms, JSON.parse alone 166 ms; in
// Node 240 → 257 ms). The bytes after a chunk's last LF wait, as bytes, for
// the LF that ends their line.
//
// Short lines that are all ASCII (most of a stream: each delta is one record
// of a few hundred bytes) are not given to TextDecoder at all. In Chromium
// every string TextDecoder returns is made by Blink, which V8 must track with
// a weak handle until a full collection clears it: the 20,000 records of a
// fast answer left that many, cleared in one task of 50–90 ms of CPU time
// (the longest task in 8 of 10 traced streams with the inspector open; in
// none of 10 with this). In the page this is also cheaper than the call to
// TextDecoder (a stream's decoding, sampled: ~150 ms against ~235), though
// slower in a quiet loop and in Node (the reducer bench's Node figure dropped
// by a quarter). Longer lines are few, and TextDecoder is 3–4× faster on them.

/** One framed line: a parsed JSON value, or text that is not JSON. */
export type DecodedLine = { kind: "record"; value: unknown; raw: string } | { kind: "invalid"; raw: string; error: string };

const LF = 0x0a;
/** Lines up to this many bytes are made into strings in JavaScript when they are ASCII (see above). */
const SHORT_LINE = 1024;

export class JsonlDecoder {
  /** The bytes of the line not finished yet, in the order they came (each a copy: callers may reuse their buffers). */
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** A byte order mark is dropped at the start of the stream only (as a streaming TextDecoder does). */
  #atStart = true;
  /** One-shot decoding; ignoreBOM keeps a U+FEFF that starts a later line. */
  readonly #utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

  /** Feed one chunk (any boundary); returns the lines it completed. */
  push(chunk: Uint8Array): DecodedLine[] {
    const lines: DecodedLine[] = [];
    let start = 0;
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, start)) {
      const line = chunk.subarray(start, lf);
      // The first line may have begun in earlier chunks.
      lines.push(decodeLine(start === 0 ? this.#text(this.#takePending(line)) : this.#decode(line)));
      start = lf + 1;
    }
    this.#hold(chunk.subarray(start));
    return lines;
  }

  /** End of stream: a final line without LF is still a line. */
  end(): DecodedLine[] {
    if (this.#pendingBytes === 0) return [];
    return [decodeLine(this.#text(this.#takePending(new Uint8Array(0))))];
  }

  /** UTF-8 bytes held for an unfinished line (for the inspector and for bounds). */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  #hold(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#pending.push(bytes.slice());
    this.#pendingBytes += bytes.length;
  }

  /** The held bytes followed by `tail`, as one array; nothing is held after. */
  #takePending(tail: Uint8Array): Uint8Array {
    if (this.#pending.length === 0) return tail;
    const whole = new Uint8Array(this.#pendingBytes + tail.length);
    let at = 0;
    for (const part of this.#pending) {
      whole.set(part, at);
      at += part.length;
    }
    whole.set(tail, at);
    this.#pending = [];
    this.#pendingBytes = 0;
    return whole;
  }

  #decode(bytes: Uint8Array): string {
    return (bytes.length <= SHORT_LINE && asciiText(bytes)) || this.#utf8.decode(bytes);
  }

  /** The first line's text (a BOM that opens the stream is not part of it). */
  #text(bytes: Uint8Array): string {
    const text = this.#decode(bytes);
    if (!this.#atStart) return text;
    this.#atStart = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}

/**
 * The char codes of the line being made, reused: `apply` takes a plain array
 * of small integers about twice as fast as the typed array itself.
 */
const codes: number[] = [];

/** The line as a string when every byte is ASCII (one char per byte), else null. */
function asciiText(bytes: Uint8Array): string | null {
  const length = bytes.length;
  codes.length = length;
  let high = 0;
  for (let i = 0; i < length; i++) {
    const byte = bytes[i]!;
    high |= byte;
    codes[i] = byte;
  }
  // A short line is well under the engines' limit on arguments.
  return high < 0x80 ? String.fromCharCode.apply(null, codes) : null;
}

function decodeLine(line: string): DecodedLine {
  const raw = line.endsWith("\r") ? line.slice(0, -1) : line;
  try {
    return { kind: "record", value: JSON.parse(raw), raw };
  } catch (error) {
    return { kind: "invalid", raw, error: error instanceof Error ? error.message : String(error) };
  }
}
