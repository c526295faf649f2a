// The reverse of meaning.ts's targets: from a transcript element (a message,
// one block of it, a tool execution, a marker) to the records that changed
// it, so selecting something in the transcript can highlight its records.
//
// Feed it each record's seq with the target describeEffect gave it: O(1) per
// record. It keeps, per target, the first and last seq and a count (records
// between them that belong to other targets are the UI's to skip, e.g. by
// asking describeEffect again, or by keeping its own list for a short span).
// Bounded: beyond `max` targets the least recently touched are forgotten.
//
// Message indexes are positions in the reducer's `messages`: when the reducer
// replaces the transcript (a get_messages resync, a compaction, another
// session), they no longer name the same messages, so clear the index then
// (clearEffects) rather than show links to the wrong place.

import type { EffectTarget } from "./meaning.ts";

export interface TargetRecords {
  key: string;
  firstSeq: number;
  lastSeq: number;
  count: number;
}

export interface EffectIndex {
  readonly max: number;
  /** Least recently touched first (Map order; a touch moves a key to the end). */
  spans: Map<string, TargetRecords>;
  /**
   * The message block touched last and the spans it touched (block, then
   * message): a stream of deltas to one block touches the same two keys
   * again and again, which are already the most recent, so they are updated
   * in place (no key built, no Map reordered).
   */
  last: { index: number; block: number; spans: [TargetRecords, TargetRecords] } | null;
}

export const DEFAULT_MAX_TARGETS = 10_000;

export function createEffectIndex(max = DEFAULT_MAX_TARGETS): EffectIndex {
  return { max: Math.max(1, max), spans: new Map(), last: null };
}

/** A stable key for a target ("message:7", "message:7:2" for block 2, "tool:<id>", "marker:3"). */
export function targetKey(target: NonNullable<EffectTarget>): string {
  switch (target.kind) {
    case "message":
      return target.block === undefined ? `message:${target.index}` : `message:${target.index}:${target.block}`;
    case "tool":
      return `tool:${target.toolCallId}`;
    case "marker":
      return `marker:${target.seq}`;
  }
}

function touch(index: EffectIndex, key: string, seq: number): TargetRecords {
  const span = index.spans.get(key);
  if (span === undefined) {
    const fresh = { key, firstSeq: seq, lastSeq: seq, count: 1 };
    index.spans.set(key, fresh);
    if (index.spans.size > index.max) index.spans.delete(index.spans.keys().next().value!);
    return fresh;
  }
  span.lastSeq = seq;
  span.count++;
  // Move to the end: most recently touched.
  index.spans.delete(key);
  index.spans.set(key, span);
  return span;
}

/** Note that record `seq` changed `target`. A block counts for its message too. */
export function noteEffect(index: EffectIndex, seq: number, target: EffectTarget): void {
  if (target === null) return;
  const last = index.last;
  if (target.kind === "message" && target.block !== undefined && last !== null && last.index === target.index && last.block === target.block) {
    for (const span of last.spans) {
      span.lastSeq = seq;
      span.count++;
    }
    return;
  }
  index.last = null;
  const span = touch(index, targetKey(target), seq);
  if (target.kind === "message" && target.block !== undefined) {
    index.last = { index: target.index, block: target.block, spans: [span, touch(index, `message:${target.index}`, seq)] };
  }
}

/** The records that changed a target, while remembered. */
export function recordsFor(index: EffectIndex, target: NonNullable<EffectTarget>): TargetRecords | undefined {
  return index.spans.get(targetKey(target));
}

/** Forget everything (the transcript was replaced). */
export function clearEffects(index: EffectIndex): void {
  index.spans.clear();
  index.last = null;
}
