// Every path a browser sends is untrusted. This file is the only place that
// turns one into a file-system path:
// 1. lexical validation of the workspace-relative string (validatePath);
// 2. resolution with realpath, which must stay inside the workspace's own
//    realpath and out of ".git" (resolveExisting, for reads: symbolic links
//    that stay inside are followed);
// 3. for anything that changes the disk, no symbolic link anywhere on the way,
//    and no path walked twice: the parent folder is opened one segment at a
//    time from the workspace root, never through a link, and held open while
//    the change is made in it (changeAt, held-folder.ts); the last component
//    is checked with lstat by callers, in that held folder.
import { lstat, readlink, realpath } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { openFolder, type HeldFolder } from "./held-folder.ts";
import { WorkspaceError, errnoCode, fromFsError } from "./workspace-error.ts";

/** Bytes; PATH_MAX on Linux. */
export const MAX_PATH_BYTES = 4096;

/**
 * Checks a workspace-relative path (already URL-decoded exactly once, by
 * URLSearchParams or JSON.parse) and returns it unchanged.
 */
export function validatePath(input: unknown, field = "path"): string {
  if (typeof input !== "string") throw badPath(`"${field}" must be a string.`);
  if (input.length === 0) throw badPath(`"${field}" is empty; give a path relative to the workspace.`);
  if (Buffer.byteLength(input) > MAX_PATH_BYTES) throw badPath(`"${field}" is longer than ${MAX_PATH_BYTES} bytes.`);
  if (input.includes("\0")) throw badPath(`"${field}" contains a NUL byte.`);
  if (input.includes("\\")) throw badPath(`"${field}" contains a backslash; separate folders with "/".`);
  if (input.startsWith("/")) throw badPath(`"${field}" is absolute; give a path relative to the workspace.`);
  const segments = input.split("/");
  if (segments.some((segment) => segment === "")) throw badPath(`"${field}" has an empty segment (a doubled or trailing "/").`);
  if (segments.some((segment) => segment === "." || segment === "..")) throw badPath(`"${field}" has a "." or ".." segment.`);
  if (touchesGitDir(segments)) {
    throw new WorkspaceError(403, "forbidden_path", `"${field}" points into a .git folder, which the file service does not serve.`);
  }
  return input;
}

/** True when any segment is ".git" (any letter case: case-insensitive file systems exist). */
export function touchesGitDir(segments: readonly string[]): boolean {
  return segments.some((segment) => segment.toLowerCase() === ".git");
}

export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return candidate.startsWith(prefix);
}

/** "/"-separated workspace-relative form of an absolute path inside root ("" for root itself). */
export function toRelative(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join("/");
}

function badPath(message: string): WorkspaceError {
  return new WorkspaceError(400, "bad_path", message);
}

const PROC_FD = existsSync("/proc/self/fd");

/** Where a change happens: `at` is the path to give fs calls (it acts in the held `folder`). */
export type ChangeTarget = {
  rootReal: string;
  /** The absolute path by name, for messages and for comparing two targets; never for fs calls. */
  full: string;
  folder: HeldFolder;
  /** The last component. */
  name: string;
  at: string;
};

export class WorkspacePaths {
  /** The workspace as configured (absolute), for display. */
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The workspace's realpath, looked up on every call (cheap, and robust to a moved folder). */
  async rootReal(): Promise<string> {
    try {
      return await realpath(this.root);
    } catch (error) {
      throw new WorkspaceError(404, "not_found", `The workspace folder ${this.root} is not available (${errnoCode(error) ?? "error"}).`);
    }
  }

  /**
   * An existing entry's realpath, for reading. Symbolic links are followed
   * only while they stay inside the workspace and out of ".git".
   */
  async resolveExisting(rel: string): Promise<{ rootReal: string; real: string }> {
    const rootReal = await this.rootReal();
    let real: string;
    try {
      real = await realpath(join(rootReal, rel));
    } catch (error) {
      if (errnoCode(error) === "ELOOP") throw linkLoop(rel);
      throw fromFsError(error, rel);
    }
    this.#checkResolved(rootReal, real, rel);
    return { rootReal, real };
  }

  /**
   * Runs `change` on `rel` inside its parent folder, held open: the parent is
   * opened segment by segment from the workspace root without following any
   * symbolic link, checked to be inside the workspace (where it really is
   * now, not where its path points), and every fs call of `change` goes
   * through `target.at`, which acts in that folder even if a folder on the
   * path is swapped for a link meanwhile. Afterwards the folder is checked
   * again (on Linux that only matters if a real folder was moved out).
   */
  async changeAt<T>(rel: string, change: (target: ChangeTarget) => Promise<T>): Promise<T> {
    const rootReal = await this.rootReal();
    const segments = rel.split("/");
    const name = segments.pop() ?? rel;
    const folder = await this.#openParent(rootReal, segments, rel);
    try {
      await this.checkFolder(folder, rootReal, rel);
      const result = await change({ rootReal, full: join(rootReal, rel), folder, name, at: folder.at(name) });
      await this.checkFolder(folder, rootReal, rel, "after");
      return result;
    } finally {
      await folder.close().catch(() => {});
    }
  }

  async #openParent(rootReal: string, segments: readonly string[], rel: string): Promise<HeldFolder> {
    let folder: HeldFolder;
    try {
      folder = await openFolder(rootReal);
    } catch (error) {
      throw new WorkspaceError(404, "not_found", `The workspace folder ${this.root} is not available (${errnoCode(error) ?? "error"}).`);
    }
    for (const [index, segment] of segments.entries()) {
      let next: HeldFolder;
      try {
        next = await folder.child(segment);
      } catch (error) {
        await folder.close().catch(() => {});
        throw await this.#whyNoFolder(rootReal, segments.slice(0, index + 1).join("/"), rel, error);
      }
      await folder.close().catch(() => {});
      folder = next;
    }
    return folder;
  }

  /** Why the folder `prefix` (on the way to `rel`) could not be opened: missing, a file, or a link (and where it leads). */
  async #whyNoFolder(rootReal: string, prefix: string, rel: string, error: unknown): Promise<WorkspaceError> {
    const code = errnoCode(error);
    const missing = new WorkspaceError(404, "not_found", `The folder that would hold ${JSON.stringify(rel)} does not exist.`);
    if (code === "ENOENT") return missing;
    if (code !== "ENOTDIR" && code !== "ELOOP") return fromFsError(error, rel);
    // Only to choose the message: nothing is changed after this.
    const full = join(rootReal, prefix);
    const info = await lstat(full).catch(() => null);
    if (info === null) return missing;
    if (!info.isSymbolicLink()) return info.isDirectory() ? underLink(rel) : missing;
    let target: string;
    try {
      target = await realpath(full);
    } catch (cause) {
      return errnoCode(cause) === "ELOOP" ? linkLoop(rel) : underLink(rel);
    }
    try {
      this.#checkResolved(rootReal, target, rel);
    } catch (refusal) {
      return refusal as WorkspaceError;
    }
    return underLink(rel);
  }

  /** Refuses a held folder that is (now) outside the workspace or in ".git"; `rel` is the path of the change, for messages. */
  async checkFolder(folder: HeldFolder, rootReal: string, rel: string, when: "before" | "after" = "before"): Promise<void> {
    const where = await folder.whereNow().catch(() => null);
    if (where === null) {
      if (when === "after") return; // Deleted meanwhile: nothing can have landed anywhere else.
      throw new WorkspaceError(404, "not_found", `The folder that would hold ${JSON.stringify(rel)} does not exist.`);
    }
    if (!isInside(rootReal, where)) {
      throw new WorkspaceError(
        403,
        "outside_workspace",
        when === "before"
          ? `The folder that would hold ${JSON.stringify(rel)} was moved outside the workspace; nothing was changed.`
          : `The folder holding ${JSON.stringify(rel)} was moved outside the workspace while the change was being made.`,
      );
    }
    this.#checkResolved(rootReal, where, rel);
  }

  /**
   * Where the open descriptor really is (Linux: /proc/self/fd), checked to be
   * inside the workspace: closes the gap between realpath and open.
   */
  async checkOpened(fd: number, rootReal: string, rel: string): Promise<void> {
    if (!PROC_FD) return;
    let actual: string;
    try {
      actual = await readlink(`/proc/self/fd/${fd}`);
    } catch {
      return;
    }
    this.#checkResolved(rootReal, actual, rel);
  }

  /** Where an open descriptor really is (Linux: /proc/self/fd), or null where that cannot be told. */
  async whereOpened(fd: number): Promise<string | null> {
    if (!PROC_FD) return null;
    return readlink(`/proc/self/fd/${fd}`).catch(() => null);
  }

  #checkResolved(rootReal: string, real: string, rel: string): void {
    if (!isInside(rootReal, real)) throw outside(rel);
    if (touchesGitDir(toRelative(rootReal, real).split("/"))) {
      throw new WorkspaceError(403, "forbidden_path", `${JSON.stringify(rel)} leads into a .git folder, which the file service does not serve.`);
    }
  }
}

function outside(rel: string): WorkspaceError {
  return new WorkspaceError(403, "outside_workspace", `${JSON.stringify(rel)} leads outside the workspace (through a symbolic link).`);
}

function underLink(rel: string): WorkspaceError {
  return new WorkspaceError(403, "symlink_refused", `${JSON.stringify(rel)} lies under a symbolic link; changes never go through one.`);
}

function linkLoop(rel: string): WorkspaceError {
  return new WorkspaceError(403, "symlink_refused", `${JSON.stringify(rel)} goes through a loop of symbolic links.`);
}
