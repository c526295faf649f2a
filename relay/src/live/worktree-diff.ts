// A worktree's changes against the merge-base with its base: what its agent
// committed, staged, left unstaged, and new files git does not know yet
// (untracked, ignored ones left out) — the whole of the agent's work. And
// one file's two sides for a side-by-side diff, with size caps and binary
// detection. Reads only: no index refresh is written (--no-optional-locks),
// no textconv or external diff runs.
import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { join } from "node:path";
import { WORKSPACE_LIMITS, type LiveDiff, type LiveDiffEntry, type LiveDiffText, type LiveFileText } from "@pier/protocol";
import { decodeText, readRegularFile } from "../workspace/file-content.ts";
import { checkViewerMayRead } from "../workspace/viewer-reads.ts";
import { WorkspaceError } from "../workspace/workspace-error.ts";
import { toRelative, validatePath, WorkspacePaths } from "../workspace/workspace-paths.ts";
import { diffTotals, joinDiff, parseNameStatusZ, parseNumstatZ } from "./git-parse.ts";
import { firstLine, gitWords, runGit } from "./git-run.ts";
import { baseRef, cardWorktree, gone, refusal, worktreePresent, type WorktreeRecord, type WorktreeRefusal } from "./worktrees.ts";

/** Files listed at most; past it the diff says `truncated`. */
export const MAX_DIFF_FILES = 2000;
/** Bytes of an untracked file read to count its lines; larger ones count as binary-like (no line counts). */
const MAX_COUNTED_BYTES = 4 * 1024 * 1024;
/** Untracked files read at once. */
const COUNT_AT_ONCE = 8;
/** git's own rule: a NUL in the first 8000 bytes makes a file binary. */
const BINARY_SNIFF = 8000;

const READ_ONLY = ["--no-optional-locks"];
const DIFF_FLAGS = ["--no-ext-diff", "--no-textconv", "--no-color", "-M"];

type DiffRun = { guarded: boolean };

/** The commit the worktree's changes are counted from. */
export async function mergeBase(record: WorktreeRecord, run: DiffRun): Promise<string> {
  const found = await runGit(record.path, [...READ_ONLY, "merge-base", await baseRef(record), "HEAD"], run);
  return found.ok ? firstLine(found) : record.base.commit;
}

export async function worktreeDiff(id: string, record: WorktreeRecord, run: DiffRun): Promise<LiveDiff | WorktreeRefusal> {
  if (!(await worktreePresent(record))) return gone(record);
  const base = await mergeBase(record, run);
  const [names, numbers, untracked] = await Promise.all([
    runGit(record.path, [...READ_ONLY, "diff", ...DIFF_FLAGS, "--name-status", "-z", base, "--"], run),
    runGit(record.path, [...READ_ONLY, "diff", ...DIFF_FLAGS, "--numstat", "-z", base, "--"], run),
    runGit(record.path, [...READ_ONLY, "ls-files", "--others", "--exclude-standard", "-z"], run),
  ]);
  for (const outcome of [names, numbers, untracked]) if (!outcome.ok) return refusal(409, "git_failed", `git could not list the worktree's changes: ${gitWords(outcome)}`);
  const tracked = joinDiff(parseNameStatusZ(names.stdout.toString("utf8")), parseNumstatZ(numbers.stdout.toString("utf8")));
  const newPaths = untracked.stdout
    .toString("utf8")
    .split("\0")
    .filter((path) => path !== "");
  const room = Math.max(0, MAX_DIFF_FILES - tracked.length);
  const added: LiveDiffEntry[] = [];
  // A few files at a time: each may be read whole (up to MAX_COUNTED_BYTES) to count its lines.
  for (let i = 0; i < Math.min(room, newPaths.length); i += COUNT_AT_ONCE) {
    added.push(...(await Promise.all(newPaths.slice(i, Math.min(i + COUNT_AT_ONCE, room)).map((path) => untrackedEntry(record.path, path)))));
  }
  const files = [...tracked.slice(0, MAX_DIFF_FILES), ...added].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    id,
    worktree: cardWorktree(record),
    mergeBase: base,
    files,
    totals: diffTotals(files),
    truncated: tracked.length + newPaths.length > files.length,
  };
}

/** A new file git does not track yet: all its lines are added (git counts the same way once it is added). */
async function untrackedEntry(root: string, path: string): Promise<LiveDiffEntry> {
  const entry: LiveDiffEntry = { path, status: "added", added: null, deleted: 0, binary: false, untracked: true };
  const full = join(root, path);
  try {
    const info = await lstat(full);
    // A symbolic link is one line (its target), as git counts it.
    if (info.isSymbolicLink()) return { ...entry, added: 1 };
    if (!info.isFile() || info.size > MAX_COUNTED_BYTES) return entry;
    const handle = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const bytes = await handle.readFile();
      if (bytes.subarray(0, BINARY_SNIFF).includes(0)) return { ...entry, deleted: null, binary: true };
      return { ...entry, added: countLines(bytes) };
    } finally {
      await handle.close();
    }
  } catch {
    // Gone or unreadable since git listed it: listed without counts.
    return entry;
  }
}

/** Lines as git counts them: a last line without a newline counts too. */
export function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (const byte of bytes) if (byte === 0x0a) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? lines + 1 : lines;
}

/**
 * One file's base text (at the merge-base; a renamed file's old path) and
 * current text (the worktree's file now). A viewer is kept from secret and
 * ignored files as the file service keeps it (viewer-reads.ts).
 */
export async function worktreeFileText(id: string, record: WorktreeRecord, pathInput: unknown, run: DiffRun & { viewer: boolean }): Promise<LiveDiffText | WorktreeRefusal> {
  let path: string;
  try {
    path = validatePath(pathInput);
  } catch (error) {
    if (error instanceof WorkspaceError) return refusal(error.status === 403 ? 403 : 400, error.code, error.message);
    throw error;
  }
  if (!(await worktreePresent(record))) return gone(record);
  const paths = new WorkspacePaths(record.path);
  const rootReal = await paths.rootReal().catch(() => record.path);
  if (run.viewer) {
    try {
      await checkViewerMayRead(rootReal, path);
    } catch (error) {
      if (error instanceof WorkspaceError) return refusal(403, error.code, error.message);
      throw error;
    }
  }
  const base = await mergeBase(record, run);
  // A rename's old path, from git's own view of this one file.
  const names = await runGit(record.path, [...READ_ONLY, "diff", ...DIFF_FLAGS, "--name-status", "-z", base, "--"], run);
  const entry = names.ok ? parseNameStatusZ(names.stdout.toString("utf8")).find((item) => item.path === path) : undefined;
  const from = entry?.status === "renamed" ? entry.from : undefined;
  // The old name is read too: a secret renamed to an innocent name stays closed to a viewer.
  if (run.viewer && from !== undefined) {
    try {
      await checkViewerMayRead(rootReal, from);
    } catch (error) {
      if (error instanceof WorkspaceError) return refusal(403, error.code, error.message);
      throw error;
    }
  }
  const baseText = await blobText(record.path, `${base}:${from ?? path}`, run);
  const current = entry?.status === "deleted" ? absent() : await currentText(paths, path, run.viewer);
  if ("status" in current) return current;
  return { id, path, ...(from !== undefined ? { from } : {}), base: baseText, current };
}

function absent(): LiveFileText {
  return { content: null, reason: "absent" };
}

/** A blob's text (`<commit>:<path>`), capped; absent when the commit has no such file. */
export async function blobText(cwd: string, spec: string, run: { guarded: boolean }, maxBytes: number = WORKSPACE_LIMITS.maxEditableBytes): Promise<LiveFileText> {
  const blob = await runGit(cwd, [...READ_ONLY, "cat-file", "blob", spec], { ...run, maxOutput: maxBytes });
  if (blob.tooLarge) return { content: null, reason: "too_large" };
  if (!blob.ok) return absent();
  const text = decodeText(blob.stdout);
  return text === null ? { content: null, reason: "binary" } : { content: text, reason: null };
}

/** The worktree's file now; a file the file service would not serve (a link out, a hard link, a secret for a viewer) is refused with its reason. */
async function currentText(paths: WorkspacePaths, path: string, viewer: boolean): Promise<LiveFileText | WorktreeRefusal> {
  try {
    const { rootReal, real } = await paths.resolveExisting(path);
    const file = await readRegularFile(real, path, async (fd) => {
      await paths.checkOpened(fd, rootReal, path);
      if (viewer) await checkViewerMayRead(rootReal, path, toRelative(rootReal, (await paths.whereOpened(fd)) ?? real));
    });
    if (file.text !== null) return { content: file.text, reason: null };
    return { content: null, reason: file.reason ?? "binary" };
  } catch (error) {
    if (error instanceof WorkspaceError && error.status === 404) return absent();
    if (error instanceof WorkspaceError) return refusal(error.status === 403 ? 403 : 409, error.code, error.message);
    throw error;
  }
}
