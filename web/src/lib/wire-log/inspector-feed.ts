// The inspector's models, fed from the connection's wire tap (or, for what
// arrived before the inspector was loaded, from the record log): the one
// place that turns chunks and record log entries into pairing, timeline,
// meaning, the effect index, the bytes view and the delta groups.
//
// Everything here is O(1) per entry (O(chunk size) per chunk) and bounded,
// because it runs while pi streams, inside the frame that applies the
// records:
// - pairing (commands ↔ responses, runs) spans reconnects: it knows that a
//   replay repeats what it saw;
// - the timeline, the bytes view and the line numbering start again at each
//   hello (a replay repeats pi's output from its first byte) and each new pi;
// - what a record did (meaning) is asked right after the reducer applied it
//   (it reads the state the record left); the effect index that links
//   transcript elements back to records is cleared when the transcript is
//   replaced, because its message indexes then name other messages.

import { entryValue, logEntry, type LogDirection, type LogEntry, type RecordLog } from "../pi-state/record-log.ts";
import type { SessionState } from "../pi-state/session-state.ts";
import { createDeltaGroups, forgetBefore, noteGroupEntry, type DeltaGroups } from "./delta-groups.ts";
import { clearEffects, createEffectIndex, noteEffect, type EffectIndex } from "./effect-index.ts";
import { checkEntry, createExpertChecks, type ExpertChecks } from "./expert-checks.ts";
import { deltaStep, describeDelta, describeEffect, type Effect, type EffectTarget } from "./meaning.ts";
import { applyPairing, createPairing, type PairingState } from "./pairing.ts";
import { appendChunk, createRawView, endStream, lineByNo, setLineSeq, type RawView } from "./raw-view.ts";
import { SeqRing } from "./seq-ring.ts";
import { applyTimeline, createTimeline, type TimelineModel } from "./timeline.ts";
import type { WireEntry, WireSender } from "./wire-entry.ts";

/** What one pi record did, as described when it was applied. */
export interface Meaning extends Effect {
  /** The transcript it was described against (see InspectorModels.transcript). */
  transcript: number;
}

/**
 * A text or thinking delta's meaning: what describing it needs, noted as it
 * is applied (its message from the state it left), and worded only when
 * read. A fast answer brings thousands of deltas a second, and few are ever
 * looked at: wording each as it came was most of the feed's cost per delta
 * (a sentence and three objects), with the inspector closed as well.
 */
class DeltaMeaning implements Meaning {
  readonly transcript: number;
  readonly #kind: "text_delta" | "thinking_delta";
  readonly #length: number;
  readonly #index: number | null;
  readonly #block: number | undefined;
  #effect: Effect | null = null;

  constructor(kind: "text_delta" | "thinking_delta", length: number, index: number | null, block: number | undefined, transcript: number) {
    this.#kind = kind;
    this.#length = length;
    this.#index = index;
    this.#block = block;
    this.transcript = transcript;
  }

  get text(): string {
    return this.#worded().text;
  }

  get target(): EffectTarget {
    return this.#worded().target;
  }

  #worded(): Effect {
    return (this.#effect ??= describeDelta(this.#kind, this.#length, this.#index, this.#block));
  }
}

export interface InspectorModels {
  readonly log: RecordLog;
  pairing: PairingState;
  timeline: TimelineModel;
  effects: EffectIndex;
  raw: RawView;
  groups: DeltaGroups;
  meanings: SeqRing<Meaning>;
  /** Expert warnings: records that break what the protocol promises (expert-checks.ts). */
  checks: ExpertChecks;
  /** Record types seen, with how many of each (for the type filter). */
  types: Map<string, number>;
  /** The raw line the next pi record came from; null until a chunk of this stream was seen (lines completed before it cannot be linked). */
  nextLine: number | null;
  /** Chunks of this stream so far (the bytes view numbers chunks from 1). */
  chunks: number;
  /** The bytes view was started by a hello or a new pi seen live: it holds pi's output from its first byte. */
  streamStartedHere: boolean;
  /** It was not: the inspector was loaded mid-stream, and line 1 of the bytes view may be the end of a line. */
  joinedMidStream: boolean;
  /**
   * Bumps whenever message indexes may name other messages (a reconnect, a
   * new pi, a transcript replaced by get_messages / a session load): a
   * meaning's target is good only while its `transcript` is current.
   */
  transcript: number;
  /** The reducer's message list last seen (its identity changes when the transcript is replaced). */
  messages: readonly unknown[] | null;
  /** Entries fed (a cheap "did anything change" for views). */
  fed: number;
  /** The entry handed to pairing and timeline, refilled for each record (they keep its fields, never the object). */
  scratch: WireEntry;
}

export interface InspectorModelOptions {
  /** Bytes the bytes view keeps (default 4 MiB). */
  rawBytes?: number;
}

const DEFAULT_RAW_BYTES = 4 * 1024 * 1024;
/** Now and then, forget the delta groups of entries the log dropped. */
const FORGET_EVERY = 256;

export function createInspectorModels(log: RecordLog, options: InspectorModelOptions = {}): InspectorModels {
  return {
    log,
    pairing: createPairing(),
    timeline: createTimeline(),
    effects: createEffectIndex(),
    raw: createRawView(options.rawBytes ?? DEFAULT_RAW_BYTES),
    groups: createDeltaGroups(),
    meanings: new SeqRing<Meaning>(log.capacity),
    checks: createExpertChecks(),
    types: new Map(),
    nextLine: null,
    chunks: 0,
    streamStartedHere: false,
    joinedMidStream: false,
    transcript: 1,
    messages: null,
    fed: 0,
    scratch: { seq: 0, at: 0, direction: "in", raw: "", value: undefined },
  };
}

/** One chunk of pi's stdout as received. */
export function feedChunk(models: InspectorModels, bytes: Uint8Array, at: number): void {
  const first = models.nextLine === null;
  const { firstLine } = appendChunk(models.raw, { seq: ++models.chunks, at, bytes });
  if (first) {
    models.nextLine = firstLine;
    models.joinedMidStream = !models.streamStartedHere;
  }
}

/** This page's commands share one lane and one name, whatever client id each connection had. */
export const SELF_SENDER: WireSender = Object.freeze({ clientId: "self", name: "this browser" });

/** The entry as the pure models read it, written into `into` (no allocation per record). */
export function wireEntryOf(entry: LogEntry, value: unknown, into: WireEntry = { seq: 0, at: 0, direction: "in", raw: "", value: undefined }): WireEntry {
  into.seq = entry.seq;
  into.at = entry.time;
  into.direction = entry.direction;
  into.raw = entry.raw ?? "";
  into.value = value;
  const sender = entry.sender;
  if (sender === undefined) delete into.sender;
  else into.sender = sender.self === true ? SELF_SENDER : sender.name === undefined ? { clientId: sender.clientId } : { clientId: sender.clientId, name: sender.name };
  return into;
}

/**
 * One record log entry, in order. `after` is the session state right after
 * the reducer applied an "in" entry; null when it is not known (entries fed
 * from the log after the fact: they get no meaning and no bytes).
 */
export function feedEntry(models: InspectorModels, entry: LogEntry, value: unknown, after: SessionState | null): void {
  models.fed++;
  models.types.set(entry.type, (models.types.get(entry.type) ?? 0) + 1);
  if (models.fed % FORGET_EVERY === 0) forgetBefore(models.groups, models.log.firstSeq);
  if (entry.direction === "relay") onRelayEntry(models, entry.type);
  noteGroupEntry(models.groups, entry.seq, entry.direction, entry.type);
  let crlf = false;
  if (entry.direction === "in") {
    if (models.nextLine !== null) {
      crlf = lineByNo(models.raw, models.nextLine)?.crlf === true;
      setLineSeq(models.raw, models.nextLine++, entry.seq);
    }
    if (after !== null) {
      noteTranscript(models, after);
      const delta = deltaStep(value);
      if (delta !== null) {
        const index = after.stream?.messageIndex ?? null;
        models.meanings.set(entry.seq, new DeltaMeaning(delta.kind, delta.length, index, delta.block, models.transcript));
        if (index !== null && index >= 0) noteEffect(models.effects, entry.seq, deltaTarget(index, delta.block));
      } else {
        const effect = describeEffect(value, after);
        models.meanings.set(entry.seq, { text: effect.text, target: effect.target, transcript: models.transcript });
        noteEffect(models.effects, entry.seq, effect.target);
      }
    }
  }
  const wire = wireEntryOf(entry, value, models.scratch);
  applyPairing(models.pairing, wire);
  applyTimeline(models.timeline, wire);
  checkEntry(models.checks, wire, crlf);
}

/** A delta's target for the effect index, which keeps none of it: one object, refilled. */
const blockTarget: { kind: "message"; index: number; block: number } = { kind: "message", index: 0, block: 0 };
const messageOnly: { kind: "message"; index: number } = { kind: "message", index: 0 };
function deltaTarget(index: number, block: number | undefined): EffectTarget {
  if (block === undefined) {
    messageOnly.index = index;
    return messageOnly;
  }
  blockTarget.index = index;
  blockTarget.block = block;
  return blockTarget;
}

function onRelayEntry(models: InspectorModels, type: string): void {
  if (type === "hello" || type === "child_started") {
    // pi's output starts again from its first byte (a replay, or a new pi).
    models.timeline = createTimeline();
    models.raw = createRawView(models.raw.maxBytes);
    models.nextLine = null;
    models.chunks = 0;
    models.joinedMidStream = false;
    models.streamStartedHere = true;
    startNewTranscript(models);
  } else if (type === "child_exited") {
    // A last line without LF is still a record (the decoder flushes it next).
    endStream(models.raw);
  }
}

function startNewTranscript(models: InspectorModels): void {
  clearEffects(models.effects);
  models.transcript++;
  models.messages = null;
}

/**
 * Notice a transcript replaced since the last look (the reducer assigns a new
 * message list then). When the new list holds the same messages at the same
 * places (a session load after a complete replay), the links stay good.
 */
export function noteTranscript(models: InspectorModels, state: SessionState): void {
  const messages = state.messages;
  if (messages === models.messages) return;
  const before = models.messages;
  models.messages = messages;
  if (before !== null && !sameMessages(before, messages)) startNewTranscript(models);
}

function sameMessages(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as { role?: unknown; timestamp?: unknown } | undefined;
    const y = b[i] as { role?: unknown; timestamp?: unknown } | undefined;
    if (x?.role !== y?.role || x?.timestamp !== y?.timestamp) return false;
  }
  return true;
}

/** Feed what the record log holds (before the tap was attached): pairing, timeline and groups; no meaning, no bytes. */
export function feedLog(models: InspectorModels): void {
  const log = models.log;
  for (let seq = log.firstSeq; seq < log.nextSeq; seq++) {
    const entry = logEntry(log, seq);
    if (entry !== undefined) feedEntry(models, entry, entryValue(entry), null);
  }
  // Those lines' bytes were never seen: the next chunk starts the bytes view mid-stream.
  models.streamStartedHere = false;
}

/** What a record did, while remembered (records fed from the log after the fact have none). */
export function meaningOf(models: InspectorModels, seq: number): Meaning | undefined {
  return models.meanings.get(seq);
}

/** The meaning's target still names the element it changed (the transcript was not replaced since). */
export function targetIsCurrent(models: InspectorModels, meaning: Meaning): boolean {
  return meaning.target !== null && meaning.transcript === models.transcript;
}

/** `direction` as a person reads it. */
export const DIRECTION_WORDS: Record<LogDirection, string> = { in: "from pi", out: "to pi", relay: "from the relay" };
