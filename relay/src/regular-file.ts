// Opening a file Pier was told to read (a capture, a session file) so that
// nothing can make it wait forever or read the wrong thing:
// - O_NONBLOCK: opening a named pipe for reading otherwise waits for a writer
//   that never comes (`pier replay <FIFO>` hung with no word). On a regular
//   file the flag changes nothing.
// - the kind is checked with fstat on the open descriptor, so it is about the
//   very file that will be read, not about a name looked at earlier (a name
//   can be swapped for a pipe or a link between a stat and an open);
// - O_NOFOLLOW when asked: a last component that is a symbolic link fails
//   with ELOOP instead of being followed.
// The caller then reads from the descriptor it was given, never the name again.
import { closeSync, constants, fstatSync, openSync, type Stats } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";

const NONBLOCKING = constants.O_RDONLY | constants.O_NONBLOCK;
const NONBLOCKING_NOFOLLOW = NONBLOCKING | constants.O_NOFOLLOW;

export type OpenOptions = {
  /** What the file should be, for the sentence: "a capture file", "a session file". */
  what: string;
  /** Refuse a symbolic link as the last component instead of following it. */
  noFollow?: boolean;
};

/** A refusal: `code` is an errno code, or "not_regular" with `kind` saying what the file is instead. */
export type NotOpened = { ok: false; code: string; message: string; kind?: string };
export type OpenedFile = { ok: true; handle: FileHandle; stats: Stats } | NotOpened;
export type OpenedFileSync = { ok: true; fd: number; stats: Stats } | NotOpened;

/** Opens `path` for reading if it is a regular file; otherwise one sentence saying what it is. */
export async function openRegularFile(path: string, options: OpenOptions): Promise<OpenedFile> {
  let handle: FileHandle;
  try {
    handle = await open(path, options.noFollow ? NONBLOCKING_NOFOLLOW : NONBLOCKING);
  } catch (error) {
    return refusedOpen(path, error, options);
  }
  try {
    const stats = await handle.stat();
    if (stats.isFile()) return { ok: true, handle, stats };
    await handle.close();
    return notRegular(path, stats, options.what);
  } catch (error) {
    await handle.close().catch(() => {});
    return { ok: false, code: errnoCode(error) ?? "EIO", message: `${path} cannot be read (${errnoCode(error) ?? String(error)})` };
  }
}

/** The synchronous twin, for checks that must answer before the next command is read. */
export function openRegularFileSync(path: string, options: OpenOptions): OpenedFileSync {
  let fd: number;
  try {
    fd = openSync(path, options.noFollow ? NONBLOCKING_NOFOLLOW : NONBLOCKING);
  } catch (error) {
    return refusedOpen(path, error, options);
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isFile()) return { ok: true, fd, stats };
    closeSync(fd);
    return notRegular(path, stats, options.what);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {}
    return { ok: false, code: errnoCode(error) ?? "EIO", message: `${path} cannot be read (${errnoCode(error) ?? String(error)})` };
  }
}

/** "a named pipe (FIFO)", "a folder", …: what a file that is not a regular file is. */
export function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

function notRegular(path: string, stats: Stats, what: string): NotOpened {
  const kind = kindOf(stats);
  return { ok: false, code: "not_regular", kind, message: `${path} is ${kind}, not ${what}` };
}

function refusedOpen(path: string, error: unknown, options: OpenOptions): NotOpened {
  const code = errnoCode(error) ?? "EIO";
  const message =
    code === "ENOENT" || code === "ENOTDIR"
      ? `${path}: no such file`
      : code === "EACCES" || code === "EPERM"
        ? `${path}: not readable (permission denied)`
        : code === "ELOOP" && options.noFollow
          ? `${path} is a symbolic link, not ${options.what}; give the file it points to`
          : code === "ELOOP"
            ? `${path} goes through a loop of symbolic links`
            : code === "ENXIO"
              ? `${path} is a socket (or a device that is not there), not ${options.what}`
              : `${path}: cannot be opened (${code})`;
  return { ok: false, code, message };
}

export function errnoCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/**
 * The whole text of a regular file of at most `maxBytes`, read from the
 * descriptor that was checked; otherwise a sentence (a named pipe is never
 * waited on, a huge file never read into memory).
 */
export async function readRegularTextFile(path: string, options: OpenOptions & { maxBytes: number }): Promise<{ ok: true; text: string } | NotOpened> {
  const opened = await openRegularFile(path, options);
  if (!opened.ok) return opened;
  const { handle, stats } = opened;
  try {
    if (stats.size > options.maxBytes) return { ok: false, code: "too_large", message: `${path} is larger than ${options.maxBytes} bytes, too large for ${options.what}` };
    const buffer = Buffer.alloc(stats.size);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return { ok: true, text: buffer.subarray(0, length).toString("utf8") };
  } catch (error) {
    return { ok: false, code: errnoCode(error) ?? "EIO", message: `${path} cannot be read (${errnoCode(error) ?? String(error)})` };
  } finally {
    await handle.close().catch(() => {});
  }
}
