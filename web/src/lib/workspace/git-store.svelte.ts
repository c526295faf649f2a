// Git facts of the workspace for the Changes view and the tree's badges:
// repository or not, branch, changed files (paths in the tree's form).

import { describeError } from "./describe-error.ts";
import type { FilesApi } from "./files-api.ts";
import { normalizePath } from "./file-tree.ts";
import type { LoadStatus } from "./file-tree-store.svelte.ts";
import type { GitChange } from "./workspace-api-types.ts";

export class GitStore {
  status = $state<LoadStatus>("idle");
  error = $state<string | null>(null);
  isRepo = $state(false);
  branch = $state<string | null>(null);
  changes = $state.raw<GitChange[]>([]);
  /** The change of each changed path (renames under their new path). */
  readonly changeByPath = $derived(new Map(this.changes.map((c) => [c.path, c])));

  readonly #api: Pick<FilesApi, "gitStatus">;
  #request = 0;

  constructor(api: Pick<FilesApi, "gitStatus">) {
    this.#api = api;
  }

  async load(): Promise<void> {
    const request = ++this.#request;
    if (this.status !== "ready") this.status = "loading";
    try {
      const status = await this.#api.gitStatus();
      if (request !== this.#request) return;
      this.isRepo = status.isRepo;
      this.branch = status.branch;
      this.changes = status.changes.map((c) => ({ ...c, path: normalizePath(c.path) }));
      this.status = "ready";
      this.error = null;
    } catch (error) {
      if (request !== this.#request) return;
      this.status = "error";
      this.error = describeError(error);
    }
  }
}
