// What the commit box and the branch menu show of the repository (GET
// /api/git/repo), and the changes a driver makes from them: commit, amend,
// branches, pull, push, git init. One action at a time; its refusal is kept
// (sentence and git's own output) until the next action or a dismissal, so
// a failing hook's output stays on screen. The page reloads this with git's
// status (workbench.loadGit), which every browser does on workspace_changed.
import type { GitRepoResponse } from "@pier/protocol";
import { describeError } from "./describe-error.ts";
import { FilesApiError } from "./files-api.ts";
import type { LoadStatus } from "./file-tree-store.svelte.ts";
import { gitOutput, type GitActionsApi } from "./git-actions-api.ts";

export type GitAction = "commit" | "create" | "switch" | "delete" | "pull" | "push" | "init";

export type GitActionFailure = {
  action: GitAction;
  /** The relay's code ("branch_not_merged", "not_trusted", "git_failed"…). */
  code: string;
  message: string;
  /** What git (and its hooks) printed. */
  output: string;
};

export type GitActionResult = { ok: true; output: string } | { ok: false; failure: GitActionFailure };

export class GitRepoStore {
  status = $state<LoadStatus>("idle");
  error = $state<string | null>(null);
  repo = $state.raw<GitRepoResponse | null>(null);
  /** The action under way (its button shows progress; the others wait). */
  busy = $state<GitAction | null>(null);
  failure = $state.raw<GitActionFailure | null>(null);
  /** The last success's words for a moment ("Pushed main"). */
  done = $state<string | null>(null);

  readonly #api: GitActionsApi;
  readonly #afterChange: () => void;
  #request = 0;

  /** `afterChange`: reload what depends on the repository (git status) at once, without waiting for the watcher. */
  constructor(api: GitActionsApi, afterChange: () => void = () => {}) {
    this.#api = api;
    this.#afterChange = afterChange;
  }

  async load(): Promise<void> {
    const request = ++this.#request;
    if (this.status !== "ready") this.status = "loading";
    try {
      const repo = await this.#api.repo();
      if (request !== this.#request) return;
      this.repo = repo;
      this.status = "ready";
      this.error = null;
    } catch (error) {
      if (request !== this.#request) return;
      this.status = "error";
      this.error = describeError(error);
    }
  }

  dismissFailure(): void {
    this.failure = null;
  }

  commit(message: string, amend: boolean) {
    return this.#run(
      "commit",
      () => this.#api.commit(message, amend),
      (made) => `Committed ${made.commit}: ${made.subject}`,
    );
  }
  createBranch(name: string) {
    return this.#run(
      "create",
      () => this.#api.createBranch(name),
      () => `Created and switched to ${name}`,
    );
  }
  switchBranch(name: string) {
    return this.#run(
      "switch",
      () => this.#api.switchBranch(name),
      () => `Switched to ${name}`,
    );
  }
  deleteBranch(name: string, force = false) {
    return this.#run(
      "delete",
      () => this.#api.deleteBranch(name, force),
      () => `Deleted ${name}`,
    );
  }
  pull() {
    return this.#run(
      "pull",
      () => this.#api.pull(),
      (pulled) => `Pulled into ${pulled.branch}`,
    );
  }
  push() {
    return this.#run(
      "push",
      () => this.#api.push(),
      (pushed) => `Pushed ${pushed.branch}`,
    );
  }
  init() {
    return this.#run(
      "init",
      () => this.#api.init(),
      () => "Made this folder a git repository",
    );
  }

  async #run<T extends { output: string }>(action: GitAction, call: () => Promise<T>, said: (result: T) => string): Promise<GitActionResult> {
    if (this.busy !== null) return { ok: false, failure: { action, code: "busy", message: `Wait for the ${this.busy} under way to finish.`, output: "" } };
    this.busy = action;
    this.failure = null;
    this.done = null;
    try {
      const result = await call();
      this.done = said(result);
      return { ok: true, output: result.output };
    } catch (error) {
      const failure: GitActionFailure = {
        action,
        code: error instanceof FilesApiError ? error.code : "network",
        message: describeError(error),
        output: gitOutput(error),
      };
      this.failure = failure;
      return { ok: false, failure };
    } finally {
      this.busy = null;
      this.#afterChange();
      void this.load();
    }
  }
}
