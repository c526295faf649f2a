// Groups a long answer's finished blocks into runs, one element each. (An
// item of the list is the HTML of the blocks one update finished: usually
// one block, a few when a frame brought several.)
//
// Why: while an answer streams, its last block changes every frame, and the
// browser lays out again every child of the element that holds it. With
// hundreds of blocks side by side that is O(blocks) per frame and the
// frames of a long answer get slower and slower. In runs of RUN_SIZE, a
// frame touches the runs (a few dozen) and the blocks of the last one only.
// A run is a plain block box without padding or border, so the margins of
// the blocks on either side of a run boundary still collapse as before.

/** Items per run: about the square root of a long answer's item count. */
export const RUN_SIZE = 32;

/**
 * `blocks` in runs of RUN_SIZE (the last one shorter). Runs of `previous`
 * that hold the very same blocks are returned as they are, so that a list
 * rendering them by identity leaves their elements alone; only a run that
 * changed is a new array.
 */
export function blockRuns(blocks: readonly string[], previous: readonly (readonly string[])[]): (readonly string[])[] {
  const runs: (readonly string[])[] = [];
  for (let start = 0; start < blocks.length; start += RUN_SIZE) {
    const end = Math.min(start + RUN_SIZE, blocks.length);
    const kept = previous[runs.length];
    runs.push(kept !== undefined && holds(kept, blocks, start, end) ? kept : blocks.slice(start, end));
  }
  return runs;
}

function holds(run: readonly string[], blocks: readonly string[], start: number, end: number): boolean {
  if (run.length !== end - start) return false;
  for (let i = start; i < end; i++) if (run[i - start] !== blocks[i]) return false;
  return true;
}
