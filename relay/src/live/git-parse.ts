// Pure readers of git's machine output for the worktree routes (worktrees.ts),
// all in their `-z` forms (paths NUL-terminated, never quoted), and where a
// worktree goes.
import { basename, dirname, join } from "node:path";
import type { LiveDiffEntry, LiveDiffStatus } from "@pier/protocol";

export type NameStatus = { status: LiveDiffStatus; path: string; from?: string };

/** `git diff --name-status -z`: "M\0path\0", "R100\0from\0to\0"; T (type change) counts as modified; C (copy) as added. */
export function parseNameStatusZ(output: string): NameStatus[] {
  const parts = output.split("\0");
  const entries: NameStatus[] = [];
  for (let i = 0; i < parts.length; i++) {
    const code = parts[i]!;
    if (code === "") continue;
    const letter = code[0]!;
    if (letter === "R" || letter === "C") {
      const from = parts[++i] ?? "";
      const path = parts[++i] ?? "";
      entries.push(letter === "R" ? { status: "renamed", path, from } : { status: "added", path });
      continue;
    }
    const path = parts[++i] ?? "";
    const status: LiveDiffStatus | null = letter === "A" ? "added" : letter === "D" ? "deleted" : letter === "M" || letter === "T" ? "modified" : null;
    if (status !== null) entries.push({ status, path });
  }
  return entries;
}

export type LineCounts = { added: number | null; deleted: number | null; binary: boolean };

/** `git diff --numstat -z`: "12\t3\tpath\0", a rename "1\t0\t\0from\0to\0", a binary file "-\t-\t…": counts by (new) path. */
export function parseNumstatZ(output: string): Map<string, LineCounts> {
  const parts = output.split("\0");
  const counts = new Map<string, LineCounts>();
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i]!;
    if (entry === "") continue;
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(entry);
    if (match === null) continue;
    let path = match[3]!;
    // A rename: the paths follow as their own fields, old then new.
    if (path === "") {
      i++;
      path = parts[++i] ?? "";
    }
    const binary = match[1] === "-" && match[2] === "-";
    counts.set(path, { added: binary ? null : Number(match[1]), deleted: binary ? null : Number(match[2]), binary });
  }
  return counts;
}

/** Name-status entries with their line counts (a file git lists in only one of them keeps null counts). */
export function joinDiff(entries: readonly NameStatus[], counts: ReadonlyMap<string, LineCounts>): LiveDiffEntry[] {
  return entries.map((entry) => {
    const count = counts.get(entry.path) ?? { added: null, deleted: null, binary: false };
    return { ...entry, added: count.added, deleted: count.deleted, binary: count.binary, untracked: false };
  });
}

/** Totals over the listed files (binary files count as changed files with no lines). */
export function diffTotals(files: readonly LiveDiffEntry[]): { files: number; added: number; deleted: number } {
  return files.reduce((sum, file) => ({ files: sum.files + 1, added: sum.added + (file.added ?? 0), deleted: sum.deleted + (file.deleted ?? 0) }), { files: 0, added: 0, deleted: 0 });
}

/**
 * `git merge-tree --write-tree --name-only -z` (git >= 2.38): the merged
 * tree's id, then on a conflict the conflicted paths, an empty field, and
 * git's informational messages. `conflicted` is git's verdict (exit code 1).
 */
export function parseMergeTreeZ(output: string, conflicted: boolean): { tree: string; conflicts: string[] } {
  const parts = output.split("\0");
  const tree = parts[0]!.trim();
  if (!conflicted) return { tree, conflicts: [] };
  const conflicts: string[] = [];
  for (let i = 1; i < parts.length && parts[i] !== ""; i++) if (!conflicts.includes(parts[i]!)) conflicts.push(parts[i]!);
  return { tree, conflicts };
}

/** `git status --porcelain=v1 -z --untracked-files=all`: every path that has uncommitted changes (a rename's new path). */
export function parsePorcelainPathsZ(output: string): string[] {
  const parts = output.split("\0");
  const paths: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i]!;
    if (entry.length < 4) continue;
    paths.push(entry.slice(3));
    // A rename or copy names its old path in the next field.
    if (entry[0] === "R" || entry[0] === "C") i++;
  }
  return paths;
}

/** `git log --format=%H%x00%s%x00`: commits and subjects. */
export function parseLogZ(output: string): { commit: string; subject: string }[] {
  const parts = output.split("\0").map((part) => part.replace(/^\n/, ""));
  const commits: { commit: string; subject: string }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) if (/^[0-9a-f]{40,64}$/.test(parts[i]!)) commits.push({ commit: parts[i]!, subject: parts[i + 1]! });
  return commits;
}

/** A branch name as one folder name: "feature/login" → "feature-login". */
export function branchFolderName(branch: string): string {
  return branch.replaceAll("/", "-");
}

/**
 * Where a branch's worktree goes: beside the repository, in
 * `<parent>/<repo name>.worktrees/<branch>`; with pier's `--worktrees DIR`,
 * in `DIR/<repo name>/<branch>`.
 */
export function worktreeLocation(repoTop: string, branch: string, worktreesDir: string | null): string {
  const name = basename(repoTop);
  return worktreesDir === null ? join(dirname(repoTop), `${name}.worktrees`, branchFolderName(branch)) : join(worktreesDir, name, branchFolderName(branch));
}
