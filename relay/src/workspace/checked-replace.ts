// Replacing a file only if it still holds the version the edit was based on,
// against writers Pier does not control: pi's write and edit tools (which
// open the file with O_TRUNC and write in place), an editor, a build. There
// is no compare-and-swap for a file, and checking the version and then
// renaming the new bytes over it left a gap (the new bytes' write and fsync
// sat in it: milliseconds) in which the agent's write landed and was then
// replaced, unseen by anyone: the save said "saved", the disk held the
// user's text, and the agent's change was gone.
//
// So the gap is closed from both sides:
// - the slow part (writing and flushing the new bytes) happens before the
//   last look, which is made through the very descriptor the version was
//   read from (its content hashed again, not its mtime, whose ticks can be
//   coarser than a fast rewrite), just before the rename;
// - the file being replaced keeps a second name until the rename is done,
//   and is looked at once more after it: a write that got into it meanwhile
//   (opened before the rename, as pi's are) means it goes back in place,
//   the agent's bytes with it (and any it is still writing), and the save
//   reports a conflict.
// What is left: a writer that replaces the file by rename() in the two
// system calls between the second name's check and our rename (editors and
// git, not pi's tools) — rename() over a name cannot be made conditional
// from Node (no RENAME_EXCHANGE).
import type { FileHandle } from "node:fs/promises";
import { link, lstat, rename, unlink } from "node:fs/promises";
import { tempNameFor, writeTempFile, type KeptAttributes } from "./atomic-write.ts";
import { hashHandle } from "./file-content.ts";
import type { HeldFolder } from "./held-folder.ts";
import { errnoCode } from "./workspace-error.ts";

/** Codes of a file system without hard links: the save goes on without the second name (and cannot undo a write caught late). */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "EMLINK", "EXDEV"]);

/**
 * Puts `bytes` in place of `name` if the file `opened` (open on `name`,
 * read at `baseVersion`) still holds that version all the way through.
 * "changed" when another writer got there first: nothing of ours is left
 * on disk then, and theirs is in place (on a file system without hard links,
 * a write caught only after the rename cannot be put back: the conflict is
 * still reported, so the person sees both). `beforeReplace`: tests' hook, at
 * the last moment before the rename.
 */
export async function replaceIfUnchanged(
  folder: Pick<HeldFolder, "at">,
  name: string,
  bytes: Uint8Array,
  opened: FileHandle,
  baseVersion: string,
  keep: KeptAttributes,
  beforeReplace?: () => Promise<void>,
): Promise<"replaced" | "changed"> {
  const full = folder.at(name);
  const temp = await writeTempFile(folder, name, bytes, keep);
  let second: string | null = folder.at(tempNameFor(name));
  let placed = false;
  try {
    try {
      await link(full, second);
    } catch (error) {
      const code = errnoCode(error);
      second = null;
      if (code === "ENOENT") return "changed";
      if (!NO_HARD_LINKS.has(code ?? "")) throw error;
    }
    // The name still leads to the file we read (not one renamed over it since)…
    if (second !== null && !(await sameFile(second, opened))) return "changed";
    // …and that file still holds the version the edit was based on.
    if ((await hashHandle(opened)) !== baseVersion) return "changed";
    await beforeReplace?.();
    await rename(temp, full);
    placed = true;
    if ((await hashHandle(opened)) === baseVersion) return "replaced";
    // Written between the last look and the rename: theirs goes back, ours goes.
    if (second !== null) {
      await rename(second, full);
      second = null;
    }
    return "changed";
  } finally {
    if (!placed) await unlink(temp).catch(() => {});
    if (second !== null) await unlink(second).catch(() => {});
  }
}

async function sameFile(path: string, handle: FileHandle): Promise<boolean> {
  const [byName, byHandle] = await Promise.all([lstat(path), handle.stat()]);
  return byName.ino === byHandle.ino && byName.dev === byHandle.dev;
}
