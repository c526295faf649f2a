// Every path a browser sends is untrusted. This file is the only place that
// turns one into a file-system path:
// 1. lexical validation of the workspace-relative string (validatePath);
// 2. resolution with realpath, which must stay inside the workspace's own
//    realpath and out of ".git" (resolveExisting, for reads: symbolic links
//    that stay inside are followed);
// 3. for anything that changes the disk, no symbolic link anywhere on the way:
//    the parent folder's realpath must be exactly its lexical path
//    (resolveForChange); the last component is checked with lstat by callers.
import { readlink, realpath } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
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
   * The absolute path for creating, replacing, renaming or deleting `rel`:
   * its parent must exist, resolve inside the workspace, and contain no
   * symbolic link. The last component is the caller's to lstat.
   */
  async resolveForChange(rel: string): Promise<{ rootReal: string; full: string }> {
    const rootReal = await this.rootReal();
    const full = join(rootReal, rel);
    const parent = dirname(full);
    let parentReal: string;
    try {
      parentReal = await realpath(parent);
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ELOOP") throw linkLoop(rel);
      if (code === "ENOENT" || code === "ENOTDIR") {
        throw new WorkspaceError(404, "not_found", `The folder that would hold ${JSON.stringify(rel)} does not exist.`);
      }
      throw fromFsError(error, rel);
    }
    this.#checkResolved(rootReal, parentReal, rel);
    if (parentReal !== parent) {
      throw new WorkspaceError(403, "symlink_refused", `${JSON.stringify(rel)} lies under a symbolic link; changes never go through one.`);
    }
    return { rootReal, full };
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

function linkLoop(rel: string): WorkspaceError {
  return new WorkspaceError(403, "symlink_refused", `${JSON.stringify(rel)} goes through a loop of symbolic links.`);
}
