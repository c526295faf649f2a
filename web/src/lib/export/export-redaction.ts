// Redacting a capture before it becomes a page anyone may open: secrets (the
// rules the inspector's "Record the wire" applies: wire-log/redaction.ts)
// and the home folder, written as "~" (a path under it says whose machine
// this was). Done on the capture's text, line by line, so every line of a
// kind this code does not know (notes, and whatever a later version adds)
// comes along, redacted as JSON like any other.
//
// pi's bytes are redacted as the stream they are: the bytes events are put
// together, split into pi's lines, each line redacted as JSON (the writer's
// own redactLine), and cut back into the events at their boundaries (a
// boundary inside a replaced string moves to its end, as in the writer), so
// the page still shows the chunks as they arrived.
//
// The text must have passed the reader (readCapture) first.

import { decodeBase64, encodeBase64 } from "../wire-log/base64.ts";
import { concatBytes } from "../bytes.ts";
import { applyEdits, mapOffset, redactCommandLine, redactHomes, redactJsonText, redactLine, ToolCallTracker, type Edit, type RedactionOptions } from "../wire-log/redaction.ts";

/** The names an exported page lists under "redacted" (the capture header's list). */
export const REDACTED_SECRETS = "secrets";
export const REDACTED_HOME = "home folder";

export interface ExportRedaction {
  text: string;
  /** The header's list after this: what the page says was redacted. */
  redacted: string[];
}

/**
 * Home folders named by paths in the capture (the relay's cwd, pi's command
 * line): `/home/alice`, `/Users/alice`, `/root`, `C:\Users\alice`.
 */
export function homesIn(paths: readonly string[]): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    const match = /^(?:\/home\/[^/]+|\/Users\/[^/]+|\/root|[A-Za-z]:\\Users\\[^\\]+)(?=$|[/\\])/.exec(path);
    if (match) found.add(match[0]);
  }
  return [...found];
}

/** The cwd of the capture's hello frames (cheap: only frame lines that say "hello" are parsed). */
export function helloPaths(text: string): string[] {
  const paths: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.includes('"hello"') || !line.includes('"frame"')) continue;
    try {
      const value = JSON.parse(line) as { k?: unknown; f?: unknown };
      const frame = typeof value.f === "string" ? (JSON.parse(value.f) as unknown) : value.f;
      const cwd = (frame as { type?: unknown; cwd?: unknown } | null)?.cwd;
      if ((frame as { type?: unknown } | null)?.type === "hello" && typeof cwd === "string") paths.push(cwd);
    } catch {
      // Not a frame this can read: the reader already vouched for the file; nothing to learn here.
    }
  }
  return paths;
}

interface BytesLine {
  /** Index in the output lines. */
  index: number;
  value: Record<string, unknown>;
  bytes: Uint8Array;
}

/** pi's stream, redacted line by line, cut back into its chunks. */
function redactStream(chunks: readonly Uint8Array[], options: RedactionOptions): Uint8Array[] {
  const stream = concatBytes(chunks);
  const tracker = new ToolCallTracker();
  const edits: Edit[] = [];
  let lineStart = 0;
  while (lineStart < stream.length) {
    let lf = stream.indexOf(0x0a, lineStart);
    if (lf === -1) lf = stream.length;
    for (const edit of redactLine(stream.subarray(lineStart, lf), options, tracker)) {
      edits.push({ start: edit.start + lineStart, end: edit.end + lineStart, replacement: edit.replacement });
    }
    lineStart = lf + 1;
  }
  if (edits.length === 0) return [...chunks];
  const out = applyEdits(stream, edits);
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (const chunk of chunks) {
    parts.push(out.subarray(mapOffset(edits, offset), mapOffset(edits, offset + chunk.length)));
    offset += chunk.length;
  }
  return parts;
}

/** A frame's `f` or a command's `c` held as text: it is JSON of its own, redacted as such. */
function redactInnerText(value: Record<string, unknown>, key: string, options: RedactionOptions): Record<string, unknown> {
  const inner = value[key];
  return typeof inner === "string" ? { ...value, [key]: redactJsonText(inner, options) } : value;
}

/** Redact a capture (already read without error) for an exported page. */
export function redactCaptureForExport(text: string, homes: readonly string[]): ExportRedaction {
  const options: RedactionOptions = { secrets: true, homes };
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const out: string[] = new Array<string>(lines.length);
  const bytesLines: BytesLine[] = [];
  let redacted: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.endsWith("\r") ? lines[i]!.slice(0, -1) : lines[i]!;
    if (i === 0) {
      const header = JSON.parse(redactJsonText(line, options)) as Record<string, unknown> & { redacted: string[]; pi?: { command: string[] } };
      if (header.pi !== undefined) header.pi = { ...header.pi, command: redactCommandLine(header.pi.command).map((arg) => redactHomes(arg, homes)) };
      redacted = [...new Set([...header.redacted, REDACTED_SECRETS, ...(homes.length > 0 ? [REDACTED_HOME] : [])])];
      header.redacted = redacted;
      out[0] = JSON.stringify(header);
      continue;
    }
    if (line.trim() === "") {
      out[i] = line;
      continue;
    }
    let value = JSON.parse(line) as Record<string, unknown>;
    if (value["k"] === "bytes") {
      bytesLines.push({ index: i, value, bytes: decodeBase64(value["b"] as string) ?? new Uint8Array(0) });
      continue;
    }
    if (value["k"] === "frame") value = redactInnerText(value, "f", options);
    else if (value["k"] === "sent") value = redactInnerText(value, "c", options);
    // Then every string of the line itself, whatever its kind (a note's text, a sender's name).
    out[i] = redactJsonText(JSON.stringify(value), options);
  }
  const parts = redactStream(
    bytesLines.map((b) => b.bytes),
    options,
  );
  bytesLines.forEach((b, n) => {
    out[b.index] = JSON.stringify({ ...b.value, b: encodeBase64(parts[n]!) });
  });
  return { text: `${out.join("\n")}\n`, redacted };
}
