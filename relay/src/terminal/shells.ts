// The shells of one live session: at most MAX_TERMINALS, each a ShellSession
// in the session's folder. They live as long as the live session (a reload
// or a second browser reattaches); archiving the session or stopping pier
// ends every one of them and what they started. A revoked link's terminal
// sockets close at once, like its session sockets (room.ts), a viewer's
// watching a shared shell included. Every change to the list (opened,
// closed, ended, shared, unshared) is told through `onChanged`, so every
// page of the session lists the shells again.
import { accessSync, constants } from "node:fs";
import { basename, isAbsolute } from "node:path";
import { MAX_TERMINALS, TERMINAL_CLOSE, TERMINAL_MAX_COLS, TERMINAL_MAX_ROWS, type TerminalInfo, type TerminalListResponse } from "@pier/protocol";
import type { AccessLinks, Grant } from "../access-links.ts";
import { loadPty } from "./pty-library.ts";
import { isSize, ShellSession } from "./shell-session.ts";

export type ShellsOptions = {
  cwd: string;
  links: AccessLinks;
  /** The list changed (live-session.ts tells every browser: terminals_changed). */
  onChanged?: () => void;
  log: (line: string) => void;
};

export type ShellRefusal = { status: 400 | 404 | 409 | 503; code: "bad_request" | "not_found" | "too_many_terminals" | "terminal_unavailable"; message: string };

export class Shells {
  readonly #options: ShellsOptions;
  readonly #shells = new Map<string, ShellSession>();
  readonly #unsubscribe: () => void;
  #seq = 0;
  #closed = false;

  constructor(options: ShellsOptions) {
    this.#options = options;
    this.#unsubscribe = options.links.onRevoked((linkId) => {
      for (const shell of this.#shells.values()) shell.closeSocketsOf(linkId);
    });
  }

  /** The shells `grant` may see: a driver all of them, a viewer the shared ones only. */
  async list(grant: Grant): Promise<TerminalListResponse> {
    const pty = await loadPty();
    const visible = [...this.#shells.values()].filter((shell) => grant.role === "driver" || shell.shared);
    return { terminals: visible.map((shell) => shell.info), unavailable: "unavailable" in pty ? pty.unavailable : null };
  }

  /** Shares a shell with viewers or stops (closing their sockets); null when there is no such shell. */
  share(id: string, shared: boolean): TerminalInfo | null {
    const shell = this.#shells.get(id);
    if (shell === undefined) return null;
    if (shell.setShared(shared)) {
      this.#options.log(`shell ${id} ${shared ? "shared with viewers" : "no longer shared"}`);
      this.#changed();
    }
    return shell.info;
  }

  get(id: string): ShellSession | undefined {
    return this.#shells.get(id);
  }

  async create(cols: unknown, rows: unknown): Promise<TerminalInfo | ShellRefusal> {
    if (!isSize(cols, TERMINAL_MAX_COLS) || !isSize(rows, TERMINAL_MAX_ROWS)) {
      return { status: 400, code: "bad_request", message: `A new shell needs its size as whole numbers: cols 1–${TERMINAL_MAX_COLS}, rows 1–${TERMINAL_MAX_ROWS}.` };
    }
    if (this.#shells.size >= MAX_TERMINALS) {
      return { status: 409, code: "too_many_terminals", message: `This agent has ${MAX_TERMINALS} shells open, as many as it may: close one first.` };
    }
    const pty = await loadPty();
    if ("unavailable" in pty) return { status: 503, code: "terminal_unavailable", message: pty.unavailable };
    if (this.#closed) return { status: 404, code: "not_found", message: "This live session was closed." };
    const shell = userShell();
    const id = `t${++this.#seq}`;
    const session = new ShellSession(pty, {
      id,
      title: `${basename(shell)} ${this.#seq}`,
      shell,
      cwd: this.#options.cwd,
      cols,
      rows,
      env: { ...process.env, TERM: "xterm-256color", COLORTERM: "truecolor" },
      isLive: (grant) => this.#options.links.isLive(grant),
      onExit: () => this.#changed(),
      log: this.#options.log,
    });
    this.#shells.set(id, session);
    this.#options.log(`shell ${id} started (pid ${session.pid}) in ${this.#options.cwd}`);
    this.#changed();
    return session.info;
  }

  /** Ends a shell and forgets it; false when there is no such shell. */
  async close(id: string): Promise<boolean> {
    const shell = this.#shells.get(id);
    if (shell === undefined) return false;
    this.#shells.delete(id);
    this.#changed();
    await shell.end(TERMINAL_CLOSE.ended, "the shell was closed");
    return true;
  }

  #changed(): void {
    if (!this.#closed) this.#options.onChanged?.();
  }

  /** Ends every shell (the live session is archived, or pier stops). */
  async closeAll(code: number, reason: string): Promise<void> {
    this.#closed = true;
    this.#unsubscribe();
    const shells = [...this.#shells.values()];
    this.#shells.clear();
    await Promise.all(shells.map((shell) => shell.end(code, reason)));
  }
}

/** The user's $SHELL when it is an absolute path to a program, else bash, else sh. */
function userShell(): string {
  const candidates = [process.env.SHELL, "/bin/bash", "/bin/sh"];
  for (const candidate of candidates) {
    if (candidate === undefined || !isAbsolute(candidate)) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not there or not runnable: the next one.
    }
  }
  return "/bin/sh";
}
