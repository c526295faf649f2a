// The composer's local check of what is in its editor, and the one line it
// sends. The relay is the real gate: it refuses a frame that is too large,
// holds a raw line break, is not JSON, or breaks a command's schema
// (relay/src/browser-frame.ts). This check runs the same validator
// (validateCommand from @pier/protocol, passed in so this module stays free
// of the schema bundle) and words its findings the same way, so what the
// composer says before sending is what the relay would say after.
//
// The editor holds pretty-printed JSON; the wire takes one line per
// record, so a JSON text is sent re-serialised on one line (same keys and
// values; whitespace, number spelling and duplicate keys are not kept). A
// text that is not JSON is sent as typed with its line breaks turned into
// spaces, so the relay answers about the JSON rather than the line break.

import type { CommandValidation } from "@pier/protocol";
import { MAX_COMMAND_BYTES } from "@pier/protocol";

export type CommandCheck =
  | { kind: "empty"; line: "" }
  | { kind: "not-json"; error: string; line: string }
  | { kind: "invalid"; error: string; line: string; type: string | null; id: string | null }
  | { kind: "valid"; line: string; type: string; id: string | null };

export type Validate = (value: unknown) => CommandValidation;

const LINE_BREAKS = /\r\n|\r|\n|\u2028|\u2029/g;

/** Check the editor's text; `validate` is @pier/protocol's validateCommand. */
export function checkCommandText(text: string, validate: Validate, maxBytes = MAX_COMMAND_BYTES): CommandCheck {
  if (text.trim() === "") return { kind: "empty", line: "" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const line = text.trim().replace(LINE_BREAKS, " ");
    return { kind: "not-json", error: `the frame is not valid JSON (${error instanceof Error ? error.message : String(error)})`, line };
  }
  const line = JSON.stringify(value);
  const record = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const type = typeof record?.["type"] === "string" ? (record["type"] as string) : null;
  const id = typeof record?.["id"] === "string" ? (record["id"] as string) : null;
  const bytes = utf8Length(line, maxBytes);
  if (bytes > maxBytes) return { kind: "invalid", error: `a command may be at most ${maxBytes} bytes; this one has ${bytes}`, line, type, id };
  const verdict = validate(value);
  if (!verdict.ok) return { kind: "invalid", error: verdict.error, line, type, id };
  return { kind: "valid", line, type: type!, id };
}

/** UTF-8 byte length (counted exactly only when it could exceed `limit`). */
function utf8Length(text: string, limit: number): number {
  if (text.length * 3 <= limit) return text.length;
  return new TextEncoder().encode(text).length;
}

/**
 * Where a JSON.parse error points, as 1-based line and column, when the
 * engine's message gives a position ("… at position 42", "(line 3 column 5)").
 */
export function jsonErrorPosition(text: string, message: string): { line: number; column: number } | null {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /position (\d+)/.exec(message);
  if (!position) return null;
  const offset = Math.min(Number(position[1]), text.length);
  let line = 1;
  let lastBreak = -1;
  for (let i = 0; i < offset; i++) {
    if (text[i] === "\n") {
      line++;
      lastBreak = i;
    }
  }
  return { line, column: offset - lastBreak };
}
