// A folder held open while a change is made in it, so that the change lands in
// that very folder even if a folder on its path is swapped for a symbolic link
// meanwhile (checking a path and then using the path again is a race).
//
// Node has no openat/renameat/unlinkat. On Linux, though, a path of the form
// `/proc/self/fd/<fd>/<name>` resolves <name> in the folder the descriptor
// refers to: the kernel jumps to the descriptor's folder, it does not walk the
// path that was opened again. So every fs call handed such a path acts like its
// *at() counterpart. Verified on Linux 6.x with Node 22 (test/workspace/
// held-folder.test.ts): open with O_CREAT|O_EXCL|O_NOFOLLOW, rename within
// one held folder and between two, link, lstat, mkdir, unlink, rmdir and
// readdir all act in the held folder after its name was swapped for a link.
// A sub-folder is opened with O_DIRECTORY|O_NOFOLLOW relative to its held
// parent, so a walk from the workspace root never goes through a link (a link
// or a file there fails with ENOTDIR).
//
// Without /proc (not Linux, or /proc not mounted) a folder is only its path:
// each step is checked with lstat, and callers check again after the change
// (WorkspacePaths.changeAt). That narrows the window; it does not close it.
import { constants, existsSync } from "node:fs";
import { lstat, open, readdir, readlink, realpath, type FileHandle } from "node:fs/promises";
import { join } from "node:path";

export type HeldFolder = {
  /** Where the folder was (absolute, no link in it) when it was opened. */
  readonly path: string;
  /** The path to give an fs call so that it acts on `name` in this very folder (`name` has no "/"). */
  at(name: string): string;
  /** The names in the folder. */
  list(): Promise<string[]>;
  /** A sub-folder, never through a symbolic link: ENOTDIR for a link or a file, ENOENT when missing. */
  child(name: string): Promise<HeldFolder>;
  /** The folder's real path now, or null when it was deleted. */
  whereNow(): Promise<string | null>;
  close(): Promise<void>;
};

/** True where `/proc/self/fd/<fd>/<name>` pins the folder (Linux with /proc). */
export const FOLDERS_PINNED = process.platform === "linux" && existsSync("/proc/self/fd") && typeof constants.O_DIRECTORY === "number" && typeof constants.O_NOFOLLOW === "number";

const FOLDER_FLAGS = FOLDERS_PINNED ? constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW : 0;
const DELETED = " (deleted)";

/** Opens the folder at `absolute` (its last component must not be a link). */
export async function openFolder(absolute: string): Promise<HeldFolder> {
  if (!FOLDERS_PINNED) return PathFolder.open(absolute);
  return new PinnedFolder(await open(absolute, FOLDER_FLAGS), absolute);
}

/** The fallback where folders cannot be pinned (exported for its tests). */
export function openFolderByPath(absolute: string): Promise<HeldFolder> {
  return PathFolder.open(absolute);
}

class PinnedFolder implements HeldFolder {
  readonly path: string;
  readonly #handle: FileHandle;

  constructor(handle: FileHandle, path: string) {
    this.#handle = handle;
    this.path = path;
  }

  get #self(): string {
    return `/proc/self/fd/${this.#handle.fd}`;
  }

  at(name: string): string {
    return `${this.#self}/${name}`;
  }

  list(): Promise<string[]> {
    return readdir(this.#self);
  }

  async child(name: string): Promise<HeldFolder> {
    return new PinnedFolder(await open(this.at(name), FOLDER_FLAGS), join(this.path, name));
  }

  async whereNow(): Promise<string | null> {
    const where = await readlink(this.#self);
    return where.endsWith(DELETED) || !where.startsWith("/") ? null : where;
  }

  close(): Promise<void> {
    return this.#handle.close();
  }
}

class PathFolder implements HeldFolder {
  readonly path: string;

  private constructor(path: string) {
    this.path = path;
  }

  static async open(path: string): Promise<PathFolder> {
    const info = await lstat(path);
    if (!info.isDirectory()) throw notAFolder(path);
    return new PathFolder(path);
  }

  at(name: string): string {
    return join(this.path, name);
  }

  list(): Promise<string[]> {
    return readdir(this.path);
  }

  child(name: string): Promise<HeldFolder> {
    return PathFolder.open(this.at(name));
  }

  async whereNow(): Promise<string | null> {
    try {
      return await realpath(this.path);
    } catch {
      return null;
    }
  }

  async close(): Promise<void> {}
}

function notAFolder(path: string): Error {
  return Object.assign(new Error(`ENOTDIR: not a directory (or a symbolic link), open '${path}'`), { code: "ENOTDIR" });
}
