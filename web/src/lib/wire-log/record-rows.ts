// The rows of the records list: the entries a filter lets through, with the
// deltas of one message folded into a single row where its first delta was.
// An opened group shows its row and then its deltas in place (records of
// other kinds that arrived between them stay where they were).
//
// Rebuilt when the list refreshes: O(rows), a few thousand at most (the
// record log is bounded), with no allocation per plain entry (a number).

import { groupOfSeq, type DeltaGroups } from "./delta-groups.ts";

export interface GroupRow {
  kind: "group";
  groupId: number;
  /** Deltas of the group that the filter let through. */
  count: number;
  /** Of those, by kind (with RowOptions.stepOf). */
  text: number;
  thinking: number;
  toolcall: number;
  other: number;
  firstSeq: number;
  lastSeq: number;
  /** message_start of the message, when seen. */
  startSeq: number | null;
  open: boolean;
}

/** A plain entry (its seq), or a group of deltas. */
export type RecordRow = number | GroupRow;

export interface RowOptions {
  /** Fold deltas into their message (false: every delta is a row of its own). */
  collapse: boolean;
  /** Groups opened by the person. */
  opened: ReadonlySet<number>;
  /** A delta's step ("text_delta", "thinking_start" …), for the counts by kind. */
  stepOf?: (seq: number) => string;
}

export function buildRecordRows(seqs: readonly number[], groups: DeltaGroups, options: RowOptions): RecordRow[] {
  if (!options.collapse) return seqs as number[];
  const rows: RecordRow[] = [];
  const byGroup = new Map<number, GroupRow>();
  for (const seq of seqs) {
    const group = groupOfSeq(groups, seq);
    if (group === undefined) {
      rows.push(seq);
      continue;
    }
    let row = byGroup.get(group.id);
    if (row === undefined) {
      row = {
        kind: "group",
        groupId: group.id,
        count: 0,
        text: 0,
        thinking: 0,
        toolcall: 0,
        other: 0,
        firstSeq: seq,
        lastSeq: seq,
        startSeq: group.startSeq,
        open: options.opened.has(group.id),
      };
      byGroup.set(group.id, row);
      rows.push(row);
    }
    row.count++;
    row.lastSeq = seq;
    const step = options.stepOf?.(seq) ?? "";
    if (step === "text_delta") row.text++;
    else if (step === "thinking_delta") row.thinking++;
    else if (step === "toolcall_delta") row.toolcall++;
    else row.other++;
    if (row.open) rows.push(seq);
  }
  return rows;
}

/** Position of the row showing `seq` (its own row, or the group that folds it), or -1. */
export function rowIndexOfSeq(rows: readonly RecordRow[], seq: number, groups: DeltaGroups): number {
  const groupId = groupOfSeq(groups, seq)?.id;
  let folded = -1;
  // Binary search would need a sorted key per row; a list of a few thousand rows is scanned from the end, where selections usually are.
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row === seq) return i;
    if (typeof row !== "number" && row.groupId === groupId && seq >= row.firstSeq && seq <= row.lastSeq) folded = i;
  }
  return folded;
}

/** The seq a row stands for: its entry, or a group's first delta. */
export function rowSeq(row: RecordRow): number {
  return typeof row === "number" ? row : row.firstSeq;
}
