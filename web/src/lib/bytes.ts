// Byte arrays put together, for the stream's framing (relay/long-lines.ts),
// its long lines (relay/long-line-parser.ts) and captures (wire-log/capture.ts).

/** The parts as one array (the part itself when there is one: callers only read it). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let size = 0;
  for (const part of parts) size += part.length;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
