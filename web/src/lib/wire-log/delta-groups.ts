// Which message each streaming delta belongs to, so that the records list can
// fold the thousands of message_update records of one answer into one row
// ("1,204 deltas") that opens in place.
//
// A group is the message_update records between a message_start and its
// message_end (a replay or a page that connected mid-answer can see deltas
// with no message_start: they open a group too). Records of other kinds in
// between (a command this page sent, a relay frame) do not split the group.
// Fed in arrival order, O(1) per entry; `forgetBefore` drops what the
// record log no longer holds.

import type { LogDirection } from "../pi-state/record-log.ts";

export interface DeltaGroup {
  readonly id: number;
  /** The message_start that opened the message, when seen. */
  startSeq: number | null;
  /** The message_end (or agent_end, or the relay frame) that closed it; null while open. */
  endSeq: number | null;
  firstSeq: number;
  lastSeq: number;
  /** Deltas fed (including ones the log has dropped since). */
  count: number;
}

export interface DeltaGroups {
  /** By id, oldest first. */
  groups: Map<number, DeltaGroup>;
  /** Delta seq → group id, oldest first. */
  bySeq: Map<number, number>;
  open: DeltaGroup | null;
  /** A message_start waiting for its first delta. */
  pendingStart: number | null;
  nextId: number;
}

export function createDeltaGroups(): DeltaGroups {
  return { groups: new Map(), bySeq: new Map(), open: null, pendingStart: null, nextId: 1 };
}

/** Feed one record log entry (its seq, direction and type). */
export function noteGroupEntry(state: DeltaGroups, seq: number, direction: LogDirection, type: string): void {
  if (direction === "relay") {
    // A new stream (a replay, a new pi): nothing carries over.
    if (type === "hello" || type === "child_started" || type === "child_exited") close(state, seq);
    return;
  }
  if (direction !== "in") return;
  switch (type) {
    case "message_update": {
      let group = state.open;
      if (group === null) {
        group = { id: state.nextId++, startSeq: state.pendingStart, endSeq: null, firstSeq: seq, lastSeq: seq, count: 0 };
        state.groups.set(group.id, group);
        state.open = group;
      }
      group.lastSeq = seq;
      group.count++;
      state.bySeq.set(seq, group.id);
      return;
    }
    case "message_start":
      close(state, seq);
      state.pendingStart = seq;
      return;
    case "message_end":
    case "agent_end":
    case "agent_settled":
      close(state, seq);
      return;
    default:
  }
}

function close(state: DeltaGroups, seq: number): void {
  if (state.open !== null) state.open.endSeq = seq;
  state.open = null;
  state.pendingStart = null;
}

/** The group a delta belongs to, while remembered. */
export function groupOfSeq(state: DeltaGroups, seq: number): DeltaGroup | undefined {
  const id = state.bySeq.get(seq);
  return id === undefined ? undefined : state.groups.get(id);
}

/** Forget deltas before `firstSeq` and groups that ended before it (amortised O(1) per entry). */
export function forgetBefore(state: DeltaGroups, firstSeq: number): void {
  for (const seq of state.bySeq.keys()) {
    if (seq >= firstSeq) break;
    state.bySeq.delete(seq);
  }
  for (const group of state.groups.values()) {
    if (group.lastSeq >= firstSeq || group === state.open) break;
    state.groups.delete(group.id);
  }
}
