// Opening a capture someone hands the page (a dropped file, or the one
// `pier replay` serves): a size check before reading anything, then the
// untrusted reader (wire-log/capture.ts). The result is the events ready to
// feed a connection, or one sentence saying why the file was refused.

import { readCapture, type CaptureEvent, type CaptureHeader, type CaptureLayout } from "../wire-log/capture.ts";
import { recordEnds, type CaptureNote } from "../wire-log/capture-notes.ts";
import type { ReplayItem } from "../relay/replay-feed.ts";

/** Larger files are refused before they are read (the reader's own limit, in bytes of UTF-8 at most). */
export const MAX_CAPTURE_BYTES = 256 * 1024 * 1024;

export interface OpenedCapture {
  name: string;
  header: CaptureHeader;
  /** Recorded times (ms since the header's startedAt), one per item. */
  times: Float64Array;
  items: ReplayItem[];
  /** The guided walk's notes (capture-notes.ts), in walking order; empty when it has none. */
  notes: CaptureNote[];
  /** Records the page holds after each event (recordEnds): which records exist at a position. */
  recordEnds: Uint32Array;
  /** The file as read: saved again with other notes, its other lines stay byte for byte. */
  source: { text: string; layout: CaptureLayout };
}

export type OpenResult = { ok: true; capture: OpenedCapture } | { ok: false; message: string };

/** A capture's events as the connection takes them (absolute times). */
export function replayItems(header: CaptureHeader, events: readonly CaptureEvent[]): { times: Float64Array; items: ReplayItem[] } {
  const startedAt = Date.parse(header.startedAt);
  const times = new Float64Array(events.length);
  const items: ReplayItem[] = new Array<ReplayItem>(events.length);
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    times[i] = event.t;
    const at = startedAt + event.t;
    items[i] =
      event.kind === "bytes"
        ? { kind: "bytes", bytes: event.bytes, at }
        : event.kind === "frame"
          ? { kind: "text", text: event.text, at }
          : event.by === undefined
            ? { kind: "sent", text: event.text, at }
            : { kind: "sent", text: event.text, at, by: event.by };
  }
  return { times, items };
}

/** Read a capture's text. */
export function openCaptureText(name: string, text: string): OpenResult {
  const result = readCapture(text);
  if (!result.ok) return { ok: false, message: `${name} cannot be replayed: ${result.error.message}` };
  if (result.events.length === 0) return { ok: false, message: `${name} cannot be replayed: it holds no recorded events.` };
  const { times, items } = replayItems(result.header, result.events);
  const capture: OpenedCapture = { name, header: result.header, times, items, notes: result.notes, recordEnds: recordEnds(result.events), source: { text, layout: result.layout } };
  return { ok: true, capture };
}

/** Read a file the person gave (dropped, picked). */
export async function openCaptureFile(file: File): Promise<OpenResult> {
  if (file.size > MAX_CAPTURE_BYTES) return { ok: false, message: `${file.name} cannot be replayed: it is larger than ${MAX_CAPTURE_BYTES / 1024 / 1024} MiB.` };
  if (file.size === 0) return { ok: false, message: `${file.name} cannot be replayed: the file is empty.` };
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    return { ok: false, message: `${file.name} could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  return openCaptureText(file.name, text);
}
