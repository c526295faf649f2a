// New file or folder, rename, delete, from the explorer: ask, ask the relay,
// then bring the tree and the open documents along.

import { describeError } from "./describe-error.ts";
import type { DialogStore } from "./dialog-store.svelte.ts";
import type { DocumentsStore } from "./documents-store.svelte.ts";
import type { FileTreeStore } from "./file-tree-store.svelte.ts";
import type { FilesApi } from "./files-api.ts";
import { basename, dirname, normalizePath } from "./file-tree.ts";
import { viewerRefused, type WorkbenchContext } from "./workbench-context.ts";

export interface FileOperationsParts {
  api: Pick<FilesApi, "create" | "rename" | "remove">;
  context: WorkbenchContext;
  dialogs: DialogStore;
  tree: FileTreeStore;
  /** Reloads the tree (and what hangs on it, like git badges). */
  reloadTree(): Promise<void>;
  documents: DocumentsStore;
  /** Opens a file the way a click does (tab, selection, layout). */
  openFile(path: string): void;
}

export class FileOperations {
  readonly #parts: FileOperationsParts;

  constructor(parts: FileOperationsParts) {
    this.#parts = parts;
  }

  async createEntry(type: "file" | "dir", inFolder: string): Promise<void> {
    const { api, context, dialogs, tree } = this.#parts;
    if (viewerRefused(context, "create files")) return;
    const answer = await dialogs.ask({
      title: type === "file" ? "New file" : "New folder",
      message: "Path relative to the workspace root.",
      input: { label: type === "file" ? "File path" : "Folder path", value: inFolder ? `${inFolder}/` : "" },
      buttons: [
        { id: "cancel", label: "Cancel" },
        { id: "ok", label: "Create", tone: "primary" },
      ],
    });
    const path = normalizePath(answer.value.trim());
    if (answer.button !== "ok" || path === "") return;
    try {
      await api.create(path, type);
    } catch (error) {
      context.notify("error", `Could not create ${path}`, describeError(error));
      return;
    }
    await this.#parts.reloadTree();
    tree.reveal(path);
    if (type === "file") this.#parts.openFile(path);
    else tree.expanded[path] = true;
  }

  async renameEntry(from: string): Promise<void> {
    const { api, context, dialogs, tree, documents } = this.#parts;
    if (viewerRefused(context, "rename files")) return;
    const answer = await dialogs.ask({
      title: `Rename ${basename(from)}`,
      message: "New path relative to the workspace root.",
      input: { label: "New path", value: from, selectBaseName: true },
      buttons: [
        { id: "cancel", label: "Cancel" },
        { id: "ok", label: "Rename", tone: "primary" },
      ],
    });
    const to = normalizePath(answer.value.trim());
    if (answer.button !== "ok" || to === "" || to === from) return;
    try {
      await api.rename(from, to);
    } catch (error) {
      context.notify("error", `Could not rename ${from}`, describeError(error));
      return;
    }
    documents.renamed(from, to);
    tree.renamed(from, to);
    await this.#parts.reloadTree();
  }

  async deleteEntry(path: string, type: "file" | "dir" | "symlink"): Promise<void> {
    const { api, context, dialogs, documents } = this.#parts;
    if (viewerRefused(context, "delete files")) return;
    const answer = await dialogs.ask({
      title: `Delete ${basename(path)}?`,
      message: type === "dir" ? `The folder “${path}” and everything in it will be deleted from disk.` : `“${path}” will be deleted from disk.`,
      buttons: [
        { id: "cancel", label: "Cancel" },
        { id: "delete", label: "Delete", tone: "danger" },
      ],
    });
    if (answer.button !== "delete") return;
    try {
      await api.remove(path, type === "dir");
    } catch (error) {
      context.notify("error", `Could not delete ${path}`, describeError(error));
      return;
    }
    documents.deleted(path);
    await this.#parts.reloadTree();
  }
}

/** Folder a "new file" action in the tree should target. */
export function folderFor(path: string | null, type: string | null): string {
  if (path === null) return "";
  return type === "dir" ? path : dirname(path);
}
