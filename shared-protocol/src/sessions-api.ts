// The relay's session service: pi's saved sessions of this workspace, listed
// from disk (pi has no list command), plus downloads of a session's JSONL and
// of an HTML export. HTTP GET under /api/sessions, behind the same access
// rules as everything else (the session cookie, an allowed Host, no foreign
// Origin).

export const SESSIONS_API_PATHS = {
  /** GET ?offset=0&limit=50&q=text → SessionListResponse */
  list: "/api/sessions",
  /** GET ?path=<absolute session file> → the file, as a download */
  download: "/api/sessions/download",
  /** GET /api/sessions/export/<name>.html → the export, as a download; the file is removed after */
  exportPrefix: "/api/sessions/export/",
} as const;

export const SESSIONS_LIMITS = {
  /** Largest page the list answers. */
  maxPageSize: 200,
  defaultPageSize: 50,
  /** Longest search text accepted. */
  maxQueryLength: 200,
} as const;

/** One saved session, read from its file. */
export type SessionListItem =
  | {
      readable: true;
      /** Absolute path of the session file (what `switch_session` takes). */
      path: string;
      /** From the header. */
      id: string;
      /** The working folder recorded in the header. */
      cwd: string;
      /** False when that folder no longer exists (pi refuses to switch to it). Checked with a stat, cached a few seconds. */
      cwdExists: boolean;
      /** The latest session_info name, if any (an empty one clears it, as in pi). */
      name: string | null;
      /**
       * Text of the first user message that has any (like pi, an image-only
       * prompt is passed over): text blocks joined, whitespace collapsed, cut
       * at 300 characters.
       */
      firstPrompt: string | null;
      /** ISO time of the header. */
      created: string;
      /** Milliseconds since the epoch of the last activity (the file's modification time). */
      modified: number;
      /** Message entries on disk, every branch (system prompts not counted; a line still being written not yet). */
      messageCount: number;
      /**
       * Sum of usage.cost.total over what pi's get_session_stats adds up
       * (assistant and tool-result messages, usage entries, compaction and
       * branch summaries), when any reported one; null otherwise.
       */
      cost: number | null;
      /** Session file this one was forked or cloned from. */
      parentSession: string | null;
      /** The file is larger than what was read (64 MiB per file; the counts cover the part read). */
      partial: boolean;
    }
  | {
      readable: false;
      path: string;
      modified: number;
      /** Why it could not be read, in words ("not a pi session: the first line is not a session header"). */
      error: string;
    };

export type SessionListResponse = {
  /** The session folder (resolved like pi does). */
  dir: string;
  /** Sessions matching the query (all of them without one); with pi's cwd filter, other folders' sessions are not counted. */
  total: number;
  offset: number;
  sessions: SessionListItem[];
};

/** What the hello frame tells a browser about sessions. */
export type SessionsInfo = {
  /** The session folder (resolved like pi does: --session-dir, PI_CODING_AGENT_SESSION_DIR, settings, default). */
  dir: string;
  /** False when pi runs with --no-session: nothing is saved, nothing can be listed or resumed. */
  persisted: boolean;
  /** Where `export_html` may write (the relay refuses any other outputPath); files are served once and removed. */
  exportDir: string;
};
