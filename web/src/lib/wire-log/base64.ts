// Standard base64 (RFC 4648, with padding) for capture files. Our own rather
// than btoa/atob: those work on "binary strings" (one char per byte), need a
// copy per chunk in both directions, and atob accepts junk (whitespace,
// missing padding) that a strict reader of untrusted files should refuse.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  // Build in pieces: string concatenation of short parts is fast in every engine.
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}${ALPHABET[(n >> 6) & 63]!}=`;
  }
  return out;
}

/** Decodes strict base64; null for anything else (bad characters, bad length, bad padding, non-zero pad bits). */
export function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  let padding = 0;
  if (text.endsWith("==")) padding = 2;
  else if (text.endsWith("=")) padding = 1;
  const length = (text.length / 4) * 3 - padding;
  const out = new Uint8Array(length);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const last = i + 4 === text.length;
    const c0 = sextet(text, i);
    const c1 = sextet(text, i + 1);
    const c2 = last && padding === 2 ? 0 : sextet(text, i + 2);
    const c3 = last && padding >= 1 ? 0 : sextet(text, i + 3);
    if (c0 < 0 || c1 < 0 || c2 < 0 || c3 < 0) return null;
    const n = (c0 << 18) | (c1 << 12) | (c2 << 6) | c3;
    out[o++] = n >> 16;
    if (o < length) out[o++] = (n >> 8) & 255;
    else if (padding === 2 && (n & 0xffff) !== 0) return null;
    if (o < length) out[o++] = n & 255;
    else if (padding === 1 && last && (n & 0xff) !== 0) return null;
  }
  return out;
}

function sextet(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code < 128 ? DECODE[code]! : -1;
}
