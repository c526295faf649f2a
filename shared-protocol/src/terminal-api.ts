// The real terminal (a shell in a pseudo-terminal, in a live session's
// folder): its HTTP routes and its WebSocket, per live session (prefixed with
// `/live/<id>` like the session's other routes, or unprefixed for the
// browser's default session). A shell runs anything as the user who started
// pier, so only drivers open, close, share or type into one. Viewers may
// watch a shell a driver shares: the list gives them the shared ones only,
// and their socket attaches to a shared shell only, watch-only (keystrokes
// and resizes are refused) and never pacing the shell.
//
// The socket `/terminal?id=<id>`: relay → browser, binary frames are the
// shell's output bytes verbatim (the scrollback first, on attach), text
// frames are TerminalServerFrame; browser → relay, binary frames are
// keystrokes (bytes for the shell), text frames are TerminalClientFrame.

export const TERMINAL_API_PATHS = {
  /** GET: the session's shells (TerminalListResponse). POST {cols, rows}: a new one (TerminalCreateResponse). */
  terminals: "/api/terminals",
  /** POST {id}: end a shell (and everything it started) and forget it. */
  close: "/api/terminals/close",
  /** POST {id, shared}: let viewers watch a shell, or stop them (their sockets close). Drivers only. */
  share: "/api/terminals/share",
  /** WebSocket, `?id=<terminal id>`. */
  socket: "/terminal",
} as const;

/** Shells one live session keeps at most (ended ones included, until closed). */
export const MAX_TERMINALS = 8;
export const TERMINAL_MAX_COLS = 1000;
export const TERMINAL_MAX_ROWS = 500;

export type TerminalInfo = {
  id: string;
  /** "bash 1", "zsh 2"… */
  title: string;
  cols: number;
  rows: number;
  createdAt: number;
  /** False once the shell ended: its scrollback stays readable until it is closed. */
  alive: boolean;
  /** A driver shares it: viewers may watch it (never type). */
  shared: boolean;
};

export type TerminalListResponse = {
  terminals: TerminalInfo[];
  /** Why shells cannot be opened here (the PTY library did not load on this platform), or null. */
  unavailable: string | null;
};

export type TerminalCreateRequest = { cols: number; rows: number };
export type TerminalCreateResponse = { terminal: TerminalInfo };
export type TerminalCloseRequest = { id: string };
export type TerminalShareRequest = { id: string; shared: boolean };
export type TerminalShareResponse = { terminal: TerminalInfo };

/**
 * Browser → relay text frames. `ack`: the output bytes this socket has drawn
 * so far (a running total, since it attached). A page that acks is paced by
 * what it has drawn, not only by what its socket took: xterm.js drops what
 * it is given beyond ~50 MB it has not drawn yet.
 */
export type TerminalClientFrame = { type: "resize"; cols: number; rows: number } | { type: "ack"; bytes: number };

/** Relay → browser text frames. */
export type TerminalServerFrame =
  /** After the scrollback: what follows is live output. */
  | { type: "ready"; cols: number; rows: number }
  /** The shell ended; the socket closes after it. */
  | { type: "exit"; exitCode: number; signal: number | null }
  /** The shell's size changed (a driver's browser resized it): a watch-only page draws at that size. */
  | { type: "resized"; cols: number; rows: number }
  /** Something the browser sent was refused, and why. */
  | { type: "error"; message: string };

/** Close codes of a terminal socket (besides CLOSE_REVOKED and 1001 for pier stopping). */
export const TERMINAL_CLOSE = {
  /** The shell ended (or was closed). */
  ended: 4000,
  /** The driver stopped sharing this shell: a viewer's socket closes at once. */
  unshared: 4003,
  /** This socket fell too far behind the shell's output; reattaching gets the scrollback. */
  behind: 4008,
} as const;
