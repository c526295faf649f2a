// One shell in a pseudo-terminal, in a live session's folder, and the
// browser sockets attached to it. Its output goes to every attached socket
// as binary frames, byte for byte, and into a scrollback ring (the last
// SCROLLBACK_BYTES) that a socket attaching later gets first, in frames of
// at most CATCH_UP_FRAME_BYTES.
//
// Backpressure, shell → browsers: while an attached socket has more than
// HIGH_WATER queued, the PTY is paused (the shell blocks on its terminal, as
// under Ctrl+S) until that socket is under LOW_WATER, so a browser that
// reads, however slowly, misses nothing and the relay holds no more than
// about HIGH_WATER for it. But one slow browser must not stall the others:
// a socket that has kept the shell paused for STALL_LIMIT_MS while another
// socket could take bytes stops counting (it "lags"); the shell runs on for
// the others and the lagging socket is still sent everything, until it is
// MAX_BEHIND behind: then it is closed with a sentence, and its page
// reattaches and gets the scrollback. A page that acks what it has drawn
// (TerminalClientFrame) is also held to UNDRAWN_HIGH/UNDRAWN_LOW of output it
// was sent and has not drawn yet, so a browser whose terminal parses slower
// than the shell prints paces the shell the same way, and a key typed during
// a flood has its echo queued behind no more than that in the page (during
// `yes`, on a loaded 2-core machine, bench/terminal-flood.bench.ts measured
// a median echo of 0.64 s with 1 MiB undrawn, 0.06 s with 256 KiB). The
// relay's memory for a terminal is
// thus the ring plus at most ~MAX_BEHIND per lagging socket (and sockets are
// counted in connection-limits.ts).
//
// Who: a driver's socket, or a viewer's while a driver shares the shell
// (terminal-api.ts). A viewer's socket is watch-only: its keystrokes and
// resizes are refused with an error frame and never reach the PTY (acks are
// taken). It never holds the shell paused — it counts as lagging from the
// start, so the shell runs at the drivers' pace and a slow viewer is only
// ever cut off at MAX_BEHIND (it may reattach). Unsharing closes every
// viewer socket at once (TERMINAL_CLOSE.unshared). Every socket's grant is
// checked again on every frame it sends, and a revoke closes it at once
// (shells.ts).
import type { IPty } from "@lydell/node-pty";
import type { WebSocket, RawData } from "ws";
import { CLOSE_REVOKED, TERMINAL_CLOSE, TERMINAL_MAX_COLS, TERMINAL_MAX_ROWS, type TerminalInfo, type TerminalServerFrame } from "@pier/protocol";
import type { Grant } from "../access-links.ts";
import { isRunning, signalSession } from "./process-tree.ts";
import { Scrollback } from "./scrollback.ts";
import type { PtyLibrary } from "./pty-library.ts";

const WATCH_ONLY = "This shell is shared for watching only: only a driver can type into it or resize it.";

export const SCROLLBACK_BYTES = 1024 * 1024;
export const HIGH_WATER = 1024 * 1024;
export const LOW_WATER = 256 * 1024;
export const MAX_BEHIND = 8 * 1024 * 1024;
/**
 * The scrollback goes to an attaching socket in frames no larger than a live
 * one (node-pty reads at most 64 KiB): the browser takes a WebSocket message
 * whole in one task, and the 1 MB ring as one frame cost the attaching page
 * ~24 ms of CPU in that task alone on a loaded 2-core machine (profiled).
 */
export const CATCH_UP_FRAME_BYTES = 64 * 1024;
/**
 * For a page that acks: how much output it may have been sent and not drawn
 * (xterm parses a few MB/s on a busy small machine: 256 KiB is well under a
 * tenth of a second there, and still more than one ~12 ms parsing slice of a
 * fast one, so the page never waits for the shell).
 */
export const UNDRAWN_HIGH = 256 * 1024;
export const UNDRAWN_LOW = 64 * 1024;
/** The longest one socket may keep the shell paused while another could take its output. */
export const STALL_LIMIT_MS = 1000;
/** How often a paused shell looks whether its sockets drained (ws has no per-socket drain event). */
const DRAIN_POLL_MS = 20;
/** How long a shell gets after SIGHUP before what is left of its session is killed. */
const HANGUP_GRACE_MS = 1500;
/** How long a socket closed for lagging gets to take its backlog and the close frame before it is cut off. */
const CLOSE_GRACE_MS = 10_000;

type Attached = {
  ws: WebSocket;
  grant: Grant;
  /** Output bytes sent, and the running total the page said it has drawn (once it acks: see TerminalClientFrame). */
  sent: number;
  acked: number | null;
  /** Since when this socket has been over HIGH_WATER, or null. */
  overSince: number | null;
  lagging: boolean;
  /** A viewer's socket: watch-only, and never pacing the shell. */
  watchOnly: boolean;
};

export type ShellSessionOptions = {
  id: string;
  title: string;
  shell: string;
  cwd: string;
  cols: number;
  rows: number;
  env: NodeJS.ProcessEnv;
  isLive: (grant: Grant) => boolean;
  /** The shell ended by itself (its info's `alive` changed). */
  onExit?: () => void;
  log: (line: string) => void;
};

export class ShellSession {
  readonly id: string;
  readonly title: string;
  readonly createdAt = Date.now();
  readonly pid: number;
  #cols: number;
  #rows: number;
  readonly #pty: IPty;
  readonly #scrollback = new Scrollback(SCROLLBACK_BYTES);
  readonly #attached = new Set<Attached>();
  readonly #isLive: (grant: Grant) => boolean;
  readonly #log: (line: string) => void;
  #exit: { exitCode: number; signal: number | null } | null = null;
  readonly #exited: Promise<void>;
  #paused = false;
  #shared = false;
  #drainTimer: NodeJS.Timeout | null = null;

  constructor(pty: PtyLibrary, options: ShellSessionOptions) {
    this.id = options.id;
    this.title = options.title;
    this.#cols = options.cols;
    this.#rows = options.rows;
    this.#isLive = options.isLive;
    this.#log = options.log;
    this.#pty = pty.spawn(options.shell, [], {
      name: "xterm-256color",
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: options.env,
      // Bytes, not strings: output goes to browsers verbatim, a UTF-8 character split across reads included.
      encoding: null,
    });
    this.pid = this.#pty.pid;
    this.#pty.onData((data) => this.#output(data as unknown as Buffer));
    this.#exited = new Promise((resolve) =>
      this.#pty.onExit(({ exitCode, signal }) => {
        this.#exit = { exitCode, signal: signal ?? null };
        this.#stopDrainPoll();
        for (const socket of this.#attached) {
          this.#sendFrame(socket.ws, { type: "exit", ...this.#exit });
          socket.ws.close(TERMINAL_CLOSE.ended, "the shell ended");
        }
        resolve();
        options.onExit?.();
      }),
    );
  }

  get alive(): boolean {
    return this.#exit === null;
  }

  get info(): TerminalInfo {
    return { id: this.id, title: this.title, cols: this.#cols, rows: this.#rows, createdAt: this.createdAt, alive: this.alive, shared: this.#shared };
  }

  get shared(): boolean {
    return this.#shared;
  }

  /** Lets viewers watch, or stops them: every viewer socket closes at once. False when nothing changed. */
  setShared(shared: boolean): boolean {
    if (shared === this.#shared) return false;
    this.#shared = shared;
    if (!shared) {
      for (const socket of this.#attached) {
        if (!socket.watchOnly) continue;
        this.#attached.delete(socket);
        socket.ws.close(TERMINAL_CLOSE.unshared, "the driver stopped sharing this shell");
      }
      this.#flow();
    }
    return true;
  }

  /**
   * A socket: the scrollback, `ready`, then live output. A driver's input is
   * typed into the shell; a viewer's socket (terminal-api.ts lets one in only
   * while the shell is shared) is watch-only.
   */
  attach(ws: WebSocket, grant: Grant): void {
    const watchOnly = grant.role !== "driver";
    // A viewer's socket lags from the start: it never holds the shell (see the top of this file).
    const socket: Attached = { ws, grant, sent: 0, acked: null, overSince: null, lagging: watchOnly, watchOnly };
    ws.on("error", () => ws.terminate());
    // Unshared between the upgrade's admission and now.
    if (watchOnly && !this.#shared) return void ws.close(TERMINAL_CLOSE.unshared, "the driver stopped sharing this shell");
    const kept = this.#scrollback.snapshot();
    for (let at = 0; at < kept.length; at += CATCH_UP_FRAME_BYTES) ws.send(kept.subarray(at, at + CATCH_UP_FRAME_BYTES), { binary: true });
    socket.sent = kept.length;
    this.#sendFrame(ws, { type: "ready", cols: this.#cols, rows: this.#rows });
    if (this.#exit !== null) {
      this.#sendFrame(ws, { type: "exit", ...this.#exit });
      ws.close(TERMINAL_CLOSE.ended, "the shell ended");
      return;
    }
    this.#attached.add(socket);
    ws.on("message", (data, isBinary) => this.#input(socket, data, isBinary));
    ws.on("close", () => {
      this.#attached.delete(socket);
      this.#flow();
    });
    this.#flow();
  }

  /** Closes the sockets opened through a revoked link. */
  closeSocketsOf(linkId: string): void {
    for (const socket of this.#attached) if (socket.grant.linkId === linkId) this.#revoked(socket);
  }

  /** Ends the shell and every process of its session; resolves once they are gone (or SIGKILL was sent). */
  async end(code: number, reason: string): Promise<void> {
    for (const socket of this.#attached) socket.ws.close(code, reason);
    this.#attached.clear();
    this.#stopDrainPoll();
    if (this.#exit === null) {
      // A paused shell still dies of SIGHUP; resuming lets its last output and its exit be read.
      this.#pty.resume();
      await signalSession(this.pid, "SIGHUP");
      if (!(await within(this.#exited, HANGUP_GRACE_MS))) this.#log(`shell ${this.id} (pid ${this.pid}) did not end on SIGHUP: killing it`);
    }
    // Whatever of its session is left (a job that ignores SIGHUP, a background process) is killed.
    const left = await signalSession(this.pid, "SIGKILL");
    if (left.some((pid) => pid !== this.pid && isRunning(pid))) await within(this.#exited, 500);
  }

  #output(chunk: Buffer): void {
    this.#scrollback.push(chunk);
    for (const socket of this.#attached) {
      if (socket.ws.readyState !== socket.ws.OPEN) continue;
      if (behind(socket) > MAX_BEHIND) {
        this.#attached.delete(socket);
        this.#log(`shell ${this.id}: a socket fell more than ${MAX_BEHIND / (1024 * 1024)} MB behind and is closed (it may reattach)`);
        socket.ws.close(TERMINAL_CLOSE.behind, "this page fell too far behind the shell's output; reattach to get the scrollback");
        setTimeout(() => socket.ws.terminate(), CLOSE_GRACE_MS).unref();
        continue;
      }
      socket.ws.send(chunk, { binary: true });
      socket.sent += chunk.length;
    }
    this.#flow();
  }

  #input(socket: Attached, data: RawData, isBinary: boolean): void {
    if (!this.#isLive(socket.grant)) return this.#revoked(socket);
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (this.#exit !== null) return;
    if (isBinary && socket.watchOnly) return this.#sendFrame(socket.ws, { type: "error", message: WATCH_ONLY });
    if (isBinary) {
      // node-pty's types say string; its Unix side writes whatever its socket takes, bytes included.
      this.#pty.write(bytes as unknown as string);
      return;
    }
    let frame: unknown;
    try {
      frame = JSON.parse(bytes.toString("utf8"));
    } catch {
      return this.#sendFrame(socket.ws, { type: "error", message: "A text frame must be JSON: send keystrokes as binary frames." });
    }
    const { type, cols, rows, bytes: drawn } = (frame ?? {}) as { type?: unknown; cols?: unknown; rows?: unknown; bytes?: unknown };
    if (type === "ack") {
      if (typeof drawn !== "number" || !Number.isInteger(drawn) || drawn < 0 || drawn > socket.sent) {
        return this.#sendFrame(socket.ws, { type: "error", message: "An ack says how many output bytes the page has drawn: a whole number, at most what it was sent." });
      }
      socket.acked = drawn;
      return this.#flow();
    }
    if (type !== "resize") return this.#sendFrame(socket.ws, { type: "error", message: `Unknown terminal frame ${JSON.stringify(type)}: only "resize" and "ack" are understood.` });
    if (socket.watchOnly) return this.#sendFrame(socket.ws, { type: "error", message: WATCH_ONLY });
    if (!isSize(cols, TERMINAL_MAX_COLS) || !isSize(rows, TERMINAL_MAX_ROWS)) {
      return this.#sendFrame(socket.ws, { type: "error", message: `A resize needs whole numbers: cols 1–${TERMINAL_MAX_COLS}, rows 1–${TERMINAL_MAX_ROWS}.` });
    }
    this.resize(cols, rows);
  }

  resize(cols: number, rows: number): void {
    if (this.#exit !== null || (cols === this.#cols && rows === this.#rows)) return;
    this.#cols = cols;
    this.#rows = rows;
    this.#pty.resize(cols, rows);
    // Watching pages draw at the shell's size (a driver's page fits the shell to itself instead).
    for (const socket of this.#attached) if (socket.watchOnly) this.#sendFrame(socket.ws, { type: "resized", cols, rows });
  }

  #revoked(socket: Attached): void {
    this.#attached.delete(socket);
    socket.ws.close(CLOSE_REVOKED, "the link this page was opened with was revoked");
    this.#flow();
  }

  /** Pauses or resumes the PTY for the sockets that count (see the top of this file). */
  #flow(): void {
    if (this.#exit !== null) return;
    const now = Date.now();
    const sockets = [...this.#attached];
    let hold = false;
    for (const socket of sockets) {
      // A viewer never holds the shell: it is cut off at MAX_BEHIND instead (#output).
      if (socket.watchOnly) continue;
      if (underLow(socket)) {
        socket.overSince = null;
        socket.lagging = false;
        continue;
      }
      if (socket.lagging) continue;
      // Running, the shell is paused only above the high marks; paused, it waits for the low ones.
      if (!this.#paused && !overHigh(socket)) {
        socket.overSince = null;
        continue;
      }
      socket.overSince ??= now;
      // Only the drivers' sockets set the pace: a viewer waiting does not make a driver's slow page lag.
      const othersWait = sockets.some((other) => other !== socket && !other.watchOnly && !other.lagging && underLow(other));
      if (othersWait && now - socket.overSince > STALL_LIMIT_MS) {
        socket.lagging = true;
        continue;
      }
      hold = true;
    }
    if (hold && !this.#paused) {
      this.#paused = true;
      this.#pty.pause();
      this.#drainTimer = setInterval(() => this.#flow(), DRAIN_POLL_MS);
    } else if (!hold && this.#paused) {
      this.#paused = false;
      this.#stopDrainPoll();
      this.#pty.resume();
    }
  }

  #stopDrainPoll(): void {
    if (this.#drainTimer !== null) clearInterval(this.#drainTimer);
    this.#drainTimer = null;
  }

  #sendFrame(ws: WebSocket, frame: TerminalServerFrame): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  }
}

/** How far a socket is behind the shell: what its socket has not taken yet, or, for a page that acks, what it has not drawn yet. */
function behind(socket: Attached): number {
  return Math.max(socket.ws.bufferedAmount, undrawn(socket));
}

/** What a page that acks was sent and has not drawn yet (0 for one that does not ack). */
function undrawn(socket: Attached): number {
  return socket.acked === null ? 0 : socket.sent - socket.acked;
}

function underLow(socket: Attached): boolean {
  return socket.ws.bufferedAmount <= LOW_WATER && undrawn(socket) <= UNDRAWN_LOW;
}

function overHigh(socket: Attached): boolean {
  return socket.ws.bufferedAmount > HIGH_WATER || undrawn(socket) > UNDRAWN_HIGH;
}

export function isSize(value: unknown, max: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= max;
}

function within(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
