// A shell's output frame cut into pieces for xterm's `write`. xterm parses
// what it was given in tasks of about 12 ms, but it looks at the clock only
// between two writes, so one piece must cost well under that:
// - at most OUTPUT_SLICE_BYTES: a 64 KiB frame (one PTY read) parsed whole
//   made the task run past the budget on a slow or busy machine;
// - at most OUTPUT_SLICE_LINES line breaks: until its scrollback is full,
//   xterm 6 updates its scrollbar for every line that scrolls, synchronously
//   (a new scroll height, a timer cleared and set again: ~40 µs a line on a
//   loaded 2-core machine, profiled). 8 KiB of `yes` is 4,096 lines, and a
//   fresh terminal (a new shell, or a reattach replaying 1 MB of scrollback
//   into a reset one) spent 120-170 ms of CPU in single tasks on them. Once
//   the scrollback is full the height no longer changes and a line is cheap.
// Views into the frame (no copy); a UTF-8 character or an escape sequence
// cut in two is fine, xterm's parser keeps its state between writes.

export const OUTPUT_SLICE_BYTES = 8 * 1024;
export const OUTPUT_SLICE_LINES = 256;

export type SliceLimits = { bytes?: number; lines?: number };

const LF = 0x0a;
/** VT and FF, which a terminal moves down a line for, as for LF. */
const VT = 0x0b;
const FF = 0x0c;

export function outputSlices(bytes: Uint8Array, { bytes: size = OUTPUT_SLICE_BYTES, lines = OUTPUT_SLICE_LINES }: SliceLimits = {}): Uint8Array[] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`outputSlices: the size must be a whole number of bytes, at least 1 (got ${size})`);
  if (!Number.isInteger(lines) || lines < 1) throw new RangeError(`outputSlices: the line limit must be a whole number of lines, at least 1 (got ${lines})`);
  const slices: Uint8Array[] = [];
  let start = 0;
  let breaks = 0;
  // A frame within both limits is written as it is.
  const cut = (end: number) => {
    slices.push(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
    start = end;
    breaks = 0;
  };
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at]!;
    if ((byte >= LF && byte <= FF && ++breaks === lines) || at + 1 - start === size) cut(at + 1);
  }
  // An empty frame too (xterm takes it; the page acks by slices).
  if (start < bytes.length || slices.length === 0) cut(bytes.length);
  return slices;
}
