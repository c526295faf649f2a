// Which entries of a record log a filter lets through, kept up to date
// incrementally: each entry is tested once, when it is first seen, and
// entries that fell out of the log leave from the front. Changing the
// filter means a new FilteredLog (one pass over what the log holds); after
// that, keeping up costs O(new entries), never a pass over everything.

import { logEntry, type LogEntry, type RecordLog } from "./record-log.ts";

export interface LogFilter {
  /** Case-insensitive substring of the type or the detail; "" lets everything through. */
  text: string;
  /** Leave out message_update records (the streaming deltas). */
  hideDeltas: boolean;
}

export interface FilteredLog {
  readonly filter: LogFilter;
  /** Seqs of matching entries, oldest first, from `head` on (the ones before it fell out of the log). */
  seqs: number[];
  head: number;
  /** The next seq to test. */
  scannedTo: number;
}

export function matchesFilter(entry: LogEntry, filter: LogFilter): boolean {
  if (filter.hideDeltas && entry.type === "message_update") return false;
  const needle = filter.text.trim().toLowerCase();
  return needle === "" || entry.type.toLowerCase().includes(needle) || entry.detail.toLowerCase().includes(needle);
}

export function createFilteredLog(log: RecordLog, filter: LogFilter): FilteredLog {
  const view: FilteredLog = { filter: { ...filter, text: filter.text.trim().toLowerCase() }, seqs: [], head: 0, scannedTo: log.firstSeq };
  syncFilteredLog(view, log);
  return view;
}

/** Catch up with the log: test the entries appended since the last sync, drop the ones it no longer holds. Returns whether anything changed. */
export function syncFilteredLog(view: FilteredLog, log: RecordLog): boolean {
  let changed = false;
  const from = Math.max(view.scannedTo, log.firstSeq);
  for (let seq = from; seq < log.nextSeq; seq++) {
    const entry = logEntry(log, seq);
    if (entry !== undefined && matchesFilter(entry, view.filter)) {
      view.seqs.push(seq);
      changed = true;
    }
  }
  view.scannedTo = log.nextSeq;
  while (view.head < view.seqs.length && view.seqs[view.head]! < log.firstSeq) {
    view.head++;
    changed = true;
  }
  // Reclaim the dropped front now and then (amortized O(1) per entry).
  if (view.head > 1024 && view.head * 2 > view.seqs.length) {
    view.seqs = view.seqs.slice(view.head);
    view.head = 0;
  }
  return changed;
}

/** How many entries match. */
export function filteredCount(view: FilteredLog): number {
  return view.seqs.length - view.head;
}

/** The matching seqs, oldest first, as a fresh array (for a list view to hold). */
export function filteredSeqs(view: FilteredLog): number[] {
  return view.seqs.slice(view.head);
}
