// A first look at a file given to `pier replay`, before anything is served:
// it must be a readable regular file, not too large, whose first line is a
// Pier capture header of a version this Pier reads. The page checks every
// line again (web/src/lib/wire-log/capture.ts); this only turns the obvious
// mistakes (a typo, a session file, a log) into one sentence at the prompt.
// The file is opened once, without blocking (a named pipe would wait for a
// writer forever), and the server then sends from that very descriptor: the
// name is never opened again, so it cannot be swapped for a pipe or another
// file after the check.
import type { FileHandle } from "node:fs/promises";
import { basename } from "node:path";
import { openRegularFile } from "./regular-file.ts";

export const CAPTURE_TYPE = "pier-capture";
/** Versions the page reads: 1, and 2 (a capture with a guided walk's notes). */
export const CAPTURE_VERSIONS: readonly unknown[] = [1, 2];
/** The page refuses larger files (its reader's limit). */
export const MAX_CAPTURE_BYTES = 256 * 1024 * 1024;
/** A header is a few hundred bytes; this much is read to find its end. */
const HEADER_PROBE_BYTES = 64 * 1024;

/** On success the caller owns `handle` (the opened capture) and closes it. */
export type CaptureFileCheck = { ok: true; name: string; size: number; handle: FileHandle } | { ok: false; message: string };

export async function checkCaptureFile(path: string): Promise<CaptureFileCheck> {
  const opened = await openRegularFile(path, { what: "a capture file" });
  if (!opened.ok) return { ok: false, message: opened.message };
  const { handle, stats: info } = opened;
  const refuse = async (message: string): Promise<CaptureFileCheck> => {
    await handle.close();
    return { ok: false, message };
  };
  if (info.size === 0) return refuse(`${path} is empty, not a Pier capture`);
  if (info.size > MAX_CAPTURE_BYTES) return refuse(`${path} is larger than ${MAX_CAPTURE_BYTES / 1024 / 1024} MiB, more than Pier replays`);
  const buffer = Buffer.alloc(Math.min(HEADER_PROBE_BYTES, info.size));
  let read;
  try {
    ({ bytesRead: read } = await handle.read(buffer, 0, buffer.length, 0));
  } catch (error) {
    return refuse(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const text = buffer.subarray(0, read).toString("utf8");
  const end = text.indexOf("\n");
  const problem = headerProblem(end === -1 ? (read < info.size ? null : text) : text.slice(0, end).replace(/\r$/, ""));
  if (problem !== null) return refuse(`${path} is not a Pier capture: ${problem}`);
  return { ok: true, name: basename(path), size: info.size, handle };
}

/** Why this first line is not a capture header we read, or null when it is. */
export function headerProblem(line: string | null): string | null {
  if (line === null) return "its first line is longer than a capture header";
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return "its first line is not JSON";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || (value as { type?: unknown }).type !== CAPTURE_TYPE) {
    return `its first line is not a capture header (type "${CAPTURE_TYPE}")`;
  }
  const version = (value as { version?: unknown }).version;
  if (!CAPTURE_VERSIONS.includes(version)) return `capture version ${JSON.stringify(version)} is not supported (this Pier reads versions ${CAPTURE_VERSIONS.join(" and ")})`;
  return null;
}
