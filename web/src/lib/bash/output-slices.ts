// A shell's output frame cut into pieces for xterm's `write`. xterm parses
// what it was given in tasks of about 12 ms, but it looks at the clock only
// between two writes: a 64 KiB frame (one PTY read) is parsed whole, and on
// a slow or busy machine that one piece made the task run past the budget.
// Views into the frame (no copy); a UTF-8 character or an escape sequence
// cut in two is fine, xterm's parser keeps its state between writes.

export const OUTPUT_SLICE_BYTES = 8 * 1024;

export function outputSlices(bytes: Uint8Array, size = OUTPUT_SLICE_BYTES): Uint8Array[] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`outputSlices: the size must be a whole number of bytes, at least 1 (got ${size})`);
  if (bytes.length <= size) return [bytes];
  const slices: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) slices.push(bytes.subarray(at, at + size));
  return slices;
}
