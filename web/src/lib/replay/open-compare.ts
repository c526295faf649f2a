// The two sides of "Compare captures": the capture the page replays (already
// read and checked by open-capture.ts) and a second file the person picks or
// drops, read through the same untrusted reader (capture-compare.ts). A file
// that cannot be compared gives one sentence naming it.

import { compareSides, sideFromEvents, sideFromText, type CaptureSide, type Comparison } from "../wire-log/capture-compare.ts";
import { MAX_CAPTURE_BYTES, type OpenedCapture } from "./open-capture.ts";

export type CompareResult = { ok: true; comparison: Comparison } | { ok: false; message: string };

/** The replayed capture as side A. */
export function sideOfOpened(capture: OpenedCapture): CaptureSide {
  return sideFromEvents(capture.name, capture.items, capture.header.truncated === true);
}

/** A picked or dropped file, compared with side A. */
export async function compareWithFile(a: CaptureSide, file: File): Promise<CompareResult> {
  if (file.size > MAX_CAPTURE_BYTES) return { ok: false, message: `${file.name} cannot be compared: it is larger than ${MAX_CAPTURE_BYTES / 1024 / 1024} MiB.` };
  if (file.size === 0) return { ok: false, message: `${file.name} cannot be compared: the file is empty.` };
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    return { ok: false, message: `${file.name} could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  const b = sideFromText(file.name, text);
  if (!b.ok) return b;
  return { ok: true, comparison: compareSides(a, b.side) };
}
