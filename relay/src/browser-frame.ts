// Checks one text frame from a browser before anything reaches pi. pi is
// fragile against odd input, so a frame gets to its stdin only if it is a
// single JSON object that is a known command with well-typed fields, holds no
// raw line break (it must stay one JSONL record), and fits the size limit.
import { MAX_COMMAND_BYTES, RELAY_REQUEST_PREFIX, RELAY_REQUEST_TYPES, validateCommand, type RelayErrorCode, type RelayRequest } from "@pier/protocol";
import { readRelayRequest } from "./relay-requests.ts";

export type BrowserFrame =
  /** Forward `line` (the frame's own bytes, unchanged) plus "\n" to pi. */
  | { kind: "command"; line: Buffer; type: string; id?: string; command: Readonly<Record<string, unknown>> }
  | { kind: "request"; request: RelayRequest }
  | { kind: "refused"; code: RelayErrorCode; message: string; command?: { type?: string; id?: string } };

export function classifyBrowserFrame(data: Buffer, maxBytes = MAX_COMMAND_BYTES): BrowserFrame {
  if (data.length > maxBytes) {
    return refuse("frame_too_large", `a command may be at most ${maxBytes} bytes; this one has ${data.length}`);
  }
  // A raw LF would end the JSONL record early; a raw CR before it would be
  // eaten by pi's CRLF handling. Inside JSON strings both must be escaped.
  if (data.includes(0x0a) || data.includes(0x0d)) {
    return refuse("raw_newline", "a command must be one line: escape line breaks inside strings as \\n");
  }
  let value: unknown;
  try {
    value = JSON.parse(data.toString("utf8"));
  } catch (error) {
    return refuse("invalid_json", `the frame is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const label = describe(value);
  if (label.type?.startsWith(RELAY_REQUEST_PREFIX)) {
    const known = RELAY_REQUEST_TYPES.find((type) => type === label.type);
    if (!known) return refuse("unknown_request", `unknown relay request "${label.type}"`, label);
    const checked = readRelayRequest(known, value as Record<string, unknown>);
    return checked.ok ? { kind: "request", request: checked.request } : refuse("invalid_command", checked.error, label);
  }
  const verdict = validateCommand(value);
  if (!verdict.ok) return refuse("invalid_command", verdict.error, label);
  // The schema bounds an accepted id (in characters): use it whole, never a cut copy.
  const id = (verdict.command as { id?: unknown }).id;
  return {
    kind: "command",
    line: data,
    type: label.type!,
    ...(typeof id === "string" ? { id } : {}),
    command: value as Record<string, unknown>,
  };
}

function describe(value: unknown): { type?: string; id?: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const { type, id } = value as { type?: unknown; id?: unknown };
  return {
    ...(typeof type === "string" ? { type: type.slice(0, 100) } : {}),
    ...(typeof id === "string" ? { id: id.slice(0, 256) } : {}),
  };
}

function refuse(code: RelayErrorCode, message: string, command?: { type?: string; id?: string }): BrowserFrame {
  return { kind: "refused", code, message, ...(command && Object.keys(command).length > 0 ? { command } : {}) };
}
