// Searching the workspace's files and replacing across them (the Search view).
// Per live session, prefixed with `/live/<id>` like the session's other routes.
//
// GET /api/search?q=…&regex=1&case=1&word=1&include=…&exclude=…&ignored=1
//   answers NDJSON (`application/x-ndjson`): one SearchRecord per line, as git
//   finds them. Drivers and viewers; a viewer never gets a line of a file a
//   viewer may not read (secrets by name, files .gitignore ignores), and the
//   "ignored files" toggle is a driver's only. Closing the request stops the
//   search (the relay kills git at once).
// POST /api/search/preview {query, replacement}: every change a replace would
//   make (SearchPreviewResponse). Drivers only.
// POST /api/search/replace {query, replacement, files: [{path, version, matches}]}:
//   writes the chosen changes through the file service's no-clobber save
//   (SearchReplaceResponse). Drivers only.

export const SEARCH_API_PATHS = {
  search: "/api/search",
  preview: "/api/search/preview",
  replace: "/api/search/replace",
} as const;

export const SEARCH_LIMITS = {
  /** A search stops after this many matching lines ("the first N are shown"). */
  maxMatches: 10_000,
  /** A line is cut to about this many characters around its first match. */
  maxLineChars: 240,
  /** A query longer than this is refused. */
  maxQueryChars: 1000,
  /** Include or exclude globs, each (comma separated). */
  maxGlobs: 50,
  /** A preview covers at most this many files. */
  maxPreviewFiles: 2000,
  /**
   * How long the page waits after a keystroke before it searches. Short: the
   * first result must show within 100 ms of the last keystroke, and the
   * search takes some of that (one a later keystroke overtakes is aborted,
   * so searching early costs little).
   */
  pageDebounceMs: 40,
} as const;

/** What to search for; `include`/`exclude` are globs ("src/**", "*.ts"), matched against workspace-relative paths. */
export type SearchQuery = {
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
  wholeWord: boolean;
  include: string[];
  exclude: string[];
  /** Also search files .gitignore ignores (drivers only). */
  ignored: boolean;
};

/**
 * One matching line. `ranges` are [start, end) in UTF-16 units of `text`;
 * `text` may be cut (`cutBefore`: characters left off at its start), and
 * then `matchCount` counts the matches of the whole line.
 */
export type SearchMatchRecord = { type: "match"; path: string; line: number; text: string; ranges: [number, number][]; cutBefore?: number; cutAfter?: boolean; matchCount?: number };
export type SearchDoneRecord = {
  type: "done";
  files: number;
  /** Matching lines. */
  lines: number;
  /** Matches (a line may hold several). */
  matches: number;
  /** Stopped at SEARCH_LIMITS.maxMatches lines. */
  truncated: boolean;
  /** The workspace is not in a git repository (searched with `git grep --no-index`). */
  notRepo: boolean;
  elapsedMs: number;
};
export type SearchErrorRecord = { type: "error"; message: string };
export type SearchRecord = SearchMatchRecord | SearchDoneRecord | SearchErrorRecord;

export type ReplacePreviewMatch = {
  /** The match's place among the file's matches (what `files[].matches` names). */
  index: number;
  line: number;
  /** The line before and after, cut around the match like a search line. */
  before: string;
  after: string;
  /** Where the match is in `before` and its replacement in `after`. */
  beforeRange: [number, number];
  afterRange: [number, number];
};
export type ReplacePreviewFile = { path: string; version: string; matches: ReplacePreviewMatch[] };
export type SearchPreviewResponse = { files: ReplacePreviewFile[]; truncated: boolean; skipped: { path: string; reason: string }[] };

export type SearchReplaceRequest = { query: SearchQuery; replacement: string; files: { path: string; version: string; matches: number[] }[] };
export type SearchReplaceResponse = {
  replaced: { path: string; matches: number; version: string }[];
  /** Files not written, with why ("changed meanwhile, not replaced"…); nothing in them was lost. */
  skipped: { path: string; reason: string }[];
};
