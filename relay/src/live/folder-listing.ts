// The folder chooser's listing: the folders inside one folder of this
// machine (for a driver picking a workspace), never the files, capped.
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { FolderListing } from "@pier/protocol";

/** Folders listed at most (a huge folder still answers quickly). */
export const MAX_FOLDERS = 1000;

export type ListingRefusal = { status: 400 | 403 | 404; message: string };

export async function listFolders(pathInput: string): Promise<FolderListing | ListingRefusal> {
  if (!isAbsolute(pathInput) || pathInput.includes("\0")) return { status: 400, message: "give an absolute folder path" };
  const path = resolve(pathInput);
  let entries: Dirent[];
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { status: 404, message: `${path} does not exist` };
    if (code === "ENOTDIR") return { status: 400, message: `${path} is a file, not a folder` };
    if (code === "EACCES" || code === "EPERM") return { status: 403, message: `${path} cannot be read (permission denied)` };
    return { status: 400, message: `${path} cannot be listed (${code ?? String(error)})` };
  }
  const folders: FolderListing["folders"] = [];
  let truncated = false;
  for (const entry of entries) {
    if (folders.length >= MAX_FOLDERS) {
      truncated = true;
      break;
    }
    const full = join(path, entry.name);
    // A link to a folder is offered too (where it leads is checked when it is chosen).
    const isFolder =
      entry.isDirectory() ||
      (entry.isSymbolicLink() &&
        (await stat(full).then(
          (s) => s.isDirectory(),
          () => false,
        )));
    if (!isFolder) continue;
    folders.push({ name: entry.name, path: full, hidden: entry.name.startsWith("."), repository: false });
  }
  folders.sort((a, b) => Number(a.hidden) - Number(b.hidden) || a.name.localeCompare(b.name));
  // Which are repositories: one look each, for the few a person sees first.
  await Promise.all(
    folders.slice(0, 200).map(
      async (folder) =>
        (folder.repository = await stat(join(folder.path, ".git")).then(
          () => true,
          () => false,
        )),
    ),
  );
  const parent = dirname(path);
  return { path, parent: parent === path ? null : parent, folders, truncated };
}
