// The reducer benchmark's entry for Chromium: bench/reducer.bench.ts bundles
// this file into a blank page and calls `pierReducerBench` there, so the
// decoder, reducer and log run in the engine the page runs them in.
import { buildWorkload, timeReducer, type ReducerTimings } from "./reducer-workload.ts";

declare global {
  var pierReducerBench: (transcripts: string[], minRecords: number, rounds: number) => ReducerTimings;
}

globalThis.pierReducerBench = (transcripts, minRecords, rounds) => {
  const collectGarbage = (globalThis as { gc?: () => void }).gc;
  if (typeof collectGarbage !== "function") throw new Error("start Chromium with --js-flags=--expose-gc");
  return timeReducer(buildWorkload(transcripts, minRecords), rounds, collectGarbage, () => performance.now());
};
