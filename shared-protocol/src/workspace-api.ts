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
  gitHead: "/api/git/head",
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
  /** 413: the request body is too large. */
  | "payload_too_large"
  /** 415: the request body is not JSON, or the path is not a regular file (a folder, FIFO, socket or device). */
  | "unsupported_media_type"
  | "not_regular_file"
  /** 409: a live session has as many shells as it may (terminal-api.ts). */
  | "too_many_terminals"
  /** 503: shells cannot be opened on this machine (the PTY library did not load). */
  | "terminal_unavailable"
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
