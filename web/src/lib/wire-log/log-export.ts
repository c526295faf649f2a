// The records list as a JSONL file to download: one line per record log
// entry, oldest first, saying when it crossed the wire, which way, who sent
// it, and the record itself:
//
//   {"seq":12,"time":"2026-…Z","direction":"out","sender":{"clientId":"c1","self":true},"type":"prompt","record":{…}}
//   {"seq":13,"time":"2026-…Z","direction":"in","type":"invalid","line":"not json"}
//
// `record` is the parsed JSON when serialising it again gives the line back
// exactly (pi writes JSON.stringify output, so nearly always); otherwise
// `line` holds the text as it crossed the wire, so nothing is lost either way.

import { entryText, entryValue, logEntry, type LogEntry, type RecordLog } from "../pi-state/record-log.ts";

export interface ExportedEntry {
  seq: number;
  time: string;
  direction: LogEntry["direction"];
  sender?: { clientId: string; name?: string; self?: true };
  type: string;
  record?: unknown;
  line?: string;
}

export function exportEntry(entry: LogEntry): ExportedEntry {
  const out: ExportedEntry = { seq: entry.seq, time: new Date(entry.time).toISOString(), direction: entry.direction, type: entry.type };
  if (entry.sender !== undefined) out.sender = { ...entry.sender };
  const text = entryText(entry);
  const value = entryValue(entry);
  if (value !== undefined && (entry.raw === null || JSON.stringify(value) === text)) out.record = value;
  else out.line = text;
  return out;
}

/** The file, one string per line (each with its "\n"), for a Blob. */
export function exportLogLines(log: RecordLog): string[] {
  const lines: string[] = [];
  for (let seq = log.firstSeq; seq < log.nextSeq; seq++) {
    const entry = logEntry(log, seq);
    if (entry !== undefined) lines.push(`${JSON.stringify(exportEntry(entry))}\n`);
  }
  return lines;
}

/** A file name that sorts by time: pier-protocol-2026-12-01T12-50-19.jsonl. */
export function exportFileName(now: number): string {
  return `pier-protocol-${new Date(now).toISOString().slice(0, 19).replace(/:/g, "-")}.jsonl`;
}
