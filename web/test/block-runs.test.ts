// blockRuns groups a growing answer's finished blocks into runs; a run whose
// blocks did not change must come back as the same array (the transcript
// keeps its elements), and nothing may be lost, doubled or reordered.
import { describe, expect, test } from "vitest";
import { blockRuns, RUN_SIZE } from "../src/lib/markdown/block-runs.ts";

const block = (n: number) => `<p>block ${n}</p>`;
const blocks = (count: number) => Array.from({ length: count }, (_, n) => block(n));

describe("blockRuns", () => {
  test("no blocks, no runs", () => {
    expect(blockRuns([], [])).toEqual([]);
  });

  test("every block once, in order, in runs of RUN_SIZE", () => {
    const all = blocks(RUN_SIZE * 3 + 5);
    const runs = blockRuns(all, []);
    expect(runs.map((run) => run.length)).toEqual([RUN_SIZE, RUN_SIZE, RUN_SIZE, 5]);
    expect(runs.flat()).toEqual(all);
  });

  test("as blocks are appended one by one, only the run that grew is a new array", () => {
    let runs: (readonly string[])[] = [];
    const all: string[] = [];
    for (let n = 0; n < RUN_SIZE * 2 + 3; n++) {
      all.push(block(n));
      const next = blockRuns(all, runs);
      const grew = Math.floor(n / RUN_SIZE);
      next.forEach((run, r) => (r === grew ? expect(run).not.toBe(runs[r]) : expect(run).toBe(runs[r])));
      expect(next.flat()).toEqual(all);
      runs = next;
    }
  });

  test("several blocks at once may open a new run and fill the one before", () => {
    const first = blockRuns(blocks(RUN_SIZE - 2), []);
    const second = blockRuns(blocks(RUN_SIZE + 4), first);
    expect(second.map((run) => run.length)).toEqual([RUN_SIZE, 4]);
    expect(second[0]).not.toBe(first[0]);
    expect(second.flat()).toEqual(blocks(RUN_SIZE + 4));
  });

  test("a different text (a reset) reuses nothing it does not hold", () => {
    const before = blockRuns(blocks(RUN_SIZE + 1), []);
    const other = blocks(RUN_SIZE + 1).map((html) => html.replace("block", "other"));
    const after = blockRuns(other, before);
    expect(after[0]).not.toBe(before[0]);
    expect(after.flat()).toEqual(other);
    expect(blockRuns([], after)).toEqual([]);
  });
});
