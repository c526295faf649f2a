// The flow graph's SVG export built a slice at a time, so the page stays
// responsive while a long graph is written: the pieces of flowSvgPieces are
// taken for `sliceMs` at most, turned into a Blob part, and the page gets the
// event loop back before the next slice. Each slice is its own Blob part (its
// text encoded then), so no step handles the whole file as one string, and
// the last step (a Blob of parts) copies nothing.
//
// There is no bound on the number of arrows: the graph holds the inspector's
// records (the newest 2,000: RECORD_LOG_LIMIT), so at most that many arrows,
// while this was measured at 100,000 arrows (~60 MB) in Chromium. What the
// graph does not hold (records the inspector dropped) is said in the file
// (FlowSvgOptions.leftOut).

import { flowSvgPieceCount, flowSvgPieces, type FlowDrawing, type FlowSvgOptions } from "./flow-svg.ts";
import { firstAtOrAfter } from "./flow-graph.ts";

export interface FlowExportOptions extends FlowSvgOptions {
  /** Stops the export between slices (it rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Pieces done of all, after each slice. */
  onProgress?: (done: number, total: number) => void;
  /** How long one slice may take (ms). */
  sliceMs?: number;
  /** Gives the page the event loop between slices. */
  yieldToPage?: () => Promise<void>;
}

/** Time one slice may take building pieces: well under a frame, so input and painting go on while a long file is built. */
export const EXPORT_SLICE_MS = 10;
/**
 * Text one slice may make. Making it a Blob part costs about as much again as
 * building it (Chromium encodes and hands the text to its blob store at once:
 * ~15 ms of CPU for 700 KB, measured), so the slice stops here too.
 */
export const EXPORT_SLICE_CHARS = 256 * 1024;
/** Pieces taken between two looks at the clock. */
const CLOCK_EVERY = 32;

/** The whole drawing as an SVG file, built in slices. */
export async function flowSvgBlob(drawing: FlowDrawing, options: FlowExportOptions): Promise<Blob> {
  const { signal, onProgress, sliceMs = EXPORT_SLICE_MS, yieldToPage = nextTask } = options;
  const total = flowSvgPieceCount(drawing);
  const pieces = flowSvgPieces(drawing, options);
  const parts: Blob[] = [];
  let done = 0;
  for (;;) {
    signal?.throwIfAborted();
    const started = performance.now();
    const slice: string[] = [];
    let chars = 0;
    let finished = false;
    for (;;) {
      const next = pieces.next();
      if (next.done === true) {
        finished = true;
        break;
      }
      slice.push(next.value);
      chars += next.value.length;
      done++;
      if (chars >= EXPORT_SLICE_CHARS || (done % CLOCK_EVERY === 0 && performance.now() - started >= sliceMs)) break;
    }
    parts.push(new Blob([slice.join("")]));
    onProgress?.(done, total);
    if (finished) break;
    await yieldToPage();
  }
  signal?.throwIfAborted();
  return new Blob(parts, { type: "image/svg+xml" });
}

/** A new task, so what waits (input, a frame) runs first: scheduler.yield where there is one, else a message to ourselves (setTimeout is clamped to 4 ms when nested). */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  if (typeof MessageChannel === "function") {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The seqs of a sorted list in first … last (a run's warned deltas), by binary search: a long export asks this for every arrow. */
export function seqsIn(sortedSeqs: readonly number[], first: number, last: number): number[] {
  const out: number[] = [];
  for (let i = firstAtOrAfter(sortedSeqs, first); i < sortedSeqs.length && sortedSeqs[i]! <= last; i++) out.push(sortedSeqs[i]!);
  return out;
}
