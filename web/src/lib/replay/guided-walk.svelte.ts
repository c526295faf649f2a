// A guided walk through a capture: its notes (wire-log/capture-notes.ts),
// which one is shown, and the author's changes. Visiting a note moves the
// player to the note's position; the view then selects the note's records
// in the inspector once the page shows that position (`visit` says when).
//
// One walk per player (walkOf), so the replay bar can come and go without
// losing what an author wrote.

import { captureWithNotes, notePlaceProblem, noteTextProblem, sortNotes, MAX_NOTE_RECORDS, MAX_NOTES, type CaptureNote } from "../wire-log/capture-notes.ts";
import type { ReplayPlayer } from "./replay-player.svelte.ts";
import { downloadBlob } from "../download-blob.ts";

export type NoteDraft = { text: string; records: number[] };

export class GuidedWalk {
  readonly player: ReplayPlayer;
  /** In walking order (by position). */
  notes = $state.raw<readonly CaptureNote[]>([]);
  /** The note shown, or -1 before the first. */
  index = $state(-1);
  /** Notes were added, changed or removed since the capture was opened (or last saved). */
  edited = $state(false);
  /** Bumped on every visit to a note: its records are selected once the page caught up. */
  visit = $state(0);

  constructor(player: ReplayPlayer) {
    this.player = player;
    this.notes = player.capture.notes;
  }

  get current(): CaptureNote | null {
    return this.notes[this.index] ?? null;
  }

  /** Show note `index` (clamped): the player pauses and jumps to its position. */
  go(index: number): void {
    if (this.notes.length === 0) return;
    this.index = Math.max(0, Math.min(this.notes.length - 1, index));
    this.player.pause();
    this.player.seek(this.notes[this.index]!.at);
    this.visit++;
  }

  next(): void {
    if (this.index < this.notes.length - 1) this.go(this.index + 1);
  }

  previous(): void {
    if (this.index > 0) this.go(this.index - 1);
  }

  /** Why a note with these fields cannot be at `at`, or null. */
  problem(draft: NoteDraft, at: number): string | null {
    const text = noteTextProblem(draft.text);
    if (text !== null) return capitalise(text);
    if (draft.records.length > MAX_NOTE_RECORDS) return `A note names at most ${MAX_NOTE_RECORDS} records.`;
    const place = notePlaceProblem({ at, records: draft.records, text: draft.text }, this.player.count, this.player.capture.recordEnds);
    return place === null ? null : capitalise(place);
  }

  /** A note at the player's position; returns why not, or null (it is then the note shown). */
  add(draft: NoteDraft): string | null {
    if (this.notes.length >= MAX_NOTES) return `A capture holds at most ${MAX_NOTES} notes.`;
    const at = this.player.position;
    const problem = this.problem(draft, at);
    if (problem !== null) return problem;
    const note: CaptureNote = { at, records: uniqueSorted(draft.records), text: draft.text };
    // After any note already at this position.
    this.#replace([...this.notes, note], note);
    return null;
  }

  /** Change note `index`'s text and records (its position stays); returns why not, or null. */
  update(index: number, draft: NoteDraft): string | null {
    const old = this.notes[index];
    if (old === undefined) return null;
    const problem = this.problem(draft, old.at);
    if (problem !== null) return problem;
    const note: CaptureNote = { at: old.at, records: uniqueSorted(draft.records), text: draft.text };
    this.#replace(
      this.notes.map((n, i) => (i === index ? note : n)),
      note,
    );
    return null;
  }

  /** Pin note `index` to the player's position instead (the walk's order follows); returns why not, or null. */
  moveHere(index: number): string | null {
    const old = this.notes[index];
    if (old === undefined) return null;
    const at = this.player.position;
    const problem = this.problem(old, at);
    if (problem !== null) return problem;
    const note: CaptureNote = { ...old, at };
    this.#replace([...this.notes.filter((_, i) => i !== index), note], note);
    return null;
  }

  remove(index: number): void {
    if (this.notes[index] === undefined) return;
    const shown = this.current;
    this.notes = this.notes.filter((_, i) => i !== index);
    this.index = shown === null ? -1 : this.notes.indexOf(shown);
    if (this.index === -1 && this.notes.length > 0 && index <= this.notes.length) this.index = Math.min(index, this.notes.length - 1);
    this.edited = true;
  }

  /** The capture as it was read, with these notes (every other line byte for byte). */
  text(): string {
    const { text, layout } = this.player.capture.source;
    // Still being read (a version 1 file: events to its end), the layout knows only the events read so far.
    const reading = this.player.capture.progress?.done === false;
    return captureWithNotes(text, reading ? { headerEnd: layout.headerEnd, eventsEnd: text.length } : layout, this.notes);
  }

  /** Download the capture with its notes, under its own name. */
  save(): void {
    downloadBlob(new Blob([this.text()], { type: "application/x-ndjson" }), this.player.capture.name);
    this.edited = false;
  }

  #replace(notes: CaptureNote[], shown: CaptureNote): void {
    this.notes = sortNotes(notes);
    this.index = this.notes.indexOf(shown);
    this.edited = true;
  }
}

function uniqueSorted(records: readonly number[]): number[] {
  return [...new Set(records)].sort((a, b) => a - b);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "12, 15" → [12, 15]; a word that is not a record number → its message. */
export function parseRecordList(text: string): number[] | string {
  const words = text.split(/[\s,]+/).filter((w) => w !== "");
  const records: number[] = [];
  for (const word of words) {
    const n = Number(word.replace(/^#/, ""));
    if (!Number.isInteger(n) || n < 1) return `“${word}” is not a record number.`;
    records.push(n);
  }
  return records;
}

const walks = new WeakMap<ReplayPlayer, GuidedWalk>();

/** The walk of this player's capture (made on first ask). */
export function walkOf(player: ReplayPlayer): GuidedWalk {
  let walk = walks.get(player);
  if (walk === undefined) {
    walk = new GuidedWalk(player);
    walks.set(player, walk);
  }
  return walk;
}
