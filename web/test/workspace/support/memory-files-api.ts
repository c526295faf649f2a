// An in-memory workspace answering like the relay's file service (same
// shapes, same 404 and 409 rules), injected into the workbench's stores so
// their tests need no relay. Each write gets a new version; a save whose
// base is not the current version is refused with what is on disk now.
// The HTTP client itself is tested against a real server (files-api.test.ts).

import { FilesApiError, type FilesApi, type SaveConflict } from "../../../src/lib/workspace/files-api.ts";
import type { ContentResponse, GitChange, SaveResponse, WorkspaceEntry } from "../../../src/lib/workspace/workspace-api-types.ts";

type Node = { type: "dir" } | { type: "file"; content: string; version: string; binary?: boolean };

function notFound(path: string): FilesApiError {
  return new FilesApiError(404, "not_found", `No such file: ${path}`, null);
}

export class MemoryWorkspace {
  readonly nodes = new Map<string, Node>();
  git: { isRepo: boolean; branch: string | null; changes: GitChange[] } = { isRepo: false, branch: null, changes: [] };
  readonly head = new Map<string, string>();
  /** Every call, as "method path", for tests that count requests. */
  readonly calls: string[] = [];
  /** When set, the next calls fail with it (e.g. a network error). */
  failWith: FilesApiError | null = null;
  #version = 0;

  constructor(files: Record<string, string> = {}) {
    for (const [path, content] of Object.entries(files)) this.write(path, content);
  }

  /** Writes a file as another program would (parents appear as folders). */
  write(path: string, content: string): string {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) this.nodes.set(parts.slice(0, i).join("/"), { type: "dir" });
    const version = `v${++this.#version}`;
    this.nodes.set(path, { type: "file", content, version });
    return version;
  }

  version(path: string): string | null {
    const node = this.nodes.get(path);
    return node?.type === "file" ? node.version : null;
  }

  content(path: string): string | null {
    const node = this.nodes.get(path);
    return node?.type === "file" ? node.content : null;
  }

  delete(path: string): void {
    for (const key of [...this.nodes.keys()]) if (key === path || key.startsWith(`${path}/`)) this.nodes.delete(key);
  }

  #check(call: string): void {
    this.calls.push(call);
    if (this.failWith) throw this.failWith;
  }

  readonly api: FilesApi = {
    tree: async () => {
      this.#check("GET tree");
      const entries: WorkspaceEntry[] = [...this.nodes.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([path, node]) => ({ path, type: node.type, size: node.type === "file" ? node.content.length : 0 }));
      return { root: "/memory", entries, truncated: false };
    },
    read: async (path: string): Promise<ContentResponse> => {
      this.#check(`GET content ${path}`);
      const node = this.nodes.get(path);
      if (node?.type !== "file") throw notFound(path);
      const size = new TextEncoder().encode(node.content).length;
      if (node.binary) return { path, readOnly: true, reason: "binary", size, version: node.version } as ContentResponse;
      return { path, readOnly: false, content: node.content, size, version: node.version } as ContentResponse;
    },
    save: async (path: string, content: string, baseVersion: string | null): Promise<SaveResponse | SaveConflict> => {
      this.#check(`PUT content ${path}`);
      const current = this.version(path);
      if (current !== baseVersion) return { kind: "conflict", current: { content: this.content(path), version: current } };
      const version = this.write(path, content);
      return { version } satisfies SaveResponse;
    },
    create: async (path: string, type: "file" | "dir") => {
      this.#check(`POST create ${path}`);
      if (this.nodes.has(path)) throw new FilesApiError(409, "exists", `${path} exists`, null);
      if (type === "dir") this.nodes.set(path, { type: "dir" });
      else this.write(path, "");
      return {};
    },
    rename: async (from: string, to: string) => {
      this.#check(`POST rename ${from}`);
      if (!this.nodes.has(from)) throw notFound(from);
      for (const [key, node] of [...this.nodes.entries()]) {
        if (key !== from && !key.startsWith(`${from}/`)) continue;
        this.nodes.delete(key);
        this.nodes.set(to + key.slice(from.length), node);
      }
      return {};
    },
    remove: async (path: string) => {
      this.#check(`POST delete ${path}`);
      if (!this.nodes.has(path)) throw notFound(path);
      this.delete(path);
      return {};
    },
    gitStatus: async () => {
      this.#check("GET git status");
      return { ...this.git, changes: this.git.changes.map((c) => ({ ...c })) } as Awaited<ReturnType<FilesApi["gitStatus"]>>;
    },
    gitHead: async (path: string) => {
      this.#check(`GET git head ${path}`);
      return { path, content: this.head.get(path) ?? null } as Awaited<ReturnType<FilesApi["gitHead"]>>;
    },
    // The hunk review has its own tests (review-store.svelte.test.ts); here it answers as outside a repository.
    gitDiff: async (path: string) => {
      this.#check(`GET git diff ${path}`);
      throw new FilesApiError(409, "not_a_repo", "not a repository", null);
    },
    gitStage: async () => {
      this.#check("POST git stage");
      throw new FilesApiError(409, "not_a_repo", "not a repository", null);
    },
    gitUnstage: async () => {
      this.#check("POST git unstage");
      throw new FilesApiError(409, "not_a_repo", "not a repository", null);
    },
    gitRevert: async () => {
      this.#check("POST git revert");
      throw new FilesApiError(409, "not_a_repo", "not a repository", null);
    },
  };
}

/** Lets pending promise callbacks (the stores' awaits) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
