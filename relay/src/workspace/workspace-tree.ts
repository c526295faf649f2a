// The file tree: depth-first, folders first then by name at each level,
// never following a symbolic link, hiding ".git" and what git ignores,
// bounded in entries.
import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { WorkspaceEntry } from "@pier/protocol";
import type { GitignoreRules } from "./gitignore-rules.ts";

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

export function compareNames(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

type Candidate = { name: string; rel: string; type: WorkspaceEntry["type"] };

export async function listTree(rootReal: string, rules: GitignoreRules, maxEntries: number): Promise<{ entries: WorkspaceEntry[]; truncated: boolean }> {
  const entries: WorkspaceEntry[] = [];
  let truncated = false;

  const walk = async (dirRel: string): Promise<void> => {
    let dirents: Dirent[];
    try {
      dirents = await readdir(join(rootReal, dirRel), { withFileTypes: true });
    } catch {
      return; // Vanished or unreadable: list what can be listed.
    }
    const candidates: Candidate[] = [];
    for (const dirent of dirents) {
      const name = dirent.name;
      if (name.toLowerCase() === ".git") continue;
      const type = await entryType(dirent, join(rootReal, dirRel, name));
      if (!type) continue;
      const rel = dirRel === "" ? name : `${dirRel}/${name}`;
      if (await rules.isIgnoredEntry(rel, type === "dir")) continue;
      candidates.push({ name, rel, type });
    }
    candidates.sort((a, b) => ((a.type === "dir") === (b.type === "dir") ? compareNames(a.name, b.name) : a.type === "dir" ? -1 : 1));
    const sizes = await Promise.all(
      candidates.map(async (candidate) => {
        if (candidate.type !== "file") return 0;
        try {
          return (await lstat(join(rootReal, candidate.rel))).size;
        } catch {
          return 0;
        }
      }),
    );
    for (const [index, candidate] of candidates.entries()) {
      if (entries.length >= maxEntries) {
        truncated = true;
        return;
      }
      entries.push({ path: candidate.rel, type: candidate.type, size: sizes[index] ?? 0 });
      if (candidate.type === "dir") {
        await walk(candidate.rel);
        if (truncated) return;
      }
    }
  };

  await walk("");
  return { entries, truncated };
}

/** file, dir or symlink (never followed); null for FIFOs, sockets, devices and vanished entries. */
async function entryType(dirent: Dirent, absolute: string): Promise<WorkspaceEntry["type"] | null> {
  let info: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean } = dirent;
  if (!dirent.isFile() && !dirent.isDirectory() && !dirent.isSymbolicLink() && !dirent.isFIFO() && !dirent.isSocket()) {
    // Some file systems do not report the type in readdir.
    try {
      info = await lstat(absolute);
    } catch {
      return null;
    }
  }
  if (info.isSymbolicLink()) return "symlink";
  if (info.isDirectory()) return "dir";
  if (info.isFile()) return "file";
  return null;
}
