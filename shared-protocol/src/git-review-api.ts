// The hunk review of the Changes view (issue #34, item 1): a file's diff as
// hunks, and staging, unstaging and reverting a hunk, a file or several
// files. Paths are WORKSPACE_API_PATHS.gitDiff/gitStage/gitUnstage/gitRevert.
//
// Who may: GET /api/git/diff anyone with the session cookie, but a viewer
// only for a file a viewer may read (not one that may hold secrets by its
// name, nor one .gitignore ignores: 403 viewer_secret). Every POST a
// driver's only (403 driver_only), with the page's Origin. Staging writes the
// index only (`git hash-object -w`, `git update-index`); nothing runs a hook.
// Revert writes the working file through the file service with the save's
// no-clobber rule: a file changed since the page's diff is never overwritten.
//
// Errors beyond the file service's: 409 stale_change (the hunk or file is no
// longer what the page showed: load the diff again), 409 not_a_repo, 409
// git_locked (another git holds index.lock; the message names the file),
// 409 unsupported_change (a hunk of a conflicted or binary file, a
// submodule…), 409 conflict (a revert met a file changed meanwhile; carries
// `current` like a save's conflict).
//
// A hunk's revert that names a hunk no longer in the file's diff (the file
// changed between the diff shown and the click) is refused with 409
// stale_change as above; when the request carried the hunk as shown
// (`shown`, checked against its id) and that hunk's lines are still in the
// file, the refusal also carries `revert` (GitRevertConflictResponse): the
// file now and what the revert would make of it now, for the page's conflict
// view. Only the driver whose request it was receives it (every POST here is
// a driver's only, refused before any of this for a viewer or a revoked
// link); the file is one the file service reads, so it is bounded like a
// read (a file too large to read as text gets no `revert`).
//
// A whole file's revert whose `base` is no longer the file's (saved or
// staged meanwhile) is refused the same way, and the refusal carries
// `revert` when the file is text git tracks and is still there: the file now
// and the index's text, which is all the revert writes (bounded the same
// way). An untracked file (whose revert deletes it), a file deleted
// meanwhile, one with nothing left to revert, a binary file or a link gets
// only the sentence.

/** Which side a diff shows: `staged` HEAD → index, otherwise index → working tree. */
export type GitDiffSide = "staged" | "unstaged";

/** What the file is in this diff. */
export type GitDiffKind = "modified" | "added" | "deleted" | "renamed" | "untracked" | "conflicted" | "submodule" | "unchanged";

export type GitHunk = {
  /** Names the hunk in stage/unstage/revert; changes when either side of the file changes. */
  id: string;
  /** "@@ -a,b +c,d @@ …" as git wrote it. */
  header: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** Lines with git's one-character prefix (" ", "-", "+", and "\" for "No newline at end of file"). */
  lines: string[];
};

/** GET /api/git/diff?path=&staged=1 (the old path of a staged rename: &from=). */
export type GitDiffResponse = {
  path: string;
  side: GitDiffSide;
  kind: GitDiffKind;
  /** A rename's old path (staged side). */
  from?: string;
  /** The file's two sides, in one string: pass it back as `base` so a whole-file action is refused when either changed. */
  base: string;
  /** Not text (a NUL byte, invalid UTF-8): no hunks, only what it is. */
  binary: boolean;
  /** Set when the mode changed ("100644" → "100755"): stage/unstage it with `part: "mode"`. */
  modeChange: { from: string; to: string } | null;
  /** A symbolic link (mode 120000): shown as its target path's change; only the whole file is staged. */
  symlink?: boolean;
  hunks: GitHunk[];
  /** Present when the diff is larger than the page is sent: the hunks stop there; open the file instead. */
  truncated?: { shownLines: number; totalLines: number | null };
  /** A sentence for the page when the diff has no hunks to act on (binary, submodule, conflicted, too large…). */
  note?: string;
};

/**
 * POST /api/git/stage, /api/git/unstage, /api/git/revert.
 * - `hunk`: one hunk by its id (from the unstaged diff for stage and revert, the staged one for unstage);
 * - `hunk` + `text`: stage that hunk with `text` as its new side (an edited hunk; the working file is left alone);
 * - `part: "mode"`: only the mode change;
 * - neither: the whole file (`paths` for several at once: stage all / unstage all).
 * `base`, when given, is the diff's `base`: a whole-file action is refused (stale_change) if the file moved since.
 * `from`: a staged rename's old path (unstage puts it back too).
 */
export type GitReviewRequest = {
  path?: string;
  paths?: string[];
  from?: string;
  hunk?: string;
  text?: string;
  part?: "mode";
  base?: string;
  /** A hunk's revert: the hunk as the page showed it (its header and lines, as in GitHunk), so a refusal can say what the revert would make of the file now. */
  shown?: { header: string; lines: string[] };
};

/** 409 stale_change to a hunk's revert whose hunk is still in the changed file, or to a whole text file's revert at a stale `base` (see the note on top). */
export type GitRevertConflictResponse = {
  error: { code: "stale_change"; message: string };
  revert: {
    /** The file on disk now: the base of a save that takes `reverted` (no-clobber, like any save). */
    current: { content: string; version: string };
    /** The file now with the hunk reversed where its lines are now; for a whole file, the index's text. */
    reverted: string;
  };
};

export type GitReviewResponse = {
  /** The paths the action touched. */
  paths: string[];
};
