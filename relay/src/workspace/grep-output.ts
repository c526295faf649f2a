// The output of `git grep -z --line-number --column`, read as it arrives:
// "path\0line\0column\0text\n" per matching line. The path ends at a NUL
// (so a name holding a newline is read whole), the text at the newline; a
// chunk boundary may fall anywhere, inside a UTF-8 character included, so
// bytes are kept until a record is complete and only then decoded.

export type GrepLine = { path: string; line: number; column: number; text: string };

const NUL = 0;
const NEWLINE = 10;

export class GrepOutputParser {
  #pending: Buffer = Buffer.alloc(0);

  /** The records completed by `chunk`. */
  push(chunk: Buffer): GrepLine[] {
    const buffer = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const records: GrepLine[] = [];
    let start = 0;
    for (;;) {
      const pathEnd = buffer.indexOf(NUL, start);
      if (pathEnd === -1) break;
      const lineEnd = buffer.indexOf(NUL, pathEnd + 1);
      if (lineEnd === -1) break;
      const columnEnd = buffer.indexOf(NUL, lineEnd + 1);
      if (columnEnd === -1) break;
      const textEnd = buffer.indexOf(NEWLINE, columnEnd + 1);
      if (textEnd === -1) break;
      records.push({
        path: buffer.toString("utf8", start, pathEnd),
        line: Number(buffer.toString("latin1", pathEnd + 1, lineEnd)),
        column: Number(buffer.toString("latin1", lineEnd + 1, columnEnd)),
        text: buffer.toString("utf8", columnEnd + 1, textEnd),
      });
      start = textEnd + 1;
    }
    this.#pending = start === buffer.length ? Buffer.alloc(0) : Buffer.from(buffer.subarray(start));
    return records;
  }

  /** Bytes of an unfinished record (git was stopped in the middle of one). */
  get pendingBytes(): number {
    return this.#pending.length;
  }
}
