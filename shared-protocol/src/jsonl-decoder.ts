// Streaming decoder for pi's stdout: strict JSONL framing.
//
// Records are split on LF (0x0A) only and one trailing CR is stripped.
// Splitting happens on bytes, before UTF-8 decoding: 0x0A never occurs inside
// a multi-byte UTF-8 sequence, so a character split across chunks is simply
// kept in the pending bytes, and U+2028/U+2029/U+0085 (which generic line
// readers treat as line breaks) stay inside their JSON strings.

/** One framed line: a parsed JSON value, or text that is not JSON. */
export type DecodedLine =
  | { kind: "record"; value: unknown; raw: string }
  | { kind: "invalid"; raw: string; error: string };

const LF = 0x0a;

export class JsonlDecoder {
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  readonly #utf8 = new TextDecoder("utf-8");

  /** Feed one chunk (any boundary); returns the lines it completed. */
  push(chunk: Uint8Array): DecodedLine[] {
    const lines: DecodedLine[] = [];
    let start = 0;
    let lf = chunk.indexOf(LF, start);
    while (lf !== -1) {
      lines.push(this.#decodeLine(this.#takeLine(chunk.subarray(start, lf))));
      start = lf + 1;
      lf = chunk.indexOf(LF, start);
    }
    if (start < chunk.length) {
      // Copy: the caller may reuse its buffer after push returns.
      this.#pending.push(chunk.slice(start));
      this.#pendingBytes += chunk.length - start;
    }
    return lines;
  }

  /** End of stream: a final line without LF is still a line. */
  end(): DecodedLine[] {
    if (this.#pendingBytes === 0) return [];
    return [this.#decodeLine(this.#takeLine(new Uint8Array(0)))];
  }

  /** Bytes held for an unfinished line (for the inspector and for bounds). */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  #takeLine(tail: Uint8Array): Uint8Array {
    if (this.#pending.length === 0) return tail;
    const bytes = new Uint8Array(this.#pendingBytes + tail.length);
    let offset = 0;
    for (const part of this.#pending) {
      bytes.set(part, offset);
      offset += part.length;
    }
    bytes.set(tail, offset);
    this.#pending = [];
    this.#pendingBytes = 0;
    return bytes;
  }

  #decodeLine(bytes: Uint8Array): DecodedLine {
    let raw = this.#utf8.decode(bytes);
    if (raw.endsWith("\r")) raw = raw.slice(0, -1);
    try {
      return { kind: "record", value: JSON.parse(raw), raw };
    } catch (error) {
      return { kind: "invalid", raw, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
