// A first look at a file given to `pier replay`, before anything is served:
// it must be a readable regular file, not too large, whose first line is a
// Pier capture header of a version this Pier reads. The page checks every
// line again (web/src/lib/inspector/capture.ts); this only turns the obvious
// mistakes (a typo, a session file, a log) into one sentence at the prompt.
import { open } from "node:fs/promises";
import { basename } from "node:path";

export const CAPTURE_TYPE = "pier-capture";
export const CAPTURE_VERSION = 1;
/** The page refuses larger files (its reader's limit). */
export const MAX_CAPTURE_BYTES = 256 * 1024 * 1024;
/** A header is a few hundred bytes; this much is read to find its end. */
const HEADER_PROBE_BYTES = 64 * 1024;

export type CaptureFileCheck = { ok: true; name: string; size: number } | { ok: false; message: string };

export async function checkCaptureFile(path: string): Promise<CaptureFileCheck> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: false, message: `${path}: no such file` };
    if (code === "EACCES" || code === "EPERM") return { ok: false, message: `${path}: not readable (permission denied)` };
    if (code === "EISDIR") return { ok: false, message: `${path} is a folder, not a capture file` };
    return { ok: false, message: `${path}: cannot be opened (${code ?? String(error)})` };
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return { ok: false, message: `${path} is a folder, not a capture file` };
    if (!info.isFile()) return { ok: false, message: `${path} is not a regular file` };
    if (info.size === 0) return { ok: false, message: `${path} is empty, not a Pier capture` };
    if (info.size > MAX_CAPTURE_BYTES) return { ok: false, message: `${path} is larger than ${MAX_CAPTURE_BYTES / 1024 / 1024} MiB, more than Pier replays` };
    const buffer = Buffer.alloc(Math.min(HEADER_PROBE_BYTES, info.size));
    let read;
    try {
      ({ bytesRead: read } = await handle.read(buffer, 0, buffer.length, 0));
    } catch (error) {
      // A folder on some systems, a device that refuses reads…
      return { ok: false, message: `${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
    }
    const text = buffer.subarray(0, read).toString("utf8");
    const end = text.indexOf("\n");
    const problem = headerProblem(end === -1 ? (read < info.size ? null : text) : text.slice(0, end).replace(/\r$/, ""));
    if (problem !== null) return { ok: false, message: `${path} is not a Pier capture: ${problem}` };
    return { ok: true, name: basename(path), size: info.size };
  } finally {
    await handle.close();
  }
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
  if (version !== CAPTURE_VERSION) return `capture version ${JSON.stringify(version)} is not supported (this Pier reads version ${CAPTURE_VERSION})`;
  return null;
}
