// Tool cards open files and diffs in the Monaco workbench through this one
// module: the workbench store's `openFile(path)` and `openDiff(...)`, plus
// the path rules for what a tool argument may open.

import { connection } from "../app-context.svelte.ts";
import { requestLine } from "../workspace/line-request.svelte.ts";
import { openDiff, openFile as openInWorkbench, workbench } from "../workspace/workbench-store.svelte.ts";
import { workspacePath } from "./tool-details.ts";

function cwd(): string | null {
  return connection.hello?.cwd ?? null;
}

/** The path to open for a tool argument, or null when it cannot be opened. */
export function openablePath(path: string | null | undefined): string | null {
  if (!path) return null;
  return workspacePath(path, cwd());
}

export function openFile(path: string): void {
  const target = workspacePath(path, cwd());
  if (target) openInWorkbench(target);
}

/** Opens a file with the cursor on `line` (and `column`), e.g. a `path:line` a shell printed. */
export function openFileAtLine(path: string, line: number, column: number | null): void {
  const target = workspacePath(path, cwd());
  if (!target) return;
  requestLine({ path: target, line, column: column ?? 1 });
  openInWorkbench(target);
}

/**
 * Opens an applied edit as a side-by-side diff: the file as it is now, and
 * the same file with pi's patch reversed. When the file changed since (the
 * patch no longer reverses cleanly) or cannot be read, the replaced snippets
 * are compared instead.
 */
export async function openEditDiff(path: string, patch: string | null, snippets: { original: string; modified: string }): Promise<void> {
  const target = workspacePath(path, cwd()) ?? path;
  const title = `${target.split("/").pop()} (pi's edit)`;
  let original = snippets.original;
  let modified = snippets.modified;
  if (patch) {
    try {
      const file = await workbench.api.read(target);
      if (file.content !== null) {
        // Loaded here, not with the page: only this click needs it (bench/first-load.bench.ts).
        const { applyPatch, parsePatch, reversePatch } = await import("diff");
        const parsed = parsePatch(patch)[0];
        const before = parsed ? applyPatch(file.content, reversePatch(parsed)) : false;
        if (typeof before === "string") {
          original = before;
          modified = file.content;
        }
      }
    } catch {
      // Fall back to the snippets.
    }
  }
  openDiff({ title, path: target, original, modified });
}

/**
 * Opens a write as a diff. The stream carries only what was written, not what
 * it replaced, so the left side is the file at git HEAD when there is one
 * (what the write changed since the last commit), else empty (a new file).
 */
export async function openWriteDiff(path: string, written: string): Promise<void> {
  const target = workspacePath(path, cwd()) ?? path;
  const name = target.split("/").pop() ?? target;
  let original = "";
  let against = "new file";
  try {
    const head = await workbench.api.gitHead(target);
    if (head.content !== null) {
      original = head.content;
      against = "vs HEAD";
    }
  } catch {
    // Not a repo, or git could not answer: compare with an empty file.
  }
  openDiff({ title: `${name} (pi's write, ${against})`, path: target, original, modified: written });
}
