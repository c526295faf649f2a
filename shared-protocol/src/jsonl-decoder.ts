// Streaming decoder for pi's stdout: strict JSONL framing.
//
// Records are split on LF only and one trailing CR is stripped. A streaming
// UTF-8 decoder keeps a character split across chunks until its last bytes
// arrive (0x0A never occurs inside a multi-byte sequence, so splitting the
// decoded text on "\n" is splitting the bytes on LF), and U+2028/U+2029/
// U+0085 (which generic line readers treat as line breaks) stay inside their
// JSON strings.

/** One framed line: a parsed JSON value, or text that is not JSON. */
export type DecodedLine =
  | { kind: "record"; value: unknown; raw: string }
  | { kind: "invalid"; raw: string; error: string };

export class JsonlDecoder {
  /** The text of the line not finished yet (whole characters only). */
  #pending = "";
  /**
   * One streaming decoder for the whole stream: a character split across
   * chunks waits inside it for its last bytes. Decoding a chunk at once and
   * splitting the text is several times cheaper than a decode per line.
   */
  readonly #utf8 = new TextDecoder("utf-8");

  /** Feed one chunk (any boundary); returns the lines it completed. */
  push(chunk: Uint8Array): DecodedLine[] {
    const text = this.#utf8.decode(chunk, { stream: true });
    const lines: DecodedLine[] = [];
    let lf = text.indexOf("\n");
    if (lf === -1) {
      this.#pending += text;
      return lines;
    }
    lines.push(decodeLine(this.#pending + text.slice(0, lf)));
    let start = lf + 1;
    while ((lf = text.indexOf("\n", start)) !== -1) {
      lines.push(decodeLine(text.slice(start, lf)));
      start = lf + 1;
    }
    this.#pending = text.slice(start);
    return lines;
  }

  /** End of stream: a final line without LF is still a line. */
  end(): DecodedLine[] {
    const text = this.#pending + this.#utf8.decode();
    this.#pending = "";
    return text.length === 0 ? [] : [decodeLine(text)];
  }

  /** UTF-8 bytes held for an unfinished line (for the inspector and for bounds). */
  get pendingBytes(): number {
    return utf8Length(this.#pending);
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

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4; // a surrogate pair
      i++;
    } else bytes += 3;
  }
  return bytes;
}
