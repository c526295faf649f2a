// The flow graph's rows: one per item, and under an opened run of deltas one
// more per delta. Computed on demand for the rows in view (a handful of runs
// are open at most), never as a list of every row: the view asks for the
// count, for row r, and for the row of a seq.

import { flowItem, type FlowItem, type FlowModel } from "./flow-graph.ts";

export interface FlowRow {
  item: FlowItem;
  /** -1: the item's own arrow; 0 … count-1: that delta of an opened run (seq item.seq + member). */
  member: number;
}

/** Opened runs still held, by index, each with the rows before it that opened runs above it add. */
export interface OpenRuns {
  runs: { index: number; count: number; extraBefore: number }[];
  extra: number;
}

export function openRuns(model: FlowModel, opened: ReadonlySet<number>): OpenRuns {
  const runs: OpenRuns["runs"] = [];
  const indexes = [...opened].sort((a, b) => a - b);
  let extra = 0;
  for (const index of indexes) {
    const item = flowItem(model, index);
    if (item === undefined || item.kind !== "deltas") continue;
    runs.push({ index, count: item.count, extraBefore: extra });
    extra += item.count;
  }
  return { runs, extra };
}

export function rowCount(model: FlowModel, open: OpenRuns): number {
  return model.items.length + open.extra;
}

/** Row `row` (from 0). */
export function rowAt(model: FlowModel, open: OpenRuns, row: number): FlowRow | undefined {
  let extra = 0;
  for (const run of open.runs) {
    const own = run.index - model.base + run.extraBefore;
    if (row <= own) break;
    if (row <= own + run.count) return { item: flowItem(model, run.index)!, member: row - own - 1 };
    extra = run.extraBefore + run.count;
  }
  const item = flowItem(model, model.base + row - extra);
  return item === undefined ? undefined : { item, member: -1 };
}

/** The item holding a record (a run holds its deltas), by binary search; undefined when none is held. */
export function itemOfSeq(model: FlowModel, seq: number): FlowItem | undefined {
  const items = model.items;
  let lo = 0;
  let hi = items.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const item = items[mid]!;
    if (seq < item.seq) hi = mid - 1;
    else if (seq > item.lastSeq) lo = mid + 1;
    else return item;
  }
  return undefined;
}

/** The row showing a record: its own, its delta's in an opened run, else its run's; -1 when not held. */
export function rowOfSeq(model: FlowModel, open: OpenRuns, seq: number): number {
  const item = itemOfSeq(model, seq);
  if (item === undefined) return -1;
  let extra = 0;
  for (const run of open.runs) {
    if (run.index > item.index) break;
    if (run.index === item.index) return item.index - model.base + run.extraBefore + (item.kind === "deltas" ? 1 + seq - item.seq : 0);
    extra = run.extraBefore + run.count;
  }
  return item.index - model.base + extra;
}

/** The seq a row stands for. */
export function rowSeq(row: FlowRow): number {
  return row.member === -1 ? row.item.seq : row.item.seq + row.member;
}
