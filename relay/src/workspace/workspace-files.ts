// The workspace's files as the editor sees them: tree, read, save (with a
// version check), create, rename, delete. Every path goes through
// WorkspacePaths first; changes are serialised so two saves from two tabs
// cannot interleave their check and their write. Every fs call of a change
// is given `target.at` (never a path by name), so it acts in the parent
// folder WorkspacePaths.changeAt checked and holds open.
import { lstat, mkdir, realpath, rename, rmdir, unlink } from "node:fs/promises";
import { isAbsolute } from "node:path";
import {
  WORKSPACE_LIMITS,
  type CreateEntryResponse,
  type DeleteEntryResponse,
  type FileContentResponse,
  type FileTreeResponse,
  type RenameEntryResponse,
  type SaveFileResponse,
} from "@pier/protocol";
import { createEmptyFile, writeFileAtomic } from "./atomic-write.ts";
import { describeKind, notRegular, readRegularFile, versionOf, type FileSnapshot } from "./file-content.ts";
import { GitignoreRules } from "./gitignore-rules.ts";
import { WorkspaceError, errnoCode, fromFsError } from "./workspace-error.ts";
import { WorkspacePaths, isInside, validatePath, type ChangeTarget } from "./workspace-paths.ts";
import { removeEntry } from "./tree-removal.ts";
import { listTree } from "./workspace-tree.ts";

const EMPTY_VERSION = versionOf(new Uint8Array(0));

export class WorkspaceFiles {
  readonly paths: WorkspacePaths;
  readonly maxTreeEntries: number;
  #changes: Promise<unknown> = Promise.resolve();

  /** `paths` replaces the path resolver (tests put an attacker's hook in it). */
  constructor(root: string, options: { maxTreeEntries?: number; paths?: WorkspacePaths } = {}) {
    this.paths = options.paths ?? new WorkspacePaths(root);
    this.maxTreeEntries = options.maxTreeEntries ?? WORKSPACE_LIMITS.maxTreeEntries;
  }

  get root(): string {
    return this.paths.root;
  }

  async tree(): Promise<FileTreeResponse> {
    const rootReal = await this.paths.rootReal();
    const { entries, truncated } = await listTree(rootReal, new GitignoreRules(rootReal), this.maxTreeEntries);
    return { root: this.root, entries, truncated };
  }

  async read(pathInput: unknown): Promise<FileContentResponse> {
    const rel = validatePath(pathInput);
    const { rootReal, real } = await this.paths.resolveExisting(rel);
    const file = await readRegularFile(real, rel, (fd) => this.paths.checkOpened(fd, rootReal, rel));
    if (file.text !== null) return { path: rel, content: file.text, version: file.version, size: file.size, readOnly: false };
    return { path: rel, content: null, version: file.version, size: file.size, readOnly: true, reason: file.reason ?? "binary" };
  }

  async save(pathInput: unknown, content: unknown, baseVersion: unknown): Promise<SaveFileResponse> {
    const rel = validatePath(pathInput);
    if (typeof content !== "string") throw badRequest(`"content" must be a string.`);
    if (baseVersion !== null && typeof baseVersion !== "string") {
      throw badRequest(`"baseVersion" must be the version the edit started from, or null to create the file.`);
    }
    return this.#exclusive(() => this.paths.changeAt(rel, async (target) => {
      const current = await this.#currentFile(target, rel);
      const matches = baseVersion === null ? current === null : current !== null && current.version === baseVersion;
      if (!matches) {
        const message =
          current === null
            ? `${JSON.stringify(rel)} no longer exists; it was deleted since you opened it.`
            : baseVersion === null
              ? `${JSON.stringify(rel)} already exists; open it before saving over it.`
              : `${JSON.stringify(rel)} changed on disk since you opened it; nothing was saved.`;
        throw new WorkspaceError(409, "conflict", message, {
          current: { content: current?.text ?? null, version: current?.version ?? null },
        });
      }
      const bytes = Buffer.from(content, "utf8");
      try {
        await writeFileAtomic(target.folder, target.name, bytes, current ? { mode: current.mode, uid: current.uid, gid: current.gid } : null);
      } catch (error) {
        throw fromFsError(error, rel);
      }
      return { version: versionOf(bytes) };
    }));
  }

  async create(pathInput: unknown, type: unknown): Promise<CreateEntryResponse> {
    const rel = validatePath(pathInput);
    if (type !== "file" && type !== "dir") throw badRequest(`"type" must be "file" or "dir".`);
    return this.#exclusive(() => this.paths.changeAt(rel, async (target) => {
      try {
        if (type === "file") await createEmptyFile(target.at);
        else await mkdir(target.at);
      } catch (error) {
        throw fromFsError(error, rel);
      }
      return { path: rel, type, version: type === "file" ? EMPTY_VERSION : null };
    }));
  }

  async rename(fromInput: unknown, toInput: unknown): Promise<RenameEntryResponse> {
    const from = validatePath(fromInput, "from");
    const to = validatePath(toInput, "to");
    if (from === to) throw badRequest(`"from" and "to" are the same path.`);
    // Both parents held: the rename is between those two folders.
    return this.#exclusive(() =>
      this.paths.changeAt(from, (source) => this.paths.changeAt(to, (target) => this.#move(source, target, from, to))),
    );
  }

  async #move(source: ChangeTarget, target: ChangeTarget, from: string, to: string): Promise<RenameEntryResponse> {
    try {
      await lstat(source.at);
    } catch (error) {
      throw fromFsError(error, from);
    }
    if (await exists(target.at)) throw new WorkspaceError(409, "exists", `${JSON.stringify(to)} already exists; nothing was renamed.`);
    if (isInside(source.full, target.full)) {
      throw new WorkspaceError(400, "bad_path", `A folder cannot be moved into itself (${JSON.stringify(from)} → ${JSON.stringify(to)}).`);
    }
    try {
      await rename(source.at, target.at);
    } catch (error) {
      throw fromFsError(error, errnoCode(error) === "ENOENT" ? from : to);
    }
    return { from, to };
  }

  async delete(pathInput: unknown, recursive: unknown): Promise<DeleteEntryResponse> {
    const rel = validatePath(pathInput);
    if (recursive !== undefined && typeof recursive !== "boolean") throw badRequest(`"recursive" must be true or false.`);
    return this.#exclusive(() => this.paths.changeAt(rel, async (target) => {
      try {
        const info = await lstat(target.at);
        if (!info.isDirectory()) await unlink(target.at);
        else if (recursive !== true) await rmdir(target.at);
        else await removeEntry(target.folder, target.name, (folder) => this.paths.checkFolder(folder, target.rootReal, rel));
      } catch (error) {
        if (recursive === true && errnoCode(error) === "ENOTEMPTY") {
          const message = `${JSON.stringify(rel)} kept changing while it was being deleted (something is writing into it); part of it may be gone.`;
          throw new WorkspaceError(409, "not_empty", message);
        }
        throw fromFsError(error, rel);
      }
      return { path: rel };
    }));
  }

  /** The file about to be replaced, or null if there is none; refuses links, special files and hard-linked files. */
  async #currentFile(target: ChangeTarget, rel: string): Promise<FileSnapshot | null> {
    const { rootReal, full, at } = target;
    let info;
    try {
      info = await lstat(at);
    } catch (error) {
      if (errnoCode(error) === "ENOENT") return null;
      throw fromFsError(error, rel);
    }
    if (info.isSymbolicLink()) {
      // Only to choose the message (by name: nothing is changed after this).
      const leadsTo = await realpath(full).catch(() => null);
      if (leadsTo !== null && isAbsolute(leadsTo) && !isInside(rootReal, leadsTo)) {
        throw new WorkspaceError(403, "outside_workspace", `${JSON.stringify(rel)} is a symbolic link that leads outside the workspace.`);
      }
      throw new WorkspaceError(403, "symlink_refused", `${JSON.stringify(rel)} is a symbolic link; saving never writes through one.`);
    }
    if (!info.isFile()) throw notRegular(rel, describeKind(info));
    return readRegularFile(at, rel, (fd) => this.paths.checkOpened(fd, rootReal, rel));
  }

  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#changes.then(task, task);
    this.#changes = run.catch(() => {});
    return run;
  }
}

function badRequest(message: string): WorkspaceError {
  return new WorkspaceError(400, "bad_request", message);
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return false;
    throw error;
  }
}
