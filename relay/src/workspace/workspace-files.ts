// The workspace's files as the editor sees them: tree, read, save (with a
// version check), create, rename, delete. Every path goes through
// WorkspacePaths first; changes are serialised so two saves from two tabs
// cannot interleave their check and their write. Every fs call of a change
// is given `target.at` (never a path by name), so it acts in the parent
// folder WorkspacePaths.changeAt checked and holds open.
import { lstat, mkdir, realpath, rename, rmdir, unlink } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { WORKSPACE_LIMITS, type CreateEntryResponse, type DeleteEntryResponse, type FileContentResponse, type FileTreeResponse, type RenameEntryResponse, type SaveFileResponse } from "@pier/protocol";
import type { FileHandle } from "node:fs/promises";
import { createEmptyFile, writeFileAtomic } from "./atomic-write.ts";
import { replaceIfUnchanged } from "./checked-replace.ts";
import { describeKind, notRegular, readRegularFile, versionOf, withRegularFile, type FileSnapshot } from "./file-content.ts";
import { GitignoreRules } from "./gitignore-rules.ts";
import { WorkspaceError, errnoCode, fromFsError } from "./workspace-error.ts";
import { checkViewerMayRead } from "./viewer-reads.ts";
import { WorkspacePaths, isInside, toRelative, validatePath, type ChangeTarget } from "./workspace-paths.ts";
import { removeEntry } from "./tree-removal.ts";
import { listTree } from "./workspace-tree.ts";

const EMPTY_VERSION = versionOf(new Uint8Array(0));

export class WorkspaceFiles {
  readonly paths: WorkspacePaths;
  readonly maxTreeEntries: number;
  #changes: Promise<unknown> = Promise.resolve();
  readonly #beforeReplace: ((rel: string) => Promise<void>) | null;

  /**
   * `paths` replaces the path resolver (tests put an attacker's hook in it);
   * `beforeReplace` runs in a save between its last look at the file and
   * putting the new bytes in place (tests write the file there, as pi would).
   */
  constructor(root: string, options: { maxTreeEntries?: number; paths?: WorkspacePaths; beforeReplace?: (rel: string) => Promise<void> } = {}) {
    this.paths = options.paths ?? new WorkspacePaths(root);
    this.maxTreeEntries = options.maxTreeEntries ?? WORKSPACE_LIMITS.maxTreeEntries;
    this.#beforeReplace = options.beforeReplace ?? null;
  }

  get root(): string {
    return this.paths.root;
  }

  async tree(): Promise<FileTreeResponse> {
    const rootReal = await this.paths.rootReal();
    const { entries, truncated } = await listTree(rootReal, new GitignoreRules(rootReal), this.maxTreeEntries);
    return { root: this.root, entries, truncated };
  }

  /**
   * A file's content. For a viewer, files that may hold secrets are refused
   * (viewer-reads.ts), judged on the path asked for and on where the opened
   * descriptor really is (a link swapped after a check by name changes nothing).
   */
  async read(pathInput: unknown, reader: { viewer: boolean } = { viewer: false }): Promise<FileContentResponse> {
    try {
      return await this.#read(pathInput, reader);
    } catch (error) {
      // A save gives the file it replaces a second name for a moment (checked-replace.ts): look again once it is done.
      if (!(error instanceof WorkspaceError && error.code === "hard_link_refused")) throw error;
      await this.#changes;
      return this.#read(pathInput, reader);
    }
  }

  async #read(pathInput: unknown, reader: { viewer: boolean }): Promise<FileContentResponse> {
    const rel = validatePath(pathInput);
    const { rootReal, real } = await this.paths.resolveExisting(rel);
    const file = await readRegularFile(real, rel, async (fd) => {
      await this.paths.checkOpened(fd, rootReal, rel);
      if (reader.viewer) await checkViewerMayRead(rootReal, rel, toRelative(rootReal, (await this.paths.whereOpened(fd)) ?? real));
    });
    if (file.text !== null) return { path: rel, content: file.text, version: file.version, size: file.size, readOnly: false };
    return { path: rel, content: null, version: file.version, size: file.size, readOnly: true, reason: file.reason ?? "binary" };
  }

  /** Refuses a viewer git's HEAD text of a file that may hold secrets (viewer-reads.ts). */
  async checkViewerMayReadHead(pathInput: unknown): Promise<void> {
    const rel = validatePath(pathInput);
    await checkViewerMayRead(await this.paths.rootReal(), rel);
  }

  async save(pathInput: unknown, content: unknown, baseVersion: unknown): Promise<SaveFileResponse> {
    const rel = validatePath(pathInput);
    if (typeof content !== "string") throw badRequest(`"content" must be a string.`);
    if (baseVersion !== null && typeof baseVersion !== "string") {
      throw badRequest(`"baseVersion" must be the version the edit started from, or null to create the file.`);
    }
    return this.#exclusive(() =>
      this.paths.changeAt(rel, async (target) => {
        const bytes = Buffer.from(content, "utf8");
        const beforeReplace = this.#beforeReplace === null ? undefined : () => this.#beforeReplace!(rel);
        if (baseVersion === null) {
          // A new file: linked into place only if nothing is there by then (atomic-write.ts).
          const current = await this.#currentFile(target, rel);
          if (current !== null) throw conflict(rel, current, "exists");
          await beforeReplace?.();
          try {
            await writeFileAtomic(target.folder, target.name, bytes, null);
          } catch (error) {
            if (errnoCode(error) === "EEXIST") throw conflict(rel, await this.#currentFile(target, rel), "exists");
            throw fromFsError(error, rel);
          }
          return { version: versionOf(bytes) };
        }
        // Compared with the content hash of the very file that gets replaced, up to the moment it is (checked-replace.ts).
        const outcome = await this.#withCurrentFile(target, rel, async (current, handle) => {
          if (current === null || handle === null || current.version !== baseVersion) throw conflict(rel, current, "before");
          try {
            return await replaceIfUnchanged(target.folder, target.name, bytes, handle, baseVersion, { mode: current.mode, uid: current.uid, gid: current.gid }, beforeReplace);
          } catch (error) {
            throw fromFsError(error, rel);
          }
        });
        if (outcome === "changed") throw conflict(rel, await this.#currentFile(target, rel), "during");
        return { version: versionOf(bytes) };
      }),
    );
  }

  async create(pathInput: unknown, type: unknown): Promise<CreateEntryResponse> {
    const rel = validatePath(pathInput);
    if (type !== "file" && type !== "dir") throw badRequest(`"type" must be "file" or "dir".`);
    return this.#exclusive(() =>
      this.paths.changeAt(rel, async (target) => {
        try {
          if (type === "file") await createEmptyFile(target.at);
          else await mkdir(target.at);
        } catch (error) {
          throw fromFsError(error, rel);
        }
        return { path: rel, type, version: type === "file" ? EMPTY_VERSION : null };
      }),
    );
  }

  async rename(fromInput: unknown, toInput: unknown): Promise<RenameEntryResponse> {
    const from = validatePath(fromInput, "from");
    const to = validatePath(toInput, "to");
    if (from === to) throw badRequest(`"from" and "to" are the same path.`);
    // Both parents held: the rename is between those two folders.
    return this.#exclusive(() => this.paths.changeAt(from, (source) => this.paths.changeAt(to, (target) => this.#move(source, target, from, to))));
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
    return this.#exclusive(() =>
      this.paths.changeAt(rel, async (target) => {
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
      }),
    );
  }

  /** The file about to be replaced, or null if there is none; refuses links, special files and hard-linked files. */
  #currentFile(target: ChangeTarget, rel: string): Promise<FileSnapshot | null> {
    return this.#withCurrentFile(target, rel, async (current) => current);
  }

  /** #currentFile, and `use` gets it still open (null, null: there is none). */
  async #withCurrentFile<T>(target: ChangeTarget, rel: string, use: (current: FileSnapshot | null, handle: FileHandle | null) => Promise<T>): Promise<T> {
    const { rootReal, full, at } = target;
    let info;
    try {
      info = await lstat(at);
    } catch (error) {
      if (errnoCode(error) === "ENOENT") return use(null, null);
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
    return withRegularFile(at, rel, (fd) => this.paths.checkOpened(fd, rootReal, rel), use);
  }

  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#changes.then(task, task);
    this.#changes = run.catch(() => {});
    return run;
  }
}

/**
 * A save refused because the file is not what the edit was based on: found
 * so `before` the write, or `during` it (another program wrote it meanwhile),
 * or a new file's name was taken (`exists`). Carries what is there now, for
 * the conflict view.
 */
function conflict(rel: string, current: FileSnapshot | null, when: "before" | "during" | "exists"): WorkspaceError {
  const shown = JSON.stringify(rel);
  const message =
    current === null
      ? `${shown} no longer exists; it was deleted since you opened it.`
      : when === "exists"
        ? `${shown} already exists; open it before saving over it.`
        : when === "during"
          ? `${shown} was changed on disk by another program while it was being saved; nothing was saved.`
          : `${shown} changed on disk since you opened it; nothing was saved.`;
  return new WorkspaceError(409, "conflict", message, { current: { content: current?.text ?? null, version: current?.version ?? null } });
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
