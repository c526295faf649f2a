// The inspector's input: one thing that crossed the wire, in arrival order.
// Every inspector model (pairing, timeline, meaning, lessons) reads these and
// nothing else, so the record log, a live connection and a replayed capture
// can all feed them through one small adapter.

/** "in": a pi stdout record; "out": a command to pi (or an extension_ui_response, or a `pier.*` relay request); "relay": a relay text frame. */
export type WireDirection = "in" | "out" | "relay";

/** The browser that sent an "out" entry: this one, or another one the relay told us about. */
export interface WireSender {
  clientId: string;
  name?: string;
}

export interface WireEntry {
  /** Unique and increasing within one stream of entries (the record log's seq). */
  seq: number;
  /** Milliseconds since the epoch, as this browser saw it. */
  at: number;
  direction: WireDirection;
  /** The line or frame exactly as it crossed the wire. */
  raw: string;
  /** The parsed JSON, or undefined when `raw` is not JSON. */
  value: unknown;
  /** For "out": who sent it. */
  sender?: WireSender;
}

/** A JSON object (not null, not an array): what every record and frame must be. */
export type JsonRecord = Record<string, unknown>;

export function asRecord(value: unknown): JsonRecord | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonRecord) : null;
}

/** The `type` field of a record, or null when there is none. */
export function recordType(value: unknown): string | null {
  const type = asRecord(value)?.["type"];
  return typeof type === "string" ? type : null;
}

/** A string field, or null. */
export function stringField(record: JsonRecord | null, key: string): string | null {
  const v = record?.[key];
  return typeof v === "string" ? v : null;
}

/** A finite number field, or null. */
export function numberField(record: JsonRecord | null, key: string): number | null {
  const v = record?.[key];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/**
 * The client id inside a Pier command id (`${clientId}:${n}`, see
 * relay-connection), so a response whose command this browser never saw can
 * still say which browser asked. Null for ids of another shape.
 */
export function clientIdOfCommandId(id: string): string | null {
  const colon = id.lastIndexOf(":");
  if (colon <= 0 || colon === id.length - 1) return null;
  const n = id.slice(colon + 1);
  return /^\d+$/.test(n) ? id.slice(0, colon) : null;
}
