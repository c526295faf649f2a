// Every live session of this pier, by id: the one it started with (the
// primary) and those drivers start from the page, each its own pi child.
// Caps how many pi children run at once, and tells the board of changes
// (coalesced: a streaming session changes state often, the board needs it
// within a quarter of a second, not per record).
import { resolve } from "node:path";
import type { DemoInfo, LiveCard } from "@pier/protocol";
import type { AccessLinks, Grant } from "../access-links.ts";
import type { PiLaunch } from "../pi-process.ts";
import { withoutSessionSelectors } from "../sessions/session-args.ts";
import type { RememberedAgent } from "./board-memory.ts";
import { checkFolder } from "./folder-check.ts";
import { LiveSession } from "./live-session.ts";
import { withAbsolutePiPaths } from "./pi-path-args.ts";

/** Pi children that may run at once unless pier is told otherwise (--max-agents): a laptop's worth. */
export const DEFAULT_MAX_RUNNING = 8;
/** Live sessions kept at most (stopped ones included): past it the oldest stopped must be archived first. */
const MAX_SESSIONS = 64;
/** How long board changes are gathered into one frame. */
const BOARD_COALESCE_MS = 50;
const STDERR_TAIL = 8;
/** How long a prompt from the board waits for a sleeping session's pi to start. */
const WAKE_TIMEOUT_MS = 30_000;
/** How often sessions are checked for idleness. */
const IDLE_CHECK_MS = 10_000;

export type LiveSessionsOptions = {
  /** How pi is started for the primary session; new sessions use it in their own folder, on a new session. */
  launch: PiLaunch;
  explicitSessionFile: string | null;
  demo: DemoInfo | null;
  replayBytes: number;
  heartbeatMs?: number;
  links: AccessLinks;
  maxRunning: number;
  /** A session nobody watches and whose pi has done nothing this long has its pi stopped (it wakes on use); 0: never. */
  idleStopMs?: number;
  /** A new live session started in `cwd` (the workspace list remembers it). */
  onStarted?: (cwd: string) => Promise<void>;
  /** The board changed (called at most every BOARD_COALESCE_MS). */
  onBoardChange: () => void;
  log: (line: string) => void;
};

export type StartRefusal = { status: 400 | 404 | 409 | 503; code: string; message: string };

export class LiveSessions {
  readonly maxRunning: number;
  readonly #options: LiveSessionsOptions;
  readonly #sessions = new Map<string, LiveSession>();
  #primary: LiveSession | null = null;
  #seq = 0;
  #boardTimer: NodeJS.Timeout | null = null;

  #idleTimer: NodeJS.Timeout | null = null;

  constructor(options: LiveSessionsOptions) {
    this.#options = options;
    this.maxRunning = options.maxRunning;
    const idleMs = options.idleStopMs ?? 0;
    if (idleMs > 0) {
      this.#idleTimer = setInterval(() => void this.#sleepIdle(idleMs), Math.min(IDLE_CHECK_MS, Math.max(250, idleMs / 4)));
      this.#idleTimer.unref();
    }
  }

  /** Put to sleep every session nobody watches whose pi has been quiet for `idleMs` (no run, no dialog waiting). */
  async #sleepIdle(idleMs: number): Promise<void> {
    const now = Date.now();
    for (const session of this.#sessions.values()) {
      const run = session.run;
      if (session.pi.running && !session.asleep && !session.busy && session.browsers === 0 && now - run.lastActivityAt >= idleMs) {
        this.#options.log(`live session ${session.id} idle for ${Math.round((now - run.lastActivityAt) / 1000)} s: its pi is stopped until it is used again`);
        await session.sleep();
      }
    }
  }

  /** The session pier started with (created by startPrimary). */
  get primary(): LiveSession {
    if (this.#primary === null) throw new Error("the primary live session was not started");
    return this.#primary;
  }

  /** Create the primary session (not started: the relay starts it once it listens). */
  async createPrimary(): Promise<LiveSession> {
    this.#primary = await this.#create(this.#options.launch, this.#options.explicitSessionFile);
    return this.#primary;
  }

  get(id: string): LiveSession | undefined {
    return this.#sessions.get(id);
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Pi children running or starting. */
  get running(): number {
    let count = 0;
    for (const session of this.#sessions.values()) if (session.pi.running || session.pi.status.state === "starting") count++;
    return count;
  }

  /** Whether another session may start (or wake) now: opening a sleeping session past the cap is refused with this. */
  capReached(): StartRefusal | null {
    return this.running >= this.maxRunning ? this.#full() : null;
  }

  /** A new live session: pi started in `cwdInput` on a new session. Refused with a sentence for a folder that is not one, or past the caps. */
  async start(cwdInput: unknown): Promise<LiveSession | StartRefusal> {
    if (typeof cwdInput !== "string" || cwdInput.trim() === "") return { status: 400, code: "bad_request", message: "say which folder the new agent works in (an absolute path)" };
    if (cwdInput.includes("\0")) return { status: 400, code: "bad_request", message: "a folder path cannot contain a NUL character" };
    const folder = await checkFolder(resolve(cwdInput));
    if (!folder.ok) return { status: 400, code: "not_a_folder", message: folder.message };
    const cwd = folder.path;
    if (this.running >= this.maxRunning) return this.#full();
    if (this.#sessions.size >= MAX_SESSIONS) {
      return { status: 503, code: "too_many_sessions", message: `pier keeps at most ${MAX_SESSIONS} live sessions: archive some on the board first` };
    }
    const base = this.#options.launch;
    const session = await this.#create({ ...base, cwd, args: agentArgs(base) }, null);
    session.start();
    await this.#options.onStarted?.(cwd);
    this.#options.log(`started a live session in ${cwd} (${session.id})`);
    return session;
  }

  /**
   * An agent of an earlier run put back on the board (board-memory.ts), with
   * its id, asleep: its pi starts on the session it had when it is used.
   * Refused with a sentence when its folder is gone or its id is taken.
   */
  async restore(agent: Pick<RememberedAgent, "id" | "cwd" | "sessionFile" | "createdAt">): Promise<LiveSession | StartRefusal> {
    if (this.#sessions.has(agent.id)) return { status: 409, code: "id_taken", message: `live session ${agent.id} exists already` };
    if (this.#sessions.size >= MAX_SESSIONS) return { status: 503, code: "too_many_sessions", message: `pier keeps at most ${MAX_SESSIONS} live sessions` };
    const folder = await checkFolder(agent.cwd);
    if (!folder.ok) return { status: 404, code: "not_a_folder", message: folder.message };
    const base = this.#options.launch;
    const session = await this.#create({ ...base, cwd: folder.path, args: agentArgs(base) }, null, agent);
    session.startAsleep(agent.sessionFile);
    return session;
  }

  /** The agents a later run should put back: every session but the primary, oldest first. */
  rememberable(): Omit<RememberedAgent, "worktree">[] {
    return [...this.#sessions.values()]
      .filter((session) => session !== this.#primary)
      .map((session) => ({ id: session.id, cwd: session.cwd, sessionFile: session.sessionFile, createdAt: session.createdAt }));
  }

  /** Stop a session's pi (it stays on the board, to restart or archive). */
  async stop(id: string): Promise<LiveSession | StartRefusal> {
    const session = this.#sessions.get(id);
    if (session === undefined) return notFound(id);
    await session.pi.stop();
    this.#changed();
    return session;
  }

  /** Start a stopped (or crashed) session's pi again, on the session it had. */
  async restart(id: string): Promise<LiveSession | StartRefusal> {
    const session = this.#sessions.get(id);
    if (session === undefined) return notFound(id);
    if (!session.pi.running && this.running >= this.maxRunning) return this.#full();
    // The session it was on (pi said which, live-session.ts), else how it was first started.
    const plan = session.sessions.restartLaunch(session.pi.launch, session.sessionFile ?? undefined);
    if ("error" in plan) return { status: 409, code: "request_failed", message: plan.error };
    await session.pi.restart(plan.launch);
    this.#changed();
    return session;
  }

  /** A driver prompts, aborts or answers a session from the board (pi-bridge.ts commandFromBoard). */
  async command(id: string, grant: Grant, record: Parameters<LiveSession["bridge"]["commandFromBoard"]>[1]): Promise<LiveSession | StartRefusal> {
    const session = this.#sessions.get(id);
    if (session === undefined) return notFound(id);
    if (session.asleep) {
      if (this.running >= this.maxRunning) return this.#full();
      await session.wake();
      if (!(await session.whenRunning(WAKE_TIMEOUT_MS))) return { status: 409, code: "refused", message: "this agent's pi did not start again; see its page for why" };
    }
    const refused = session.bridge.commandFromBoard(grant, record);
    if (refused !== null) return { status: 409, code: "refused", message: refused };
    return session;
  }

  /** Stop a session and take it off the board; its folder and session files stay. */
  async archive(id: string): Promise<true | StartRefusal> {
    const session = this.#sessions.get(id);
    if (session === undefined) return notFound(id);
    if (session === this.#primary) return { status: 409, code: "primary", message: "the session pier started with stays on the board (stop its pi instead)" };
    this.#sessions.delete(id);
    await session.close(1001, "this live session was archived");
    this.#options.log(`archived live session ${id}`);
    this.#changed();
    return true;
  }

  cards(): LiveCard[] {
    return [...this.#sessions.values()].map((session) => this.#card(session));
  }

  card(id: string): LiveCard | null {
    const session = this.#sessions.get(id);
    return session === undefined ? null : this.#card(session);
  }

  async closeAll(code: number, reason: string): Promise<void> {
    if (this.#idleTimer !== null) clearInterval(this.#idleTimer);
    if (this.#boardTimer !== null) clearTimeout(this.#boardTimer);
    this.#boardTimer = null;
    await Promise.all([...this.#sessions.values()].map((session) => session.close(code, reason)));
  }

  #card(session: LiveSession): LiveCard {
    const run = session.run;
    const failed = run.state === "failed";
    return {
      id: session.id,
      cwd: session.cwd,
      branch: session.branch,
      primary: session === this.#primary,
      child: session.pi.status.state,
      ...run,
      asleep: session.asleep,
      stderrTail: failed ? session.bridge.stderrTail(STDERR_TAIL) : [],
      browsers: session.browsers,
      createdAt: session.createdAt,
      worktree: session.worktree,
    };
  }

  async #create(launch: PiLaunch, explicitSessionFile: string | null, earlier?: { id: string; createdAt: number }): Promise<LiveSession> {
    // A restored agent keeps its id; new ones are numbered past every id in use.
    const id = earlier?.id ?? String(++this.#seq);
    this.#seq = Math.max(this.#seq, Number(id));
    const session = await LiveSession.create({
      id,
      ...(earlier ? { createdAt: earlier.createdAt } : {}),
      launch,
      explicitSessionFile,
      // The demo's tour is about its sample project: an agent in another folder gets the demo model without it.
      demo: this.#options.demo && launch.cwd !== this.#options.demo.projectDir ? { ...this.#options.demo, tour: false } : this.#options.demo,
      replayBytes: this.#options.replayBytes,
      heartbeatMs: this.#options.heartbeatMs,
      links: this.#options.links,
      log: this.#sessions.size === 0 ? this.#options.log : (line) => this.#options.log(`[${id}] ${line}`),
      onSummaryChange: () => this.#changed(),
    });
    this.#sessions.set(id, session);
    this.#changed();
    return session;
  }

  #full(): StartRefusal {
    return {
      status: 503,
      code: "max_agents",
      message: `${this.maxRunning} agents are running, the most this pier runs at once: stop one on the board first (or start pier with a higher --max-agents)`,
    };
  }

  #changed(): void {
    if (this.#boardTimer !== null) return;
    this.#boardTimer = setTimeout(() => {
      this.#boardTimer = null;
      this.#options.onBoardChange();
    }, BOARD_COALESCE_MS);
  }
}

/** pi's arguments for an agent beyond the first: no session selector (it starts its own), resource paths as the person meant them (pi-path-args.ts). */
function agentArgs(base: PiLaunch): string[] {
  return withAbsolutePiPaths(withoutSessionSelectors(base.args), base.cwd);
}

function notFound(id: string): StartRefusal {
  return { status: 404, code: "not_found", message: `there is no live session ${JSON.stringify(id)} (it may have been archived)` };
}
