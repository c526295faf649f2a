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

/** One framed line: a parsed JSON value, or text that is not JSON. */
export type DecodedLine =
  | { kind: "record"; value: unknown; raw: string }
  | { kind: "invalid"; raw: string; error: string };

const LF = 0x0a;

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
      lines.push(decodeLine(start === 0 ? this.#text(this.#takePending(line)) : this.#utf8.decode(line)));
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

  /** The first line's text (a BOM that opens the stream is not part of it). */
  #text(bytes: Uint8Array): string {
    const text = this.#utf8.decode(bytes);
    if (!this.#atStart) return text;
    this.#atStart = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}

function decodeLine(line: string): DecodedLine {
  const raw = line.endsWith("\r") ? line.slice(0, -1) : line;
  try {
    return { kind: "record", value: JSON.parse(raw), raw };
  } catch (error) {
    return { kind: "invalid", raw, error: error instanceof Error ? error.message : String(error) };
  }
}
