// Notes in a capture: a guided walk. An author pins each note to a position
// of the player and names the records it is about; a learner steps from
// note to note. The lines' format is in capture.ts (and docs/captures.md).
//
// Records are numbered as the page's record log numbers them while it
// replays (relay-connection.svelte.ts): one per relay frame, one per sent
// command, one per line of pi's bytes, where pi's stream starts again at a
// hello or a child_started frame (a partial line is dropped) and a
// child_exited frame ends it (a partial line counts). So a note's record
// number is the very seq the inspector selects.
//
// Everything here is untrusted input: capped counts and lengths, checked
// types, positions and records that must exist, errors with a line number.

import type { CaptureError, CaptureEvent, CaptureHeader, CaptureLayout } from "./capture.ts";

/** More notes than this is not a walk anyone takes. */
export const MAX_NOTES = 500;
/** Characters in one note's text. */
export const MAX_NOTE_CHARS = 4000;
/** Records one note may name. */
export const MAX_NOTE_RECORDS = 32;

export interface CaptureNote {
  /** The player's position: the page after the first `at` events (0 … events). */
  at: number;
  /** Record numbers (from 1, the inspector's seqs) the note is about, ascending; may be empty. */
  records: number[];
  /** Plain text or Markdown (shown sanitized, never as HTML). */
  text: string;
}

/** A note as read from its line, before its position and records are checked against the events. */
export interface NoteAt extends CaptureNote {
  line: number;
}

function badNote(line: number, message: string): CaptureError {
  return { code: "bad_note", line, message: `Line ${line}: ${message}` };
}

/** Why this text cannot be a note's, or null. */
export function noteTextProblem(text: string): string | null {
  if (text.trim() === "") return "a note needs some text.";
  if (text.length > MAX_NOTE_CHARS) return `a note's text is longer than ${MAX_NOTE_CHARS.toLocaleString("en")} characters.`;
  return null;
}

/** One note line's fields, checked on their own. */
export function parseNote(value: Record<string, unknown>, line: number): NoteAt | CaptureError {
  const at = value["at"];
  if (typeof at !== "number" || !Number.isInteger(at) || at < 0) return badNote(line, '"at" must be a whole number ≥ 0 (a position of the player).');
  const text = value["text"];
  if (typeof text !== "string") return badNote(line, 'a note needs "text", a string.');
  const textProblem = noteTextProblem(text);
  if (textProblem !== null) return badNote(line, textProblem);
  const raw = value["records"] ?? [];
  if (!Array.isArray(raw)) return badNote(line, '"records" must be a list of record numbers.');
  if (raw.length > MAX_NOTE_RECORDS) return badNote(line, `a note names at most ${MAX_NOTE_RECORDS} records (this one ${raw.length}).`);
  const records: number[] = [];
  for (const r of raw) {
    if (typeof r !== "number" || !Number.isInteger(r) || r < 1) return badNote(line, `record ${JSON.stringify(r)} is not a record number (whole, from 1).`);
    if (records.includes(r)) return badNote(line, `record ${r} is named twice.`);
    records.push(r);
  }
  records.sort((a, b) => a - b);
  return { at, records, text, line };
}

/**
 * How many records the page holds after each event: `ends[i]` after the
 * first i + 1 events (see the top of this file for what counts).
 */
export function recordEnds(events: readonly CaptureEvent[]): Uint32Array {
  const ends = new Uint32Array(events.length);
  const counter = new RecordCounter();
  for (let i = 0; i < events.length; i++) ends[i] = counter.add(events[i]!);
  return ends;
}

/** recordEnds one event at a time (for a capture read in slices). */
export class RecordCounter {
  count = 0;
  /** pi's stream has bytes of a line whose LF has not come yet. */
  #partial = false;

  /** The records the page holds once this event (the next one) is applied. */
  add(event: CaptureEvent): number {
    if (event.kind === "bytes") {
      const bytes = event.bytes;
      let lf = bytes.indexOf(0x0a);
      if (lf === -1) this.#partial ||= bytes.length > 0;
      else {
        let lines = 0;
        let last = lf;
        for (; lf !== -1; lf = bytes.indexOf(0x0a, lf + 1)) {
          lines++;
          last = lf;
        }
        this.count += lines;
        this.#partial = last < bytes.length - 1;
      }
    } else if (event.kind === "frame") {
      this.count++;
      const type = frameType(event.text);
      if (type === "hello" || type === "child_started") this.#partial = false;
      else if (type === "child_exited" && this.#partial) {
        this.count++;
        this.#partial = false;
      }
    } else {
      this.count++;
    }
    return this.count;
  }
}

/** A relay frame's type, cheaply: only the frames that restart pi's stream matter, and they are small. */
function frameType(text: string): string | undefined {
  if (!text.includes('"hello"') && !text.includes('"child_started"') && !text.includes('"child_exited"')) return undefined;
  try {
    const value = JSON.parse(text) as { type?: unknown };
    return typeof value === "object" && value !== null && typeof value.type === "string" ? value.type : undefined;
  } catch {
    return undefined;
  }
}

/** The records the page holds at position `at` (0 before any event). */
export function recordsAt(ends: ArrayLike<number>, at: number): number {
  return at <= 0 ? 0 : (ends[Math.min(at, ends.length) - 1] ?? 0);
}

/** Why this note cannot be at its position in this capture, or null. */
export function notePlaceProblem(note: CaptureNote, eventCount: number, ends: ArrayLike<number>): string | null {
  if (note.at > eventCount) return `position ${note.at} does not exist: the capture has ${eventCount.toLocaleString("en")} events.`;
  const shown = recordsAt(ends, note.at);
  const missing = note.records.find((r) => r > shown);
  if (missing !== undefined) return `record ${missing} is not shown at position ${note.at} (the page holds ${shown.toLocaleString("en")} ${shown === 1 ? "record" : "records"} there).`;
  return null;
}

/** The notes checked against the capture's events, in walking order (by position; file order at one position). */
export function checkNotes(notes: readonly NoteAt[], events: readonly CaptureEvent[]): CaptureNote[] | CaptureError {
  if (notes.length > MAX_NOTES) return badNote(notes[MAX_NOTES]!.line, `more than ${MAX_NOTES} notes.`);
  if (notes.length === 0) return [];
  const ends = recordEnds(events);
  for (const note of notes) {
    const problem = notePlaceProblem(note, events.length, ends);
    if (problem !== null) return badNote(note.line, problem);
  }
  return sortNotes(notes.map(({ at, records, text }) => ({ at, records, text })));
}

/** By position; notes at one position keep their order (Array.prototype.sort is stable). */
export function sortNotes<T extends CaptureNote>(notes: readonly T[]): T[] {
  return [...notes].sort((a, b) => a.at - b.at);
}

/** A note's line (without its newline). */
export function noteLine(note: CaptureNote): string {
  return JSON.stringify(note.records.length === 0 ? { k: "note", at: note.at, text: note.text } : { k: "note", at: note.at, records: note.records, text: note.text });
}

/**
 * The capture `text` (as read, with its `layout`) with these notes in place
 * of the ones it had: the header says version 2 (1 without notes, for older
 * readers), and every event line is the same characters as before.
 */
export function captureWithNotes(text: string, layout: CaptureLayout, notes: readonly CaptureNote[]): string {
  const header = JSON.parse(text.slice(0, layout.headerEnd).replace(/\r?\n$/, "")) as CaptureHeader;
  header.version = notes.length > 0 ? 2 : 1;
  let events = text.slice(layout.headerEnd, layout.eventsEnd);
  if (events !== "" && !events.endsWith("\n")) events += "\n";
  return `${JSON.stringify(header)}\n${events}${sortNotes(notes)
    .map((note) => `${noteLine(note)}\n`)
    .join("")}`;
}
