// Read-only side-by-side diffs shown in editor tabs: a tool's edit (static),
// or a working-tree file against HEAD (follows the disk). Tabs themselves are
// the documents store's; this keeps what each diff tab shows.

import { describeError, isNotFound } from "./describe-error.ts";
import type { FilesApi } from "./files-api.ts";
import { basename, normalizePath } from "./file-tree.ts";
import type { GitChange } from "./workspace-api-types.ts";

/** A read-only side-by-side diff in a tab. */
export interface DiffDocument {
  key: string;
  title: string;
  path: string;
  /** Diffs of the working tree against HEAD follow the disk; "staged" is a hunk review of the index alone (review-store.svelte.ts), with no texts here. */
  source: "static" | "git" | "staged";
  loading: boolean;
  error: string | null;
  original: string;
  modified: string;
  /** Bumped whenever original/modified change (the diff view re-syncs its models). */
  revision: number;
  /** The file is in another page's workspace (a worktree agent's): "Open file" goes there. */
  elsewhere: DiffElsewhere | null;
}

/** Another page that has the diff's file: its address and the button's words. */
export type DiffElsewhere = { href: string; label: string };

export interface OpenDiffOptions {
  title: string;
  path: string;
  original: string;
  modified: string;
  elsewhere?: DiffElsewhere;
}

/** What a diff tab is called and where it points. */
export interface DiffTabInfo {
  key: string;
  path: string;
  title: string;
}

export class DiffsStore {
  diffs = $state<Record<string, DiffDocument>>({});

  readonly #api: Pick<FilesApi, "gitHead" | "read">;

  constructor(api: Pick<FilesApi, "gitHead" | "read">) {
    this.#api = api;
  }

  /** A diff given whole (e.g. of a tool's write/edit). Same title + path reuses the diff. */
  putStatic(options: OpenDiffOptions): DiffTabInfo {
    const path = normalizePath(options.path);
    const key = `static:${path}\u0000${options.title}`;
    const existing = this.diffs[key];
    if (existing) {
      if (existing.original !== options.original || existing.modified !== options.modified) {
        existing.original = options.original;
        existing.modified = options.modified;
        existing.revision++;
      }
    } else {
      const elsewhere = options.elsewhere ?? null;
      this.diffs[key] = { key, title: options.title, path, source: "static", loading: false, error: null, original: options.original, modified: options.modified, revision: 0, elsewhere };
    }
    return { key, path, title: options.title };
  }

  /** A diff of the working-tree file against HEAD, (re)loaded in the background. */
  putGitChange(change: GitChange): DiffTabInfo {
    const key = `git:${change.path}`;
    if (!this.diffs[key]) {
      this.diffs[key] = {
        key,
        title: `${basename(change.path)} (HEAD ↔ working tree)`,
        path: change.path,
        source: "git",
        loading: true,
        error: null,
        original: "",
        modified: "",
        revision: 0,
        elsewhere: null,
      };
    }
    void this.loadGit(key, change.from ?? change.path);
    return { key, path: change.path, title: `${basename(change.path)} ↔ HEAD` };
  }

  /** A tab reviewing what is staged of a file (its hunks come from review-store.svelte.ts). */
  putGitStaged(change: GitChange): DiffTabInfo {
    const key = `staged:${change.path}`;
    const title = `${basename(change.path)} (staged)`;
    if (!this.diffs[key]) {
      this.diffs[key] = { key, title, path: change.path, source: "staged", loading: false, error: null, original: "", modified: "", revision: 0, elsewhere: null };
    }
    return { key, path: change.path, title };
  }

  /** Reads HEAD's text (at `headPath`, the old path of a rename) and the file on disk now. */
  async loadGit(key: string, headPath: string): Promise<void> {
    const diff = this.diffs[key];
    if (!diff) return;
    try {
      const [head, current] = await Promise.all([
        this.#api.gitHead(headPath),
        this.#api.read(diff.path).catch((error: unknown) => {
          if (isNotFound(error)) return null;
          throw error;
        }),
      ]);
      const target = this.diffs[key];
      if (!target) return;
      const modified = current === null ? "" : current.readOnly ? `(${current.reason === "binary" ? "binary file" : "file too large to show"})` : current.content;
      const original = head.content ?? "";
      if (original !== target.original || modified !== target.modified) {
        target.original = original;
        target.modified = modified;
        target.revision++;
      }
      target.loading = false;
      target.error = null;
    } catch (error) {
      const target = this.diffs[key];
      if (!target) return;
      target.loading = false;
      target.error = describeError(error);
    }
  }

  /** Files changed on disk (`touches` says which): diffs against HEAD follow; a commit or checkout (`git`) moves HEAD under all of them. */
  diskChanged(touches: (path: string) => boolean, git: boolean): void {
    for (const diff of Object.values(this.diffs)) {
      if (diff.source === "git" && (git || touches(diff.path))) void this.loadGit(diff.key, diff.path);
    }
  }

  drop(key: string): void {
    delete this.diffs[key];
  }
}
