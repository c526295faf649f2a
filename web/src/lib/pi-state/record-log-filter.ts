// Which entries of a record log a filter lets through, kept up to date
// incrementally: each entry is tested once, when it is first seen, and
// entries that fell out of the log leave from the front. Changing the
// filter means a new FilteredLog (one pass over what the log holds); after
// that, keeping up costs O(new entries), never a pass over everything.

import { entryText, logEntry, type LogDirection, type LogEntry, type RecordLog } from "./record-log.ts";

export interface LogFilter {
  /** Case-insensitive substring of the type or the detail; "" lets everything through. */
  text: string;
  /** Leave out message_update records (the streaming deltas). */
  hideDeltas: boolean;
  /** Only this record type (exactly); null or absent: any. */
  type?: string | null;
  /** Only these directions; absent: all. */
  directions?: readonly LogDirection[];
  /** Case-insensitive substring of the line as it crossed the wire; "" or absent: anything. */
  search?: string;
}

export interface FilteredLog {
  readonly filter: LogFilter;
  /** Seqs of matching entries, oldest first, from `head` on (the ones before it fell out of the log). */
  seqs: number[];
  head: number;
  /** The next seq to test. */
  scannedTo: number;
}

/** `filter` as createFilteredLog keeps it: texts trimmed and lower-cased. */
function normalized(filter: LogFilter): LogFilter {
  return { ...filter, text: filter.text.trim().toLowerCase(), search: (filter.search ?? "").trim().toLowerCase() };
}

export function matchesFilter(entry: LogEntry, filter: LogFilter): boolean {
  if (filter.hideDeltas && entry.type === "message_update") return false;
  if (filter.type !== undefined && filter.type !== null && entry.type !== filter.type) return false;
  if (filter.directions !== undefined && !filter.directions.includes(entry.direction)) return false;
  const needle = filter.text.trim().toLowerCase();
  if (needle !== "" && !entry.type.toLowerCase().includes(needle) && !entry.detail.toLowerCase().includes(needle)) return false;
  const search = (filter.search ?? "").trim().toLowerCase();
  return search === "" || entryText(entry).toLowerCase().includes(search);
}

export function createFilteredLog(log: RecordLog, filter: LogFilter): FilteredLog {
  const view: FilteredLog = { filter: normalized(filter), seqs: [], head: 0, scannedTo: log.firstSeq };
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
