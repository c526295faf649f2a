// A bounded log of everything that crossed the wire, for the protocol panel.
// Pure data: the connection appends, the panel reads.

export type LogDirection = "in" | "out" | "relay";

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
  /** The JSON (or non-JSON line) exactly as it crossed the wire. */
  raw: string;
}

export interface RecordLog {
  entries: LogEntry[];
  nextSeq: number;
  /** Entries dropped from the front so far. */
  dropped: number;
}

export const RECORD_LOG_LIMIT = 2000;

export function createRecordLog(): RecordLog {
  return { entries: [], nextSeq: 1, dropped: 0 };
}

function describe(value: unknown): { type: string; detail: string } {
  if (typeof value !== "object" || value === null) return { type: typeof value, detail: "" };
  const record = value as Record<string, unknown>;
  const type = typeof record.type === "string" ? record.type : "?";
  let detail = "";
  if (type === "response") {
    detail = `${String(record.command)} ${record.success === false ? "✗" : "✓"}`;
  } else if (type === "message_update") {
    const event = record.assistantMessageEvent as Record<string, unknown> | undefined;
    detail = typeof event?.type === "string" ? event.type : "";
  } else if (type === "message_start" || type === "message_end") {
    const message = record.message as Record<string, unknown> | undefined;
    detail = typeof message?.role === "string" ? message.role : "";
  } else if (type.startsWith("tool_execution")) {
    detail = String(record.toolName ?? "");
  } else if (type === "extension_ui_request") {
    detail = String(record.method ?? "");
  } else if (type === "error") {
    detail = String(record.code ?? "");
  }
  return { type, detail };
}

/** Append an entry; the oldest is dropped beyond `limit`. `value` is the parsed JSON, if any. */
export function appendLog(
  log: RecordLog,
  direction: LogDirection,
  raw: string,
  value: unknown,
  now = Date.now(),
  limit = RECORD_LOG_LIMIT,
): void {
  const { type, detail } = value === undefined ? { type: "invalid", detail: "not JSON" } : describe(value);
  log.entries.push({ seq: log.nextSeq++, direction, time: now, type, detail, raw });
  const excess = log.entries.length - limit;
  if (excess > 0) {
    log.entries.splice(0, excess);
    log.dropped += excess;
  }
}

export function clearLog(log: RecordLog): void {
  log.dropped += log.entries.length;
  log.entries.length = 0;
}
