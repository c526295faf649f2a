// Several live sessions in one pier: each is its own pi child on a folder,
// with its own WebSocket and HTTP routes under `/live/<id>/` (the same wire
// as a single session: pi's bytes verbatim, relay frames as text). The
// board lists them all; drivers start, stop and restart them.
//
// Unprefixed routes (`/ws`, `/api/files/…`) reach the browser's default
// session: the one its link was made for, else the session pier started with.

import type { ChildStatus } from "./relay-frames.ts";

export const LIVE_API_PATHS = {
  /**
   * GET: the board (LiveBoard). POST {cwd, force?}: start a new live session there (drivers);
   * 409 `folder_busy` (with `sessions`: their ids) when an agent already runs in that folder, unless force is true.
   */
  sessions: "/api/live",
  /** POST {id}: stop that session's pi (drivers). */
  stop: "/api/live/stop",
  /** POST {id}: start its pi again, on the session file it had (drivers). */
  restart: "/api/live/restart",
  /** POST {id}: stop it and take it off the board (drivers; never deletes files). */
  archive: "/api/live/archive",
  /** POST {id, message}: prompt that agent from the board (drivers; a follow-up while it works). */
  prompt: "/api/live/prompt",
  /** POST {id}: abort its run (drivers). */
  abort: "/api/live/abort",
  /** POST {id, requestId, value? | confirmed? | cancelled?}: answer its waiting dialog (drivers; the first answer wins). */
  answer: "/api/live/answer",
  /** WebSocket: a `board` text frame with every card whenever one changes. */
  boardSocket: "/api/live/board",
  /** POST {workspace, branch}: a new branch and git worktree from the workspace's HEAD, and an agent in it (drivers). 201 {card}. */
  worktree: "/api/live/worktree",
  /** GET ?id=: the worktree's changes against its base (LiveDiff; drivers, and viewers who may see that session). */
  diff: "/api/live/diff",
  /** GET ?id=&path=: one file's base and current text (LiveDiffText), for a side-by-side diff. */
  diffFile: "/api/live/diff/file",
  /** POST {id, mode: "ff" | "merge"}: commit the worktree's work and merge its branch into the base branch (drivers). 200 LiveMergeDone; 409 with `conflicts` on a conflict. */
  merge: "/api/live/merge",
  /** POST {id, confirm?}: without confirm, what would be lost (LiveDiscardPreview); with it, stop the agent and remove its worktree and branch (drivers). */
  discard: "/api/live/discard",
} as const;

/** The path prefix of a live session's routes. */
export const LIVE_PREFIX = "/live/";

/** A live session's id: short, URL-safe (`/live/<id>/`). */
export const LIVE_ID_PATTERN = /^[a-z0-9]{1,16}$/;

export type LiveRunState = "starting" | "idle" | "working" | "needs_you" | "done" | "failed" | "stopped" | "exited";

/** One card of the board. */
export type LiveCard = {
  id: string;
  /** The folder pi works in (absolute). */
  cwd: string;
  /** The checked-out branch; null when detached or not a repository. */
  branch: string | null;
  /** The session pier started with (it cannot be archived). */
  primary: boolean;
  child: ChildStatus["state"];
  /** pi was stopped after the session sat idle (pier --idle-stop); it starts again, on its session, when opened or prompted. */
  asleep: boolean;
  state: LiveRunState;
  /** When `state` began. */
  since: number;
  tool: string | null;
  /** The dialog waiting for an answer; a select's choices come with it (capped), so it can be answered from the board. */
  question: { id: string; method: string; title: string; options?: string[] } | null;
  error: string | null;
  /** The session's name, else its first prompt's first line. */
  title: string | null;
  model: string | null;
  cost: number;
  lastActivityAt: number;
  /** The last lines pi wrote on stderr (redacted), when it failed. */
  stderrTail: string[];
  browsers: number;
  createdAt: number;
  /** The git worktree pier made for this agent (POST worktree), else null. */
  worktree: LiveWorktree | null;
};

/** An agent's own branch and worktree, made from a workspace's HEAD. */
export type LiveWorktree = {
  branch: string;
  /** What it was made from: the workspace's branch then (null: a detached HEAD, nothing to merge into) and its commit. */
  base: { branch: string | null; commit: string };
  /** The worktree's folder (absolute). */
  path: string;
};

export type LiveDiffStatus = "added" | "modified" | "deleted" | "renamed";

export type LiveDiffEntry = {
  path: string;
  /** The old path of a renamed file. */
  from?: string;
  status: LiveDiffStatus;
  /** Lines added and removed; null for a binary file. */
  added: number | null;
  deleted: number | null;
  binary: boolean;
  /** Not yet known to git (a new file the agent has not added). */
  untracked: boolean;
};

/** A worktree's changes (committed, staged, unstaged and untracked) against the merge-base with its base. */
export type LiveDiff = {
  id: string;
  worktree: LiveWorktree;
  /** The commit the changes are counted from. */
  mergeBase: string;
  files: LiveDiffEntry[];
  totals: { files: number; added: number; deleted: number };
  /** More files changed than are listed. */
  truncated: boolean;
};

/** One side of a file: its text, or why there is none. */
export type LiveFileText = { content: string; reason: null } | { content: null; reason: "absent" | "binary" | "too_large" };

/** GET diffFile: what a side-by-side diff shows. */
export type LiveDiffText = { id: string; path: string; from?: string; base: LiveFileText; current: LiveFileText };

/** 200 of POST merge. */
export type LiveMergeDone = {
  mode: "ff" | "merge";
  /** The base branch and its new head. */
  into: string;
  head: string;
  /** The commit made of the worktree's uncommitted work first (null: there was none). */
  committed: string | null;
};

/** A file both sides changed: each side's text, so a person can see the clash. Sent with 409 `conflict`. */
export type LiveMergeConflict = { path: string; base: LiveFileText; worktree: LiveFileText };

/** Without confirm, POST discard answers what removing the worktree would lose. */
export type LiveDiscardPreview = {
  /** Uncommitted paths (untracked included). */
  uncommitted: string[];
  /** Commits on the branch that the base branch does not have (newest first, capped). */
  unmerged: { commit: string; subject: string }[];
  /** The worktree's folder is gone (deleted behind pier's back): discarding only cleans git's records. */
  missing: boolean;
};

export type LiveBoard = {
  cards: LiveCard[];
  /** Pi children that may run at once (pier --max-agents). */
  maxRunning: number;
  /** What this browser may do on the board. */
  role: "driver" | "viewer";
};

/** relay → board socket, text. */
export type BoardFrame = { type: "board"; board: LiveBoard };

/** A workspace folder pier lists (live-api.ts WORKSPACES_API_PATHS). */
export type WorkspaceInfo = {
  /** Absolute. */
  path: string;
  /** Its folder name. */
  name: string;
  /** Last time an agent was started there or it was added (0: never). */
  lastUsedAt: number;
  /** Given with --cwd this run (cannot be removed from the list while pier runs). */
  given: boolean;
};

export const WORKSPACES_API_PATHS = {
  /** GET: { workspaces: WorkspaceInfo[] } (drivers and board viewers). POST {path}: add one (drivers). */
  list: "/api/workspaces",
  /** POST {path}: take it off the list; its files are never touched (drivers). */
  remove: "/api/workspaces/remove",
  /** GET ?path=: the folders inside `path` (default: the home folder), for the folder chooser (drivers only). */
  folders: "/api/folders",
} as const;

/** The folder chooser's view of one folder. */
export type FolderListing = {
  path: string;
  /** null at the file system's root. */
  parent: string | null;
  folders: { name: string; path: string; hidden: boolean; repository: boolean }[];
  /** More folders than were listed (the listing is capped). */
  truncated: boolean;
};
