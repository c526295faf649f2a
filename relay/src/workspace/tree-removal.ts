// Deleting a folder and everything in it without ever following a symbolic
// link, even one swapped in while the deletion runs. fs.rm({recursive}) walks
// paths again and again, so a sub-folder replaced by a link to a folder
// outside would have that folder's files deleted. Here every step acts in a
// held folder (held-folder.ts): an entry is unlinked where it is (a file or a
// link: the link itself goes), and only an entry that the kernel itself opens
// as a folder, with O_NOFOLLOW, is descended into.
import { rmdir, unlink } from "node:fs/promises";
import type { HeldFolder } from "./held-folder.ts";
import { errnoCode } from "./workspace-error.ts";

/** Attempts per entry when it keeps changing kind under the walk (file ⇄ folder). */
const ATTEMPTS = 5;

export type RemovalGuard = (folder: HeldFolder) => Promise<void>;

/**
 * Removes `name` in `parent`, whatever it is. `guard` is called on each
 * folder opened on the way (to check where it really is) before anything in
 * it is removed. Entries that vanish meanwhile are fine.
 */
export async function removeEntry(parent: HeldFolder, name: string, guard: RemovalGuard): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    let refused: unknown;
    try {
      await unlink(parent.at(name));
      return;
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ENOENT") return;
      // Linux answers EISDIR for a folder; other systems EPERM.
      if (code !== "EISDIR" && code !== "EPERM") throw error;
      refused = error;
    }
    let child: HeldFolder;
    try {
      child = await parent.child(name);
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ENOENT") return;
      if (code !== "ENOTDIR" && code !== "ELOOP") throw error;
      // Not a folder: either unlink was refused for what it is (EPERM), or it
      // was a folder a moment ago and is a file or a link now (unlink it as that).
      if (errnoCode(refused) === "EPERM" || attempt >= ATTEMPTS) throw refused;
      continue;
    }
    try {
      await guard(child);
      for (const entry of await child.list()) await removeEntry(child, entry, guard);
    } finally {
      await child.close().catch(() => {});
    }
    try {
      await rmdir(parent.at(name));
      return;
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ENOENT") return;
      // Something was added meanwhile, or the folder was swapped for a link or a file: go round again.
      if ((code === "ENOTEMPTY" || code === "EEXIST" || code === "ENOTDIR") && attempt < ATTEMPTS) continue;
      throw error;
    }
  }
}
