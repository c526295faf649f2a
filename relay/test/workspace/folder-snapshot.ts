// Test support: everything under a folder (names, kinds, sizes, inodes,
// change times and file contents), to show that nothing there was created,
// changed, renamed or deleted.
import { lstat, readFile, readdir } from "node:fs/promises";
import { join } from "node:path";

export type FolderSnapshot = Record<string, string>;

export async function snapshotFolder(dir: string, prefix = ""): Promise<FolderSnapshot> {
  const result: FolderSnapshot = {};
  for (const name of (await readdir(dir)).sort()) {
    const full = join(dir, name);
    const info = await lstat(full);
    const kind = info.isSymbolicLink() ? "link" : info.isDirectory() ? "dir" : info.isFile() ? "file" : "other";
    const content = info.isFile() ? JSON.stringify(await readFile(full, "utf8")) : "";
    result[prefix + name] = `${kind} size=${info.size} ino=${info.ino} ctime=${info.ctimeMs} ${content}`;
    if (kind === "dir") Object.assign(result, await snapshotFolder(full, `${prefix}${name}/`));
  }
  return result;
}

/** "created x", "removed y", "changed z" for each entry that differs. */
export function snapshotDifferences(before: FolderSnapshot, after: FolderSnapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  const found: string[] = [];
  for (const name of [...names].sort()) {
    if (before[name] === after[name]) continue;
    found.push(before[name] === undefined ? `created ${name}` : after[name] === undefined ? `removed ${name}` : `changed ${name}`);
  }
  return found;
}
