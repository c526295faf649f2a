// Turns bytes into display tokens for the bytes view: plain text runs, and
// every character a person cannot see or that means something to framing as
// a token of its own (LF, CR, tab, U+2028, U+2029, U+0085, other control
// characters), bytes that are not valid UTF-8, and chunk boundaries, including
// one that falls inside a multi-byte character (the character is shown whole,
// the boundary right after it says where the bytes were split).
//
// UTF-8 is decoded by hand (TextDecoder would hide invalid bytes behind
// U+FFFD and cannot say where a character's bytes were split).

export type RawTokenKind =
  | "text"
  | "lf"
  | "cr"
  | "tab"
  /** U+2028 LINE SEPARATOR: legal inside JSON strings, not a record boundary. */
  | "ls"
  /** U+2029 PARAGRAPH SEPARATOR: likewise. */
  | "ps"
  /** U+0085 NEXT LINE: likewise. */
  | "nel"
  /** Other C0/C1 control characters, DEL and U+FEFF. */
  | "control"
  /** A byte that is not part of valid UTF-8. */
  | "invalid-utf8"
  /** The first bytes of a character whose remaining bytes have not arrived (yet). */
  | "incomplete"
  /** Where one chunk (one binary WebSocket frame) ended and the next began. */
  | "boundary";

export interface RawToken {
  kind: RawTokenKind;
  /** The characters as decoded ("" for invalid bytes and boundaries). */
  text: string;
  /** How to show it: the text itself for "text", a visible name otherwise ("\\n", "U+2028", "\\xC3", "chunk 12"). */
  label: string;
  /** Absolute offset in pi's output of the token's first byte (a boundary: of the first byte of the new chunk). */
  byteOffset: number;
  byteLength: number;
  /** Boundary: the arrival seq of the chunk that starts here. */
  chunkSeq?: number;
  /** Boundary: it falls inside the character just before it. */
  splitsCharacter?: boolean;
}

/** Random access to held bytes by absolute offset; undefined outside what is held. */
export interface ByteSource {
  byteAt(offset: number): number | undefined;
  /** Absolute offsets where chunks start, ascending, with their seqs, from the first ≥ `from`. */
  boundariesFrom(from: number): Iterator<{ offset: number; seq: number }>;
}

function hex(byte: number): string {
  return `\\x${byte.toString(16).toUpperCase().padStart(2, "0")}`;
}

function codePointName(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Token kind of one decoded code point. */
function classify(cp: number): RawTokenKind {
  if (cp === 0x0a) return "lf";
  if (cp === 0x0d) return "cr";
  if (cp === 0x09) return "tab";
  if (cp === 0x2028) return "ls";
  if (cp === 0x2029) return "ps";
  if (cp === 0x85) return "nel";
  if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp === 0xfeff) return "control";
  return "text";
}

const LABELS: Partial<Record<RawTokenKind, string>> = { lf: "\\n", cr: "\\r", tab: "\\t", ls: "U+2028", ps: "U+2029", nel: "U+0085" };

/** Length of the UTF-8 sequence a lead byte starts and the valid range of its second byte; null for a byte that cannot start one. */
function sequenceOf(lead: number): { length: number; min: number; max: number } | null {
  if (lead < 0x80) return { length: 1, min: 0, max: 0 };
  if (lead >= 0xc2 && lead <= 0xdf) return { length: 2, min: 0x80, max: 0xbf };
  if (lead === 0xe0) return { length: 3, min: 0xa0, max: 0xbf };
  if (lead === 0xed) return { length: 3, min: 0x80, max: 0x9f }; // no surrogates
  if (lead >= 0xe1 && lead <= 0xef) return { length: 3, min: 0x80, max: 0xbf };
  if (lead === 0xf0) return { length: 4, min: 0x90, max: 0xbf };
  if (lead >= 0xf1 && lead <= 0xf3) return { length: 4, min: 0x80, max: 0xbf };
  if (lead === 0xf4) return { length: 4, min: 0x80, max: 0x8f };
  return null;
}

type Decoded =
  | { kind: "char"; cp: number; length: number }
  | { kind: "invalid" }
  /** Valid so far, but the bytes run out: the rest has not arrived. */
  | { kind: "incomplete"; length: number };

function decodeAt(source: ByteSource, offset: number): Decoded {
  const lead = source.byteAt(offset)!;
  const seq = sequenceOf(lead);
  if (seq === null) return { kind: "invalid" };
  if (seq.length === 1) return { kind: "char", cp: lead, length: 1 };
  let cp = lead & (0xff >> (seq.length + 1));
  for (let i = 1; i < seq.length; i++) {
    const byte = source.byteAt(offset + i);
    if (byte === undefined) return { kind: "incomplete", length: i };
    const min = i === 1 ? seq.min : 0x80;
    const max = i === 1 ? seq.max : 0xbf;
    if (byte < min || byte > max) return { kind: "invalid" };
    cp = (cp << 6) | (byte & 0x3f);
  }
  return { kind: "char", cp, length: seq.length };
}

/** Where the character containing `offset` starts, if `offset` is inside a valid multi-byte character. */
export function characterStart(source: ByteSource, offset: number): number {
  const first = source.byteAt(offset);
  if (first === undefined || (first & 0xc0) !== 0x80) return offset;
  for (let back = 1; back <= 3; back++) {
    const start = offset - back;
    const lead = source.byteAt(start);
    if (lead === undefined) return offset;
    if ((lead & 0xc0) === 0x80) continue;
    const decoded = decodeAt(source, start);
    return decoded.kind !== "invalid" && start + decoded.length > offset ? start : offset;
  }
  return offset;
}

export interface TokenizeOptions {
  /** Stop after this many tokens (a huge line); `truncated` then says so. */
  maxTokens?: number;
}

/**
 * Tokens for the bytes [from, to). A character that starts before `to` is
 * completed even past it; `from` is moved back to the start of a character it
 * falls inside. Chunk boundaries at or after `from` and before `to` are
 * marked.
 */
export function tokenize(source: ByteSource, from: number, to: number, options: TokenizeOptions = {}): { tokens: RawToken[]; truncated: boolean } {
  const maxTokens = options.maxTokens ?? Infinity;
  const tokens: RawToken[] = [];
  let offset = characterStart(source, from);
  const boundaries = source.boundariesFrom(offset);
  let boundary = boundaries.next();
  let run: RawToken | null = null;
  const flush = (): void => {
    if (run !== null) tokens.push(run);
    run = null;
  };
  while (offset < to && source.byteAt(offset) !== undefined) {
    if (tokens.length >= maxTokens) return { tokens, truncated: true };
    // A boundary exactly here comes first.
    while (!boundary.done && boundary.value.offset <= offset) {
      if (boundary.value.offset === offset) {
        flush();
        tokens.push({ kind: "boundary", text: "", label: `chunk ${boundary.value.seq}`, byteOffset: offset, byteLength: 0, chunkSeq: boundary.value.seq, splitsCharacter: false });
      }
      boundary = boundaries.next();
    }
    const decoded = decodeAt(source, offset);
    if (decoded.kind !== "char") {
      flush();
      const length = decoded.kind === "incomplete" ? decoded.length : 1;
      let label = "";
      for (let i = 0; i < length; i++) label += hex(source.byteAt(offset + i)!);
      tokens.push({ kind: decoded.kind === "incomplete" ? "incomplete" : "invalid-utf8", text: "", label, byteOffset: offset, byteLength: length });
      offset += length;
      continue;
    }
    const text = String.fromCodePoint(decoded.cp);
    const kind = classify(decoded.cp);
    if (kind === "text") {
      if (run === null) run = { kind: "text", text: "", label: "", byteOffset: offset, byteLength: 0 };
      run.text += text;
      run.label += text;
      run.byteLength += decoded.length;
    } else {
      flush();
      tokens.push({ kind, text, label: LABELS[kind] ?? codePointName(decoded.cp), byteOffset: offset, byteLength: decoded.length });
    }
    // A boundary inside this character: after it, marked as splitting it.
    while (!boundary.done && boundary.value.offset < offset + decoded.length) {
      if (boundary.value.offset > offset) {
        flush();
        tokens.push({ kind: "boundary", text: "", label: `chunk ${boundary.value.seq}`, byteOffset: boundary.value.offset, byteLength: 0, chunkSeq: boundary.value.seq, splitsCharacter: true });
      }
      boundary = boundaries.next();
    }
    offset += decoded.length;
  }
  flush();
  return { tokens, truncated: false };
}
