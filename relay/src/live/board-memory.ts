// What pier remembers of its board from one run to the next: the agents
// drivers started beside the primary session (their folder, the session file
// pi had open, the git worktree pier made for one). Run pier again in the
// same folder and their cards come back asleep: opening or prompting one
// starts its pi on the session it had (live-session.ts wake), and a worktree
// agent can still be reviewed, merged or discarded.
//
// One file per folder pier was started in (`boards/<hash>.json` in pier's
// state folder, state-dir.ts), holding that folder to check against, and the
// pid of the pier that wrote it: while that pier runs, a second pier in the
// same folder neither restores its agents (two pi children on one session
// file would write over each other) nor writes over its file. The file is
// read with every field checked; one pier did not write is set aside.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { LiveSessions } from "./live-sessions.ts";
import { cardWorktree, type WorktreeRecord, type Worktrees } from "./worktrees.ts";
import { readStateFile, setAside, writeStateFile } from "./state-file.ts";

const VERSION = 1;
const MAX_FILE_BYTES = 512 * 1024;

/** One agent as remembered: enough to put its card back and start its pi again. */
export type RememberedAgent = {
  /** Its live session id (its `/live/<id>/` address stays the same). */
  id: string;
  cwd: string;
  /** The session file pi had open (null: pi never said; the agent starts a new session). */
  sessionFile: string | null;
  createdAt: number;
  worktree: WorktreeRecord | null;
};

export type BoardMemoryOptions = {
  stateDir: string;
  /** The folder pier was started in (the primary session's): whose board this is. */
  folder: string;
  log: (line: string) => void;
  pid?: number;
};

export class BoardMemory {
  /** What the last run in this folder left: the agents to put back (none when another pier here has them). */
  readonly remembered: readonly RememberedAgent[];
  readonly #file: string;
  readonly #folder: string;
  readonly #pid: number;
  readonly #log: (line: string) => void;
  /** Another running pier owns this folder's board: this one leaves its file alone. */
  readonly #readOnly: boolean;
  #written: string | null = null;
  #saving: Promise<void> = Promise.resolve();

  private constructor(options: BoardMemoryOptions, remembered: RememberedAgent[], readOnly: boolean) {
    this.#file = boardFile(options.stateDir, options.folder);
    this.#folder = options.folder;
    this.#pid = options.pid ?? process.pid;
    this.#log = options.log;
    this.remembered = remembered;
    this.#readOnly = readOnly;
  }

  static async open(options: BoardMemoryOptions): Promise<BoardMemory> {
    const file = boardFile(options.stateDir, options.folder);
    let text: string | "too_large" | null = null;
    try {
      text = await readStateFile(file, MAX_FILE_BYTES);
    } catch (error) {
      options.log(`cannot read the agents of the last run in ${options.folder} (${file}): ${String(error)}; the board starts empty`);
    }
    if (text === null) return new BoardMemory(options, [], false);
    const board = text === "too_large" ? null : parseBoard(text);
    if (board === null || board.folder !== options.folder) {
      const aside = await setAside(file);
      options.log(`${file} is not a board pier wrote for ${options.folder}; it was set aside as ${aside} and the board starts empty`);
      return new BoardMemory(options, [], false);
    }
    if (board.pid !== (options.pid ?? process.pid) && pierRuns(board.pid)) {
      options.log(`another pier (pid ${board.pid}) runs in ${options.folder} with its agents: this one starts with an empty board and does not remember it`);
      return new BoardMemory(options, [], true);
    }
    return new BoardMemory(options, board.agents, false);
  }

  /** The board as it is now: written when it differs from what was last written (one write at a time). */
  note(agents: RememberedAgent[]): Promise<void> {
    if (this.#readOnly) return this.#saving;
    const text = `${JSON.stringify({ version: VERSION, folder: this.#folder, pid: this.#pid, agents }, null, 2)}\n`;
    if (text === this.#written) return this.#saving;
    this.#written = text;
    this.#saving = this.#saving.then(async () => {
      // A newer note may have come while this one waited: write only the latest.
      if (this.#written !== text) return;
      try {
        await writeStateFile(this.#file, text);
      } catch (error) {
        this.#log(`cannot remember this board's agents in ${this.#file}: ${String(error)} (they will not come back after a restart)`);
      }
    });
    return this.#saving;
  }
}

function boardFile(stateDir: string, folder: string): string {
  return join(stateDir, "boards", `${createHash("sha256").update(folder).digest("hex").slice(0, 16)}.json`);
}

/** Whether `pid` is a running pier (Linux: its command line says so; elsewhere: any process with that pid). */
function pierRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("pier");
  } catch {
    return process.platform !== "linux";
  }
}

type Board = { folder: string; pid: number; agents: RememberedAgent[] };

/** A board file's content, or null when it is not one pier wrote. */
export function parseBoard(text: string): Board | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value) || value["version"] !== VERSION || !Array.isArray(value["agents"])) return null;
  const { folder, pid } = value;
  if (!isPath(folder) || !Number.isSafeInteger(pid) || (pid as number) <= 0) return null;
  const agents: RememberedAgent[] = [];
  const ids = new Set<string>();
  for (const entry of value["agents"]) {
    const agent = parseAgent(entry);
    if (agent === null || ids.has(agent.id)) return null;
    ids.add(agent.id);
    agents.push(agent);
  }
  return { folder, pid: pid as number, agents };
}

function parseAgent(entry: unknown): RememberedAgent | null {
  if (!isRecord(entry)) return null;
  const { id, cwd, sessionFile, createdAt, worktree } = entry;
  // Ids are the small numbers live-sessions.ts gives; anything else would not route (`/live/<id>/`).
  if (typeof id !== "string" || !/^[1-9][0-9]{0,8}$/.test(id)) return null;
  if (!isPath(cwd) || (sessionFile !== null && !isPath(sessionFile))) return null;
  if (typeof createdAt !== "number" || !Number.isFinite(createdAt)) return null;
  if (worktree === null) return { id, cwd, sessionFile, createdAt, worktree: null };
  const record = parseWorktree(worktree);
  return record === null ? null : { id, cwd, sessionFile, createdAt, worktree: record };
}

function parseWorktree(value: unknown): WorktreeRecord | null {
  if (!isRecord(value) || !isRecord(value["base"])) return null;
  const { branch, path, repo } = value;
  const { branch: baseBranch, commit } = value["base"];
  if (!isBranchName(branch) || !isPath(path) || !isPath(repo)) return null;
  if (!(baseBranch === null || isBranchName(baseBranch))) return null;
  if (typeof commit !== "string" || !/^[0-9a-f]{40,64}$/.test(commit)) return null;
  return { branch, path, repo, base: { branch: baseBranch, commit } };
}

/** A branch name git could have made (never one that reads as an option: these names go on git's command line). */
function isBranchName(value: unknown): value is string {
  return typeof value === "string" && value !== "" && value.length <= 255 && !value.startsWith("-") && !/[\0-\x20\x7f~^:?*[\\]/.test(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPath(value: unknown): value is string {
  return typeof value === "string" && isAbsolute(value) && !value.includes("\0") && value.length <= 4096;
}

/** What to remember of the board now: every agent but the primary, with the worktree pier made for it. */
export function boardToRemember(live: LiveSessions, worktrees: Worktrees): RememberedAgent[] {
  return live.rememberable().map((agent) => ({ ...agent, worktree: worktrees.get(agent.id) ?? null }));
}

/** Puts the remembered agents back on the board, asleep; one whose folder is gone is left out, with a line saying what is left of it. */
export async function restoreBoard(agents: readonly RememberedAgent[], live: LiveSessions, worktrees: Worktrees, log: (line: string) => void): Promise<void> {
  for (const agent of agents) {
    const restored = await live.restore(agent);
    if ("status" in restored) {
      const leftover = agent.worktree
        ? ` (its branch ${agent.worktree.branch} is still in ${agent.worktree.repo}: git worktree prune, then git branch -D ${agent.worktree.branch} if you do not want it)`
        : "";
      log(`agent ${agent.id} of the last run in ${agent.cwd} was not put back on the board: ${restored.message}${leftover}`);
      continue;
    }
    if (agent.worktree) {
      worktrees.remember(agent.id, agent.worktree);
      restored.setWorktree(cardWorktree(agent.worktree));
    }
  }
  if (agents.length > 0) log(`put back ${agents.length === 1 ? "1 agent" : `${agents.length} agents`} of the last run on the board, asleep until used`);
}
