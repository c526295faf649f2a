// The reducer benchmark's entry for Chromium: bench/reducer.bench.ts bundles
// this file into a blank page (with the Svelte plugin, as the page's own
// build compiles it) and drives it from outside, one run per call, so that
// it can read the renderer's CPU time around each. The decoder, reducer and
// log run in the engine the page runs them in, into the state the page
// holds (its `$state` store), and into plain objects beside it.
import { flushSync } from "svelte";
import { createSessionState } from "../../web/src/lib/pi-state/session-state.ts";
import { createSessionStore } from "../../web/src/lib/pi-state/session-store.svelte.ts";
import { buildWorkload, reducerRuns, sessionSize, type Run, type StateKind } from "./reducer-workload.ts";

export interface PreparedReducerBench {
  names: string[];
  records: number;
  bytes: number;
  messages: number;
  tools: number;
}

declare global {
  var pierReducer: {
    prepare(transcripts: string[], minRecords: number): PreparedReducerBench;
    /** A full collection, so that a run does not pay for the one before it. */
    collect(): void;
    /** Run `index`; returns its wall time in milliseconds. */
    run(index: number): number;
  };
}

/** The page's store first: the figure the target is about. */
const PAGE_STATES: StateKind[] = [
  { name: "the page's $state store", create: createSessionStore, flush: flushSync },
  { name: "plain objects", create: createSessionState },
];

let runs: Run[] = [];

globalThis.pierReducer = {
  prepare(transcripts, minRecords) {
    const workload = buildWorkload(transcripts, minRecords);
    runs = reducerRuns(workload, PAGE_STATES);
    return { names: runs.map((run) => run.name), records: workload.lines.length, bytes: workload.bytes, ...sessionSize(workload, PAGE_STATES[0]!) };
  },
  collect() {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (typeof gc !== "function") throw new Error("start Chromium with --js-flags=--expose-gc");
    gc();
  },
  run(index) {
    const run = runs[index];
    if (run === undefined) throw new Error(`no run ${index}`);
    const start = performance.now();
    run.run();
    return performance.now() - start;
  },
};
