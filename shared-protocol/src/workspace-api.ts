// The relay's workspace file service: HTTP + JSON under /api/, behind the same
// access rules as everything else (the session cookie; a same-origin Origin on
// every PUT/POST; `Content-Type: application/json` on every request body).
//
// Paths are workspace-relative and "/"-separated ("src/app.ts"), never
// absolute, never with "." or ".." segments, backslashes or NUL bytes, never
// into ".git". The workspace root is pi's cwd.

export const WORKSPACE_API_PATHS = {
  tree: "/api/files/tree",
  content: "/api/files/content",
  create: "/api/files/create",
  rename: "/api/files/rename",
  delete: "/api/files/delete",
  gitStatus: "/api/git/status",
  /** The hunk review (git-review-api.ts): GET a file's diff; POST stage, unstage, revert (drivers only). */
  gitDiff: "/api/git/diff",
  gitStage: "/api/git/stage",
  gitUnstage: "/api/git/unstage",
  gitRevert: "/api/git/revert",
  gitHead: "/api/git/head",
  /** GET: branches, HEAD and what the commit box needs (git-actions below). */
  gitRepo: "/api/git/repo",
  gitCommit: "/api/git/commit",
  gitBranchCreate: "/api/git/branch/create",
  gitBranchSwitch: "/api/git/branch/switch",
  gitBranchDelete: "/api/git/branch/delete",
  gitPull: "/api/git/pull",
  gitPush: "/api/git/push",
  gitInit: "/api/git/init",
} as const;

export const WORKSPACE_LIMITS = {
  /** Larger files are served read-only without content (`reason: "too_large"`). */
  maxEditableBytes: 2 * 1024 * 1024,
  /** Request body limit of PUT /api/files/content. */
  maxSaveBodyBytes: 8 * 1024 * 1024,
  /** Request body limit of the other POSTs. */
  maxBodyBytes: 64 * 1024,
  /** The tree lists at most this many entries (then `truncated: true`). */
  maxTreeEntries: 20_000,
  /** A `workspace_changed` frame names at most this many paths. */
  maxChangedPaths: 500,
} as const;

/**
 * `workspace_changed` carries this path, alone, when more paths changed at once
 * than a frame names: treat it as "anything in the workspace may have changed".
 * (A directory path in general means "this directory or something under it".)
 */
export const WORKSPACE_ROOT_PATH = "";

// --- Errors -----------------------------------------------------------------

export type WorkspaceErrorCode =
  /** 400: malformed JSON or a missing/ill-typed field. */
  | "bad_request"
  /** 400: the path is empty, absolute, has "."/".." or empty segments, a backslash or a NUL byte. */
  | "bad_path"
  /** 403: the path is inside a ".git" directory. */
  | "forbidden_path"
  /** 403: the path resolves (through a symbolic link) outside the workspace. */
  | "outside_workspace"
  /** 403: writes, renames, creations and deletions never go through a symbolic link. */
  | "symlink_refused"
  /** 403: the file has other hard links, which may lead outside the workspace: it is not read or written. */
  | "hard_link_refused"
  /** 403: a viewer asked for a file that may hold secrets (by its name, or ignored by .gitignore); drivers read it. */
  | "viewer_secret"
  /** 403: a PUT/POST without the page's own Origin header. */
  | "origin_required"
  /** 403: the operating system refused (permissions, read-only file system). */
  | "permission_denied"
  /** 401/403: the relay's access rules refused the request (no session cookie, foreign Origin, Host). */
  | "unauthorized"
  | "forbidden"
  /** 404: no such file or folder (or API route). */
  | "not_found"
  /** 405 */
  | "method_not_allowed"
  /** 409: the target already exists. */
  | "exists"
  /** 409: the folder is not empty (delete it with `recursive: true`). */
  | "not_empty"
  /** 409: the file changed since `baseVersion` (see `SaveConflictResponse`). */
  | "conflict"
  /** 409: the hunk or file is no longer what the page showed (changed meanwhile): refresh the diff. */
  | "stale_change"
  /** 409: the change cannot be made from the page (a hunk of a conflicted or binary file, a submodule…); the message says why. */
  | "unsupported_change"
  /** 413: the request body is too large. */
  | "payload_too_large"
  /** 415: the request body is not JSON, or the path is not a regular file (a folder, FIFO, socket or device). */
  | "unsupported_media_type"
  | "not_regular_file"
  /** 409: a live session has as many shells as it may (terminal-api.ts). */
  | "too_many_terminals"
  /** 503: shells cannot be opened on this machine (the PTY library did not load). */
  | "terminal_unavailable"
  /** 403: committing, branches, pull and push are for drivers (a viewer only reads the branch list). */
  | "driver_only"
  /** 403: the change runs this repository's own hooks, which run only in a trusted folder. */
  | "not_trusted"
  /** 409: the workspace is not in a git repository (offer `git init`); or it already is one (init refused). */
  | "not_a_repo"
  | "already_a_repo"
  /** 409: nothing is staged for a commit. */
  | "nothing_staged"
  /** 409: git does not know the user's name and email (`git config --global user.name …`). */
  | "no_identity"
  /** 409: another git process holds the repository's index.lock. */
  | "git_locked"
  /** 400: git refuses the branch name (`git check-ref-format --branch`). */
  | "bad_branch_name"
  /** 409: the branch holds commits not merged anywhere: deleting it needs `force: true`. */
  | "branch_not_merged"
  /** 409: no remote is configured (pull/push), or the branch has no upstream to pull from. */
  | "no_remote"
  /** 409: the pull cannot fast-forward (the branches diverged): nothing changed. */
  | "not_fast_forward"
  /** 409: git refused or failed; `output` (GitFailedExtra) holds its own words, hooks' output included. */
  | "git_failed"
  /** 504: git did not finish in time (a remote that does not answer). */
  | "git_timeout"
  /** 507 */
  | "no_space"
  /** 500 */
  | "internal";

export type WorkspaceApiError = { code: WorkspaceErrorCode; message: string };

/** Every error answer has this body (a 409 conflict on save adds `current`). */
export type WorkspaceErrorResponse = { error: WorkspaceApiError };

// --- GET /api/files/tree ------------------------------------------------------

export type WorkspaceEntryType = "file" | "dir" | "symlink";

export type WorkspaceEntry = {
  path: string;
  type: WorkspaceEntryType;
  /** Bytes for a file; 0 for a folder or a symbolic link (links are listed, never followed). */
  size: number;
};

/**
 * Depth-first: each folder is followed by its contents; within a folder,
 * folders come first, then everything else, each sorted by name. Hides ".git"
 * and whatever the .gitignore files (root and nested) and .git/info/exclude
 * ignore. FIFOs, sockets and devices are left out.
 */
export type FileTreeResponse = {
  /** The workspace's absolute path, for display. */
  root: string;
  entries: WorkspaceEntry[];
  /** True when the listing stopped at `WORKSPACE_LIMITS.maxTreeEntries`. */
  truncated: boolean;
};

// --- GET /api/files/content?path= --------------------------------------------

export type FileContentResponse =
  | {
      path: string;
      /** The file's text (UTF-8 decoded; a byte order mark is kept). */
      content: string;
      /** sha256 hex of the file's bytes: pass it back as `baseVersion`. */
      version: string;
      size: number;
      readOnly: false;
    }
  | {
      path: string;
      content: null;
      version: string;
      size: number;
      readOnly: true;
      /** "binary": a NUL byte or invalid UTF-8; "too_large": over `maxEditableBytes`. */
      reason: "binary" | "too_large";
    };

// --- PUT /api/files/content ----------------------------------------------------

export type SaveFileRequest = {
  path: string;
  content: string;
  /** The version the edit started from; `null` creates the file (only if it does not exist). */
  baseVersion: string | null;
};

export type SaveFileResponse = { version: string };

/** 409 when the file on disk is not at `baseVersion`: show a diff, keep mine / take theirs / merge. */
export type SaveConflictResponse = {
  error: WorkspaceApiError & { code: "conflict" };
  current: {
    /** null when the file was deleted or is not editable text. */
    content: string | null;
    /** null when the file does not exist (any more). */
    version: string | null;
  };
};

// --- POST /api/files/create, /rename, /delete ----------------------------------

export type CreateEntryRequest = { path: string; type: "file" | "dir" };
/** `version` is the new empty file's version (null for a folder). */
export type CreateEntryResponse = { path: string; type: "file" | "dir"; version: string | null };

export type RenameEntryRequest = { from: string; to: string };
export type RenameEntryResponse = { from: string; to: string };

/** A folder is deleted only when empty, unless `recursive: true`. A symbolic link is deleted itself, never its target. */
export type DeleteEntryRequest = { path: string; recursive?: boolean };
export type DeleteEntryResponse = { path: string };

// --- GET /api/git/status, /api/git/head?path= -----------------------------------

export type GitChangeStatus = "modified" | "added" | "deleted" | "renamed" | "untracked" | "conflicted";

export type GitChange = {
  /** Workspace-relative (also when the workspace is a folder inside the repository). */
  path: string;
  status: GitChangeStatus;
  /** For "renamed": the old path (workspace-relative, or repository-relative if outside the workspace). */
  from?: string;
  /**
   * git's own two letters (`git status --porcelain`): `index` is the staged
   * side (HEAD → index), `worktree` the unstaged one (index → working tree);
   * " " unchanged, M, T, A, D, R, C, U (conflict), "?" untracked.
   */
  index?: string;
  worktree?: string;
  /**
   * Lines added and deleted against HEAD, staged and unstaged together
   * (`git diff --numstat HEAD`). Absent for an untracked or binary file, in a
   * repository with no commit yet, and from older relays.
   */
  added?: number;
  deleted?: number;
};

export type GitStatusResponse = {
  /** False when git is missing or the workspace is not in a repository (then branch is null and changes empty). */
  isRepo: boolean;
  /** The current branch; null when HEAD is detached. */
  branch: string | null;
  changes: GitChange[];
  /** Present and true when the list stopped at its bound (10,000 changes). */
  truncated?: boolean;
};

export type GitHeadResponse = {
  path: string;
  /** The file's text in HEAD; null when it is not in HEAD (or HEAD does not exist, or no repository). */
  content: string | null;
  /** Why content is null, when it is. */
  reason?: "not_in_head" | "not_a_repo" | "binary" | "too_large";
};

// --- git actions: GET /api/git/repo; POST commit, branch/*, pull, push, init ----
//
// Who may: GET /api/git/repo everyone with the session cookie (viewers
// included: branch names and ahead/behind hold no file contents). Every POST
// a driver's only (403 driver_only for a viewer). commit, branch
// create/switch/delete, pull and push run the repository's own hooks, so
// they also need the folder trusted (403 not_trusted); init runs none and
// only needs a driver. Errors from git carry its own words in `output`.

/** Extra fields of a `git_failed` (and `not_fast_forward`, `branch_not_merged`, `nothing_staged`…) error body. */
export type GitFailedExtra = { output: string };

export type GitBranch = {
  name: string;
  current: boolean;
  /** Short name of the upstream ("origin/main"); null when none is set. */
  upstream: string | null;
  /** Commits on this branch not on its upstream, and the reverse (0 without an upstream). */
  ahead: number;
  behind: number;
  /** The upstream is set but its remote branch is gone. */
  upstreamGone?: boolean;
};

export type GitOperationKind = "merge" | "rebase" | "cherry-pick" | "revert";

export type GitRepoResponse =
  | { isRepo: false }
  | {
      isRepo: true;
      head: {
        /** The current branch (also when it has no commit yet); null when HEAD is detached. */
        branch: string | null;
        /** HEAD's commit (abbreviated); null when the branch has no commit yet. */
        commit: string | null;
      };
      /** Local branches by name (at most 1,000; then `truncated`). */
      branches: GitBranch[];
      truncated?: boolean;
      remotes: string[];
      /** A merge, rebase, cherry-pick or revert under way; `onto` names what is merged or rebased when git says. */
      operation: { kind: GitOperationKind; onto: string | null } | null;
      /** Files with unresolved conflicts. */
      conflicted: number;
      /** Files staged for the next commit. */
      staged: number;
      /** The last commit's message, for amending; null with no commit. */
      lastCommit: { commit: string; message: string } | null;
      /** Another git holds index.lock: changes would fail. */
      locked: boolean;
    };

export type GitCommitRequest = { message: string; amend?: boolean };
/** `output`: what git and the hooks printed. */
export type GitCommitResponse = { commit: string; subject: string; output: string };

export type GitBranchRequest = { name: string };
/** `force` deletes a branch whose commits are not merged (the page asks first). */
export type GitBranchDeleteRequest = { name: string; force?: boolean };
export type GitBranchResponse = { name: string; output: string };

/** Pull is `--ff-only` from the branch's upstream; push sets the upstream (`-u origin <branch>`) when the branch has none. */
export type GitRemoteResponse = { branch: string; output: string };
export type GitInitResponse = { output: string };
