// Agents on their own git worktrees: what pier remembers of each one it made
// (by live session id), and the pieces every worktree operation shares. The
// operations live beside this file: worktree-create.ts (branch + worktree
// from a workspace's HEAD), worktree-diff.ts (its changes against the base),
// worktree-merge.ts (commit its work, merge into the base branch),
// worktree-discard.ts (remove worktree and branch). git runs through
// git-run.ts only.
import { lstat } from "node:fs/promises";
import type { LiveWorktree } from "@pier/protocol";
import { WorkspaceTrust } from "../workspace/workspace-trust.ts";
import { runGit } from "./git-run.ts";

/** What pier keeps of a worktree it made: the card's part, and the repository it belongs to. */
export type WorktreeRecord = LiveWorktree & {
  /** The top of the working tree the worktree was made from (where the base branch is checked out, and merged into). */
  repo: string;
};

/** A refusal with a sentence; `details` go into the JSON answer beside `error` (e.g. a merge's conflicts). */
export type WorktreeRefusal = { status: 400 | 403 | 404 | 409 | 410 | 413 | 500 | 503; code: string; message: string; details?: Record<string, unknown> };

export function refusal(status: WorktreeRefusal["status"], code: string, message: string, details?: Record<string, unknown>): WorktreeRefusal {
  return details === undefined ? { status, code, message } : { status, code, message, details };
}

export function isRefusal(value: unknown): value is WorktreeRefusal {
  return typeof value === "object" && value !== null && "status" in value && "code" in value && "message" in value;
}

/** The worktrees pier made, by the id of the live session working in each. */
export class Worktrees {
  /** `--worktrees DIR`: where worktrees go instead of beside their repository (worktreeLocation). */
  readonly dir: string | null;
  readonly #records = new Map<string, WorktreeRecord>();
  readonly #queues = new Map<string, Promise<void>>();

  constructor(dir: string | null) {
    this.dir = dir;
  }

  get(id: string): WorktreeRecord | undefined {
    return this.#records.get(id);
  }

  remember(id: string, record: WorktreeRecord): void {
    this.#records.set(id, record);
  }

  forget(id: string): void {
    this.#records.delete(id);
  }

  /**
   * Runs `task` after any other merge or discard of the same worktree has
   * finished: two browsers acting on one card at once take turns, and the
   * second sees what the first did (a discarded worktree, a merged branch).
   */
  exclusive<T>(id: string, task: () => Promise<T>): Promise<T> {
    const before = this.#queues.get(id) ?? Promise.resolve();
    const run = before.then(task, task);
    const settled = run.then(
      () => {},
      () => {},
    );
    this.#queues.set(id, settled);
    void settled.then(() => {
      if (this.#queues.get(id) === settled) this.#queues.delete(id);
    });
    return run;
  }
}

/** The card's part of a record. */
export function cardWorktree(record: WorktreeRecord): LiveWorktree {
  return { branch: record.branch, base: { ...record.base }, path: record.path };
}

/**
 * Whether git may run what this repository configures (filters, and hooks
 * where a call allows them): pi's trust decision for the folder, as the file
 * service uses it (workspace-trust.ts). Untrusted: git runs guarded.
 */
export async function folderTrusted(folder: string): Promise<boolean> {
  try {
    return (await (await WorkspaceTrust.open(folder, process.env)).read()).trusted;
  } catch {
    return false;
  }
}

/** Whether the worktree's folder is still there (it may have been deleted behind pier's back). */
export async function worktreePresent(record: WorktreeRecord): Promise<boolean> {
  try {
    return (await lstat(record.path)).isDirectory();
  } catch {
    return false;
  }
}

export function gone(record: WorktreeRecord): WorktreeRefusal {
  return refusal(410, "worktree_gone", `the worktree folder ${record.path} is gone (deleted outside pier): discard this agent to clean up git's records of it and its branch ${record.branch}`);
}

/** What the changes are counted from: the base branch's tip when it still exists, else the commit it was made from. */
export async function baseRef(record: WorktreeRecord): Promise<string> {
  if (record.base.branch === null) return record.base.commit;
  const tip = await runGit(record.repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${record.base.branch}^{commit}`]);
  return tip.ok ? tip.stdout.toString("utf8").trim() : record.base.commit;
}

/**
 * The user's git identity for a commit in `cwd`; null when there is one, else
 * a 409 saying how to set one (git would otherwise guess one from the
 * machine's user and host names).
 */
export async function identityMissing(cwd: string): Promise<WorktreeRefusal | null> {
  for (const ident of ["GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"]) {
    const run = await runGit(cwd, ["-c", "user.useConfigOnly=true", "var", ident]);
    if (!run.ok) {
      return refusal(
        409,
        "no_identity",
        'git does not know who you are, and commits need a name and an email: run git config --global user.name "Your Name" and git config --global user.email "you@example.com" (or set them in this repository without --global), then try again',
      );
    }
  }
  return null;
}
