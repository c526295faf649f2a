// Streaming decoder for pi's stdout: strict JSONL framing.
//
// Records are split on LF only and one trailing CR is stripped. U+2028/
// U+2029/U+0085 (which generic line readers treat as line breaks) stay
// inside their JSON strings.
//
// The bytes are cut at LF before they are decoded: 0x0A never occurs inside
// a multi-byte UTF-8 sequence, so everything up to a chunk's last LF is whole
// characters and decodes in one call, without the decoder's streaming mode
// (in Node that mode is several times slower than the one-shot path; in
// Chromium both are fast). The bytes after the last LF wait, as bytes, for
// the LF that ends their line. Decoding a chunk's lines at once and splitting
// the text is cheaper than a decode per line.

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
    const last = chunk.lastIndexOf(LF);
    if (last === -1) {
      this.#hold(chunk);
      return lines;
    }
    const first = chunk.indexOf(LF);
    lines.push(decodeLine(this.#text(this.#takePending(chunk.subarray(0, first)))));
    if (last > first) {
      // The whole lines between the first LF and the last: one decode, then split.
      const text = this.#utf8.decode(chunk.subarray(first + 1, last + 1));
      let start = 0;
      for (let lf = text.indexOf("\n"); lf !== -1; lf = text.indexOf("\n", start)) {
        lines.push(decodeLine(text.slice(start, lf)));
        start = lf + 1;
      }
    }
    this.#hold(chunk.subarray(last + 1));
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
