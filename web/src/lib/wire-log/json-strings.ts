// Finds the string literals of one JSON text, as byte ranges, with where each
// sits (its JSON pointer, its key), without building the value: redaction
// replaces literals in place and leaves every other byte as pi wrote it, so a
// redacted line is still the same JSON apart from the replaced strings.
//
// Works on UTF-8 bytes: the bytes that matter to JSON's structure (quotes,
// backslash, brackets, colon, comma) are ASCII and never occur inside a
// multi-byte character.

export interface StringLiteral {
  /** Byte offset of the opening quote. */
  start: number;
  /** Byte offset just past the closing quote. */
  end: number;
  /** An object key, not a value. */
  isKey: boolean;
  /** For a value directly inside an object: its key. */
  key: string | null;
  /** For a value inside an array: the previous element, when that was a string (e.g. "--api-key" before its value). */
  previousString: string | null;
}

interface Frame {
  array: boolean;
  /** Object: the current key; array: the current index. */
  key: string | null;
  index: number;
  expectKey: boolean;
  previousString: string | null;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const utf8 = new TextDecoder("utf-8");

/** The string a literal holds (its bytes include the quotes). */
export function literalValue(bytes: Uint8Array, start: number, end: number): string | null {
  try {
    const value: unknown = JSON.parse(utf8.decode(bytes.subarray(start, end)));
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

export interface ScanHandle {
  /** JSON pointer of the literal being visited ("/message/content/0/text"); for a key, of the value it names. */
  pointer(): string;
}

/**
 * Calls `visit` for each string literal, in order. Returns false when the
 * text ended inside a string (not complete JSON); the unterminated literal is
 * not visited.
 */
export function scanStringLiterals(bytes: Uint8Array, visit: (literal: StringLiteral, handle: ScanHandle) => void): boolean {
  const stack: Frame[] = [];
  const handle: ScanHandle = {
    pointer(): string {
      let out = "";
      for (const frame of stack) out += `/${frame.array ? String(frame.index) : escapePointer(frame.key ?? "")}`;
      return out;
    },
  };
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      let j = i + 1;
      while (j < n) {
        const c = bytes[j]!;
        if (c === BACKSLASH) j += 2;
        else if (c === QUOTE) break;
        else j++;
      }
      if (j >= n) return false;
      const end = j + 1;
      const top = stack[stack.length - 1];
      const isKey = top !== undefined && !top.array && top.expectKey;
      if (isKey) {
        top.key = literalValue(bytes, i, end) ?? "";
        top.expectKey = false;
        visit({ start: i, end, isKey: true, key: null, previousString: null }, handle);
      } else {
        visit({ start: i, end, isKey: false, key: top !== undefined && !top.array ? top.key : null, previousString: top?.array ? top.previousString : null }, handle);
        if (top?.array) top.previousString = literalValue(bytes, i, end);
      }
      i = end;
      continue;
    }
    if (b === 0x7b || b === 0x5b) {
      // A nested container is an element too: it is not a string before the next one.
      const top = stack[stack.length - 1];
      if (top?.array) top.previousString = null;
    }
    switch (b) {
      case 0x7b: // {
        stack.push({ array: false, key: null, index: 0, expectKey: true, previousString: null });
        break;
      case 0x5b: // [
        stack.push({ array: true, key: null, index: 0, expectKey: false, previousString: null });
        break;
      case 0x7d: // }
      case 0x5d: // ]
        stack.pop();
        break;
      case 0x2c: {
        // ,
        const top = stack[stack.length - 1];
        if (top?.array) top.index++;
        else if (top !== undefined) top.expectKey = true;
        break;
      }
      default: {
        // A number, true/false/null or whitespace: not a string; in an array it replaces the previous string.
        const top = stack[stack.length - 1];
        if (top?.array && b > 0x20 && b !== 0x3a) top.previousString = null;
      }
    }
    i++;
  }
  return true;
}
