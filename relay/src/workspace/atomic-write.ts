// Writes a whole file so that no reader ever sees half of it: the bytes go to
// a temporary file in the same folder, then rename() swaps it in (replace) or
// link() puts it in place only if nothing is there yet (create, no clobber).
// Every step names its file in one held folder (folder.at), so the temporary
// file, the rename and the link all happen in that folder, whatever happens
// to the path that led to it. rename() replaces the name, not the file: when
// the old file had other hard links, they keep the old bytes.
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { link, open, rename, unlink } from "node:fs/promises";
import type { HeldFolder } from "./held-folder.ts";
import { errnoCode } from "./workspace-error.ts";

export const TEMP_PREFIX = ".pier-save-";
export const TEMP_SUFFIX = ".tmp";

/** True for the names of this module's temporary files (the watcher skips them). */
export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX);
}

const NEW_FILE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export type KeptAttributes = { mode: number; uid: number; gid: number };

/**
 * `keep` null: create `name` in `folder`, failing with EEXIST if anything
 * exists there. Otherwise replace it, keeping its mode (and owner, when allowed).
 */
export async function writeFileAtomic(folder: Pick<HeldFolder, "at">, name: string, bytes: Uint8Array, keep: KeptAttributes | null): Promise<void> {
  const full = folder.at(name);
  const temp = await writeTempFile(folder, name, bytes, keep);
  let placed = false;
  try {
    if (keep) {
      await rename(temp, full);
      placed = true;
    } else {
      try {
        await link(temp, full);
      } catch (error) {
        const code = errnoCode(error);
        if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "EMLINK") throw error;
        // No hard links on this file system: exclusive create, then write.
        await writeExclusive(full, bytes);
      }
    }
  } finally {
    if (!placed) await unlink(temp).catch(() => {});
  }
}

/** A name in `name`'s folder for a file of this module's (skipped by the watcher: isTempName). */
export function tempNameFor(name: string): string {
  return `${TEMP_PREFIX}${randomBytes(6).toString("hex")}-${name.slice(0, 40)}${TEMP_SUFFIX}`;
}

/**
 * `bytes` written and flushed to a new temporary file next to `name`, with
 * `keep`'s mode and owner (private until then when there is one): its path,
 * ready to be renamed or linked into place.
 */
export async function writeTempFile(folder: Pick<HeldFolder, "at">, name: string, bytes: Uint8Array, keep: KeptAttributes | null): Promise<string> {
  const temp = folder.at(tempNameFor(name));
  const handle = await open(temp, NEW_FILE_FLAGS, keep ? 0o600 : 0o666);
  try {
    await handle.writeFile(bytes);
    if (keep) {
      await handle.chmod(keep.mode);
      if (typeof process.getuid === "function" && process.getuid() === 0 && (keep.uid !== 0 || keep.gid !== 0)) {
        await handle.chown(keep.uid, keep.gid).catch(() => {});
      }
    }
    await handle.datasync();
    await handle.close();
    return temp;
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
}

async function writeExclusive(full: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(full, NEW_FILE_FLAGS, 0o666);
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
}

/** An empty new file at `full` (a held folder's `at`); EEXIST if anything (even a dangling symbolic link) is there. */
export async function createEmptyFile(full: string): Promise<void> {
  const handle = await open(full, NEW_FILE_FLAGS, 0o666);
  await handle.close();
}
