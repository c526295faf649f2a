// A QR code as one SVG path (a unit square per dark module), so the page
// draws it with a plain <path d> and never parses library markup. uqr does
// the encoding; nothing leaves the machine.
import { encode } from "uqr";

export type QrPath = { size: number; d: string };

/** `border` light modules around the code (the spec's quiet zone is 4; phones read 2 fine on a screen). */
export function qrPath(text: string, border = 2): QrPath {
  const { data, size } = encode(text, { ecc: "M", border });
  let d = "";
  for (let y = 0; y < size; y++) {
    const row = data[y]!;
    let x = 0;
    while (x < size) {
      if (!row[x]) {
        x++;
        continue;
      }
      // A run of dark modules on one row is one rectangle.
      const start = x;
      while (x < size && row[x]) x++;
      d += `M${start} ${y}h${x - start}v1h${start - x}z`;
    }
  }
  return { size, d };
}
