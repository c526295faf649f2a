// Turns a capture back into what a live connection would have produced, in
// order: pi's byte chunks (for the bytes view) and the wire entries the
// record log would have held (for every other inspector model). Framing is
// the real JsonlDecoder, so a replay frames the bytes exactly as the live
// page did.

import { JsonlDecoder } from "@pier/protocol";
import type { CaptureEvent, CaptureHeader } from "./capture.ts";
import type { RawChunkInput } from "./raw-view.ts";
import type { WireEntry } from "./wire-entry.ts";

export type ReplayStep =
  | { kind: "chunk"; chunk: RawChunkInput }
  /** `lineNo` (from 1, per capture) for entries framed from pi's bytes: pass it to setLineSeq. */
  | { kind: "entry"; entry: WireEntry; lineNo?: number };

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The steps of a capture, in order. Entry seqs and chunk seqs count from 1 (separately). */
export function replaySteps(header: CaptureHeader, events: readonly CaptureEvent[]): ReplayStep[] {
  const startedAt = Date.parse(header.startedAt);
  const decoder = new JsonlDecoder();
  const steps: ReplayStep[] = [];
  let seq = 0;
  let chunkSeq = 0;
  let lineNo = 0;
  for (const event of events) {
    const at = startedAt + event.t;
    if (event.kind === "bytes") {
      steps.push({ kind: "chunk", chunk: { seq: ++chunkSeq, at, bytes: event.bytes } });
      for (const line of decoder.push(event.bytes)) {
        const value = line.kind === "record" ? line.value : undefined;
        steps.push({ kind: "entry", entry: { seq: ++seq, at, direction: "in", raw: line.raw, value }, lineNo: ++lineNo });
      }
    } else if (event.kind === "frame") {
      steps.push({ kind: "entry", entry: { seq: ++seq, at, direction: "relay", raw: event.text, value: parse(event.text) } });
    } else {
      const entry: WireEntry = { seq: ++seq, at, direction: "out", raw: event.text, value: parse(event.text) };
      if (event.by !== undefined) entry.sender = event.by.name === undefined ? { clientId: event.by.clientId } : { clientId: event.by.clientId, name: event.by.name };
      steps.push({ kind: "entry", entry });
    }
  }
  const last = events[events.length - 1];
  for (const line of decoder.end()) {
    const value = line.kind === "record" ? line.value : undefined;
    steps.push({ kind: "entry", entry: { seq: ++seq, at: startedAt + (last?.t ?? 0), direction: "in", raw: line.raw, value }, lineNo: ++lineNo });
  }
  return steps;
}
