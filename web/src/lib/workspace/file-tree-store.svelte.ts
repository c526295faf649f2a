// The explorer's file tree: the listing from the relay, which folders are
// open, which entry is selected. Reloads are numbered so that a slow answer
// never overwrites a newer one.

import { describeError } from "./describe-error.ts";
import type { FilesApi } from "./files-api.ts";
import { ancestorsOf, buildTree, filePaths, normalizePath, type TreeNode } from "./file-tree.ts";
import type { WorkspaceEntry } from "./workspace-api-types.ts";

export type LoadStatus = "idle" | "loading" | "ready" | "error";

export class FileTreeStore {
  root = $state<string | null>(null);
  entries = $state.raw<WorkspaceEntry[]>([]);
  tree = $state.raw<TreeNode>(buildTree([]));
  truncated = $state(false);
  status = $state<LoadStatus>("idle");
  error = $state<string | null>(null);
  expanded = $state<Record<string, true>>({});
  selectedPath = $state<string | null>(null);

  readonly #api: Pick<FilesApi, "tree">;
  #request = 0;

  constructor(api: Pick<FilesApi, "tree">) {
    this.#api = api;
  }

  /** Every file's path (folders left out), for quick open. */
  get files(): string[] {
    return filePaths(this.entries);
  }

  /** Loads the listing; a failure keeps the last good tree on screen only if there was one. */
  async load(): Promise<void> {
    const request = ++this.#request;
    if (this.status !== "ready") this.status = "loading";
    try {
      const listing = await this.#api.tree();
      if (request !== this.#request) return;
      this.root = listing.root;
      this.entries = listing.entries.map((e) => ({ ...e, path: normalizePath(e.path) }));
      this.tree = buildTree(this.entries);
      this.truncated = listing.truncated;
      this.status = "ready";
      this.error = null;
    } catch (error) {
      if (request !== this.#request) return;
      this.status = "error";
      this.error = describeError(error);
    }
  }

  toggleFolder(path: string, open = !this.expanded[path]): void {
    if (open) this.expanded[path] = true;
    else delete this.expanded[path];
  }

  collapseAll(): void {
    this.expanded = {};
  }

  /** Opens the folders above `path` and selects it. */
  reveal(path: string): void {
    for (const folder of ancestorsOf(path)) this.expanded[folder] = true;
    this.selectedPath = path;
  }

  /** An entry was renamed: its selection and open state follow it. */
  renamed(from: string, to: string): void {
    if (this.selectedPath === from) this.selectedPath = to;
    if (this.expanded[from]) this.expanded[to] = true;
  }
}
