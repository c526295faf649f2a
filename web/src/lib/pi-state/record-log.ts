// A bounded log of everything that crossed the wire, for the protocol panel:
// a ring buffer of entries with stable sequence numbers. Pure data: the
// connection appends, views read.
//
// Appending is O(1) (pi can send thousands of records a second while it
// streams): the entry is described from the already parsed record, written
// into its slot, and the oldest entries fall out when the ring is full or
// holds more than its byte budget (a replay can carry megabyte-long answers
// of earlier pages). A sequence number names an entry for good (seq 1 is the
// first ever logged): views keep seqs, not array positions, and look entries
// up in O(1) for as long as the ring still holds them.

export type LogDirection = "in" | "out" | "relay";

/** Who sent an "out" entry: this page (`self`), or another browser the relay announced (command_sent). */
export interface LogSender {
  clientId: string;
  name?: string;
  self?: true;
}

export interface LogEntry {
  /** Monotonic, unique within a log: a stable key for rendering. */
  seq: number;
  direction: LogDirection;
  /** Milliseconds since the epoch. */
  time: number;
  /** Record type ("message_update", "response", "hello", "invalid" …). */
  type: string;
  /** A short hint next to the type: the command of a response, the delta kind … */
  detail: string;
  /** Length of the line as it crossed the wire, in UTF-16 code units. */
  length: number;
  /**
   * The JSON (or non-JSON line) exactly as it crossed the wire; null for a
   * line longer than RAW_TEXT_LIMIT (a whole session's entries can be
   * megabytes), whose parsed `value` is kept instead: that object is shared
   * with the state the record was reduced into, so it costs nothing more.
   */
  raw: string | null;
  /** The parsed record when `raw` is null; undefined otherwise. */
  value: unknown;
  /** For "out": who sent it. */
  sender?: LogSender;
}

export interface RecordLog {
  readonly capacity: number;
  /** At most this many characters of records are held (the newest entry always is). */
  readonly maxChars: number;
  /** Characters of the entries held. */
  chars: number;
  /** Entry `seq` lives in `slots[seq % capacity]` while firstSeq ≤ seq < nextSeq. */
  readonly slots: (LogEntry | undefined)[];
  /** The seq the next entry gets (seqs start at 1). */
  nextSeq: number;
  /** The oldest seq still held; equal to nextSeq when the log is empty. */
  firstSeq: number;
}

export const RECORD_LOG_LIMIT = 2000;
export const RECORD_LOG_MAX_CHARS = 4 * 1024 * 1024;
/** Lines longer than this are kept parsed, not as text (see LogEntry.raw). */
export const RAW_TEXT_LIMIT = 32 * 1024;

export function createRecordLog(capacity = RECORD_LOG_LIMIT, maxChars = RECORD_LOG_MAX_CHARS): RecordLog {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("a record log holds at least one entry");
  return { capacity, maxChars, chars: 0, slots: new Array<LogEntry | undefined>(capacity).fill(undefined), nextSeq: 1, firstSeq: 1 };
}

/** The record's type, or "invalid" for a line that is not JSON. */
function typeOf(value: unknown): string {
  if (value === undefined) return "invalid";
  if (typeof value !== "object" || value === null) return typeof value;
  const type = (value as { type?: unknown }).type;
  return typeof type === "string" ? type : "?";
}

/** A short hint next to the type. */
function detailOf(type: string, value: unknown): string {
  if (value === undefined) return "not JSON";
  if (typeof value !== "object" || value === null) return "";
  const record = value as Record<string, unknown>;
  if (type === "message_update") {
    const event = record.assistantMessageEvent as Record<string, unknown> | undefined;
    return typeof event?.type === "string" ? event.type : "";
  }
  if (type === "response") return `${String(record.command)} ${record.success === false ? "✗" : "✓"}`;
  if (type === "message_start" || type === "message_end") {
    const message = record.message as Record<string, unknown> | undefined;
    return typeof message?.role === "string" ? message.role : "";
  }
  if (type.startsWith("tool_execution")) return String(record.toolName ?? "");
  if (type === "extension_ui_request") return String(record.method ?? "");
  if (type === "error") return String(record.code ?? "");
  if (type === "stderr") return typeof record.line === "string" ? record.line.slice(0, 200) : "";
  return "";
}

/** Append an entry (the oldest is dropped when the ring is full). `value` is the parsed JSON, undefined for a line that is not JSON. */
export function appendLog(log: RecordLog, direction: LogDirection, raw: string, value: unknown, now = Date.now(), sender?: LogSender): LogEntry {
  const long = raw.length > RAW_TEXT_LIMIT && value !== undefined;
  return append(log, direction, raw.length, long ? null : raw, value, now, sender);
}

/**
 * Append a record whose text the page never held (a long line parsed off its
 * thread: relay/long-lines.ts): kept parsed, like any line over
 * RAW_TEXT_LIMIT, with the length it had on the wire.
 */
export function appendParsedLog(log: RecordLog, direction: LogDirection, length: number, value: unknown, now = Date.now()): LogEntry {
  return append(log, direction, length, null, value, now);
}

function append(log: RecordLog, direction: LogDirection, length: number, raw: string | null, value: unknown, now: number, sender?: LogSender): LogEntry {
  const type = typeOf(value);
  const detail = detailOf(type, value);
  const entry: LogEntry = {
    seq: log.nextSeq++,
    direction,
    time: now,
    type,
    detail,
    length,
    raw,
    value: raw === null ? value : undefined,
  };
  if (sender !== undefined) entry.sender = sender;
  if (log.nextSeq - log.firstSeq > log.capacity) dropOldest(log);
  log.slots[entry.seq % log.capacity] = entry;
  log.chars += entry.length;
  while (log.chars > log.maxChars && log.firstSeq < entry.seq) dropOldest(log);
  return entry;
}

function dropOldest(log: RecordLog): void {
  const slot = log.firstSeq % log.capacity;
  log.chars -= log.slots[slot]?.length ?? 0;
  log.slots[slot] = undefined;
  log.firstSeq++;
}

/** The entry with this seq, while the log still holds it. */
export function logEntry(log: RecordLog, seq: number): LogEntry | undefined {
  if (seq < log.firstSeq || seq >= log.nextSeq) return undefined;
  return log.slots[seq % log.capacity];
}

/** How many entries the log holds. */
export function logSize(log: RecordLog): number {
  return log.nextSeq - log.firstSeq;
}

/** Entries dropped so far (fallen out of the ring, or cleared). */
export function droppedCount(log: RecordLog): number {
  return log.firstSeq - 1;
}

/** Forget every entry; seqs go on from where they were. */
export function clearLog(log: RecordLog): void {
  while (log.firstSeq < log.nextSeq) dropOldest(log);
}

/** Forget every entry and start counting from 1 again (a replay going back to its start). */
export function resetLog(log: RecordLog): void {
  log.slots.fill(undefined);
  log.chars = 0;
  log.nextSeq = 1;
  log.firstSeq = 1;
}

/** The line as it crossed the wire (re-serialized from the parsed record for a long one, which gives pi's text back: pi writes JSON.stringify output). */
export function entryText(entry: LogEntry): string {
  return entry.raw ?? JSON.stringify(entry.value);
}

/** The parsed record, or undefined for a line that was not JSON. */
export function entryValue(entry: LogEntry): unknown {
  if (entry.raw === null) return entry.value;
  if (entry.type === "invalid") return undefined;
  try {
    return JSON.parse(entry.raw);
  } catch {
    return undefined;
  }
}
