// Reading one regular file safely: lstat first (a FIFO is never opened),
// open with O_NOFOLLOW | O_NONBLOCK, fstat the descriptor, bounded reads.
// A file's version is the sha256 of its bytes.
//
// A file with more than one hard link is not read: the other names may be
// outside the workspace (anyone who can write in the workspace can hard-link
// ~/.ssh/id_rsa into it), and nothing tells where a file's other names are
// short of searching every folder of the file system. The check is on the
// open descriptor, so it is about the very file that would be read.
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, type FileHandle } from "node:fs/promises";
import { WORKSPACE_LIMITS } from "@pier/protocol";
import { WorkspaceError, fromFsError } from "./workspace-error.ts";

export const MAX_EDITABLE_BYTES = WORKSPACE_LIMITS.maxEditableBytes;
/** The binary sniff looks at this many leading bytes for a NUL. */
export const SNIFF_BYTES = 8192;
/** Above this, a too-large file's version hashes its identity (size, mtime, inode) instead of its bytes. */
export const MAX_HASHED_BYTES = 64 * 1024 * 1024;

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export type FileSnapshot = {
  size: number;
  version: string;
  /** The text, or null for a binary or too-large file. */
  text: string | null;
  reason: "binary" | "too_large" | null;
  /** Permission bits and owner, to keep across an atomic replace. */
  mode: number;
  uid: number;
  gid: number;
};

export function versionOf(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Text when the bytes are valid UTF-8 without NUL in the first SNIFF_BYTES; a BOM is kept. */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

export function describeKind(info: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isSymbolicLink(): boolean }): string {
  if (info.isDirectory()) return "a folder";
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isSocket()) return "a socket";
  if (info.isSymbolicLink()) return "a symbolic link";
  return "a device or other special file";
}

export function hardLinked(rel: string, links: number): WorkspaceError {
  return new WorkspaceError(
    403,
    "hard_link_refused",
    `${JSON.stringify(rel)} has ${links - 1} other hard link${links === 2 ? "" : "s"}; Pier does not open hard-linked files, they may point outside the workspace.`,
  );
}

export function notRegular(rel: string, kind: string): WorkspaceError {
  return new WorkspaceError(415, "not_regular_file", `${JSON.stringify(rel)} is ${kind}, not a regular file.`);
}

/**
 * Reads `absolute` (a path with no symbolic link in its last component),
 * refusing anything but a regular file with a single link. `checkOpened`
 * verifies where the descriptor really points.
 */
export async function readRegularFile(absolute: string, rel: string, checkOpened: (fd: number) => Promise<void>): Promise<FileSnapshot> {
  return withRegularFile(absolute, rel, checkOpened, async (snapshot) => snapshot);
}

/**
 * Like readRegularFile, and `use` is given the file still open (a save checks
 * that the very file it read is unchanged when it replaces it: checked-replace.ts).
 */
export async function withRegularFile<T>(absolute: string, rel: string, checkOpened: (fd: number) => Promise<void>, use: (snapshot: FileSnapshot, handle: FileHandle) => Promise<T>): Promise<T> {
  let handle: FileHandle;
  try {
    const before = await lstat(absolute);
    if (!before.isFile()) throw notRegular(rel, describeKind(before));
    handle = await open(absolute, READ_FLAGS);
  } catch (error) {
    throw fromFsError(error, rel);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw notRegular(rel, describeKind(info));
    if (info.nlink > 1) throw hardLinked(rel, info.nlink);
    await checkOpened(handle.fd);
    const base = { size: info.size, mode: info.mode & 0o7777, uid: info.uid, gid: info.gid };
    let snapshot: FileSnapshot;
    if (info.size > MAX_EDITABLE_BYTES) {
      const version = info.size <= MAX_HASHED_BYTES ? await hashHandle(handle) : createHash("sha256").update(`identity:${info.size}:${info.mtimeMs}:${info.ino}`).digest("hex");
      snapshot = { ...base, version, text: null, reason: "too_large" };
    } else {
      const bytes = await readAtMost(handle, MAX_EDITABLE_BYTES + 1);
      if (bytes.length > MAX_EDITABLE_BYTES) {
        // It grew while being read.
        snapshot = { ...base, size: bytes.length, version: await hashHandle(handle), text: null, reason: "too_large" };
      } else {
        const text = decodeText(bytes);
        snapshot = { ...base, size: bytes.length, version: versionOf(bytes), text, reason: text === null ? "binary" : null };
      }
    }
    return await use(snapshot, handle);
  } catch (error) {
    throw fromFsError(error, rel);
  } finally {
    await handle.close();
  }
}

async function readAtMost(handle: FileHandle, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const buffer = Buffer.allocUnsafe(Math.min(64 * 1024, limit - total));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, total);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/** The sha256 of what an open file holds now, from its first byte (its version, for a file up to MAX_HASHED_BYTES). */
export async function hashHandle(handle: FileHandle): Promise<string> {
  const hash = createHash("sha256");
  const buffer = Buffer.allocUnsafe(256 * 1024);
  let position = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
    if (position > MAX_HASHED_BYTES) break;
  }
  return hash.digest("hex");
}
