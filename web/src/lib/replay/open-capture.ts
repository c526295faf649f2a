// Opening a capture someone hands the page (a dropped file, or the one
// `pier replay` serves): a size check before reading anything, then the
// untrusted reader (wire-log/capture.ts). The result is the events ready to
// feed a connection, or one sentence saying why the file was refused.
//
// A large capture opens before it is read through (openCaptureProgressively):
// the first slice of lines is read and checked, the player starts on it, and
// the rest is read in short slices between the page's frames (capture-
// progress.ts). Every line is still checked in full before its event is
// handed out; a bad line past the first slice stops the reading there with
// the same sentence naming its line, and the player keeps only the events
// before it (each of them checked), so nothing wrong is ever shown.

import { CaptureTextReader, readCapture, type CaptureEvent, type CaptureHeader, type CaptureLayout } from "../wire-log/capture.ts";
import { recordEnds, type CaptureNote } from "../wire-log/capture-notes.ts";
import { CaptureProgress, type ProgressOptions } from "./capture-progress.ts";
import type { ReplayItem } from "../relay/replay-feed.ts";

/** Larger files are refused before they are read (the reader's own limit, in bytes of UTF-8 at most). */
export const MAX_CAPTURE_BYTES = 256 * 1024 * 1024;

export interface OpenedCapture {
  name: string;
  header: CaptureHeader;
  /** Recorded times (ms since the header's startedAt), one per item (while reading: room for every item, filled as read). */
  times: Float64Array;
  /** While reading: as long as the events the file can hold, filled as they are read (so a feed to its end is the capture's end). */
  items: ReplayItem[];
  /** The guided walk's notes (capture-notes.ts), in walking order; empty when it has none. */
  notes: CaptureNote[];
  /** Records the page holds after each event (recordEnds): which records exist at a position. */
  recordEnds: Uint32Array;
  /** How the reading goes when the capture opened before it was read through (openCaptureProgressively); null when it was read whole first. */
  progress: CaptureProgress | null;
  /** The file as read: saved again with other notes, its other lines stay byte for byte. */
  source: { text: string; layout: CaptureLayout };
}

export type OpenResult = { ok: true; capture: OpenedCapture } | { ok: false; message: string };

/** One event as the connection takes it; `startedAt` is the header's, in ms since the epoch. */
export function replayItem(startedAt: number, event: CaptureEvent): ReplayItem {
  const at = startedAt + event.t;
  return event.kind === "bytes"
    ? { kind: "bytes", bytes: event.bytes, at }
    : event.kind === "frame"
      ? { kind: "text", text: event.text, at }
      : event.by === undefined
        ? { kind: "sent", text: event.text, at }
        : { kind: "sent", text: event.text, at, by: event.by };
}

/** A capture's events as the connection takes them (absolute times). */
export function replayItems(header: CaptureHeader, events: readonly CaptureEvent[]): { times: Float64Array; items: ReplayItem[] } {
  const startedAt = Date.parse(header.startedAt);
  const times = new Float64Array(events.length);
  const items: ReplayItem[] = new Array<ReplayItem>(events.length);
  for (let i = 0; i < events.length; i++) {
    times[i] = events[i]!.t;
    items[i] = replayItem(startedAt, events[i]!);
  }
  return { times, items };
}

/** The sentence for a file the reader refused. */
export function refusal(name: string, message: string): string {
  return `${name} cannot be replayed: ${message}`;
}

/** Read a capture's text. */
export function openCaptureText(name: string, text: string): OpenResult {
  const result = readCapture(text);
  if (!result.ok) return { ok: false, message: refusal(name, result.error.message) };
  if (result.events.length === 0) return { ok: false, message: refusal(name, "it holds no recorded events.") };
  const { times, items } = replayItems(result.header, result.events);
  const capture: OpenedCapture = { name, header: result.header, times, items, notes: result.notes, recordEnds: recordEnds(result.events), progress: null, source: { text, layout: result.layout } };
  return { ok: true, capture };
}

/** Read a file the person gave (dropped, picked): a large one opens before it is read through. */
export async function openCaptureFile(file: File): Promise<OpenResult> {
  if (file.size > MAX_CAPTURE_BYTES) return { ok: false, message: `${file.name} cannot be replayed: it is larger than ${MAX_CAPTURE_BYTES / 1024 / 1024} MiB.` };
  if (file.size === 0) return { ok: false, message: `${file.name} cannot be replayed: the file is empty.` };
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    return { ok: false, message: `${file.name} could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  return openCaptureProgressively(file.name, text);
}

/** Files smaller than this are read whole before they open: it takes a moment, and the player then knows everything. */
export const PROGRESSIVE_FROM_CHARS = 2 * 1024 * 1024;

/**
 * Read a capture's text, opening it once its first slice is read when it is
 * large (see the top of this file). A capture with notes (version 2) is read
 * whole: its notes are checked against every event before a walk starts.
 */
export function openCaptureProgressively(name: string, text: string, options: ProgressOptions = {}): OpenResult {
  if (text.length < (options.fromChars ?? PROGRESSIVE_FROM_CHARS)) return openCaptureText(name, text);
  const reader = new CaptureTextReader(text);
  const firstUntil = performance.now() + (options.firstSliceMs ?? 30);
  reader.readSome(() => performance.now() > firstUntil);
  if (reader.finished || reader.header?.version !== 1) return openCaptureText(name, text);
  const header = reader.header;
  const startedAt = Date.parse(header.startedAt);
  const progress = new CaptureProgress(reader, expectedEvents(text, reader.layout.headerEnd));
  const size = Math.max(progress.expected, reader.events.length);
  const capture: OpenedCapture = {
    name,
    header,
    times: new Float64Array(size),
    items: new Array<ReplayItem>(size),
    notes: [],
    recordEnds: new Uint32Array(size),
    progress,
    source: { text, layout: reader.layout },
  };
  progress.start(
    capture,
    (event) => replayItem(startedAt, event),
    options,
    (message) => refusal(name, message),
  );
  return { ok: true, capture };
}

/** Events a version 1 file can hold: its lines after the header (a blank line counts too, so at most one too many each). */
function expectedEvents(text: string, headerEnd: number): number {
  let lines = 0;
  for (let lf = text.indexOf("\n", headerEnd); lf !== -1; lf = text.indexOf("\n", lf + 1)) lines++;
  if (!text.endsWith("\n") && headerEnd < text.length) lines++;
  return lines;
}
