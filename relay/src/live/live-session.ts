// One live session: a pi child on one folder with everything that serves it
// (the bridge to its browsers, its session files, the folder's trust, the
// editor's file service and watchers). pier runs several (live-sessions.ts);
// the relay routes each browser's socket and HTTP requests to one of them.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { WebSocket } from "ws";
import type { DemoInfo, LiveWorktree, WorkspaceTrustInfo } from "@pier/protocol";
import type { AccessLinks, Grant } from "../access-links.ts";
import { PiBridge } from "../pi-bridge.ts";
import { PiProcess, type PiLaunch } from "../pi-process.ts";
import { gitBranch } from "./git-branch.ts";
import { RunTracker, type RunSummary } from "./run-tracker.ts";
import { SessionService } from "../sessions/session-service.ts";
import { Shells } from "../terminal/shells.ts";
import { handleTerminalHttp } from "../terminal/terminal-api.ts";
import { GitDirWatcher, locateGitDir } from "../workspace/git-dir-watcher.ts";
import { GitFacts } from "../workspace/git-facts.ts";
import { createWorkspaceApi } from "../workspace/workspace-api.ts";
import { handleSearchHttp, type SearchApiDeps } from "../workspace/search-api.ts";
import { WorkspaceFiles } from "../workspace/workspace-files.ts";
import { WorkspaceWatcher } from "../workspace/workspace-watcher.ts";
import { WorkspaceTrustService } from "../workspace-trust-service.ts";

export type LiveSessionOptions = {
  /** Stable for pier's lifetime (and across runs, board-memory.ts): names the session in URLs (`/live/<id>/`). */
  id: string;
  /** When it was first started (an earlier run's, for an agent put back on the board); default now. */
  createdAt?: number;
  launch: PiLaunch;
  demo: DemoInfo | null;
  replayBytes: number;
  heartbeatMs?: number;
  /** The session file pier was told to open (`--session FILE`), if any. */
  explicitSessionFile?: string | null;
  links: AccessLinks;
  /** The board's view of this session changed (run-tracker.ts). */
  onSummaryChange?: () => void;
  log: (line: string) => void;
};

export class LiveSession {
  readonly id: string;
  readonly cwd: string;
  readonly createdAt: number;
  /** The branch checked out in `cwd` (git-branch.ts), kept up to date by the git watcher. */
  branch: string | null = null;
  /** The git worktree pier made for this agent (worktrees-api.ts), for its card. */
  #worktree: LiveWorktree | null = null;
  readonly pi: PiProcess;
  readonly bridge: PiBridge;
  readonly sessions: SessionService;
  /** The real shells in this session's folder (terminal/): they end with the session. */
  readonly terminals: Shells;
  readonly #tracker: RunTracker;
  readonly #trust: WorkspaceTrustService;
  readonly #watcher: WorkspaceWatcher;
  readonly #gitWatcher: GitDirWatcher;
  readonly #workspaceApi: (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<boolean>;
  /** Search and replace across the workspace's files (workspace/search-api.ts). */
  readonly #search: SearchApiDeps;
  /** Who made each HTTP change, to say so to everyone ("Ada saved src/app.ts"). */
  readonly #grants = new WeakMap<IncomingMessage, Grant>();
  #closed = false;
  /** The session file pi has open, as pi last said (get_state); null until it did. */
  #sessionFile: string | null = null;
  /** A get_state for the session file is out (#learnSessionFile), and whether to ask again once it is answered. */
  #learning = false;
  #learnAgain = false;
  /** pi was stopped because nobody used this session for a while (live-sessions.ts); it wakes on use. */
  #asleep = false;
  #waking: Promise<void> | null = null;
  readonly #onSummaryChange: (() => void) | undefined;

  static async create(options: LiveSessionOptions): Promise<LiveSession> {
    // One trust decision for pi and git (workspace-trust-service.ts); the pages hear of changes through the bridge's hub.
    let onTrust = (_info: WorkspaceTrustInfo) => {};
    const trust = await WorkspaceTrustService.create({
      cwd: options.launch.cwd,
      env: options.launch.env,
      piArgs: options.launch.args,
      log: options.log,
      onChange: (info) => onTrust(info),
    });
    // Late-bound: the service reports list changes through the hub the bridge creates.
    let onSessions = () => {};
    const sessions = await SessionService.create({
      launch: options.launch,
      explicitSessionFile: options.explicitSessionFile ?? null,
      log: options.log,
      onListChanged: () => onSessions(),
    });
    const live = new LiveSession(options, trust, sessions);
    onTrust = (info) => live.#trustChanged(info);
    onSessions = () => live.bridge.hub.broadcastFrame({ type: "sessions_changed" });
    return live;
  }

  private constructor(options: LiveSessionOptions, trust: WorkspaceTrustService, sessions: SessionService) {
    this.id = options.id;
    this.createdAt = options.createdAt ?? Date.now();
    this.cwd = options.launch.cwd;
    this.#trust = trust;
    this.sessions = sessions;
    // Every page of the session lists its shells again (the bridge is made below; this runs later).
    this.terminals = new Shells({ cwd: this.cwd, links: options.links, log: options.log, onChanged: () => this.bridge.hub.broadcastFrame({ type: "terminals_changed" }) });
    this.pi = new PiProcess({ ...options.launch, args: trust.piArgs(options.launch.args) });
    // Before the bridge's listeners: the bridge hands each stdout chunk over to the hub, which may free it at once (chunk-reclaim.ts).
    this.#tracker = new RunTracker(() => options.onSummaryChange?.(), { onSessionMoved: () => void this.#learnSessionFile() });
    this.pi.on("stdout", (chunk: Buffer) => this.#tracker.stdout(chunk));
    this.pi.on("status", (status) => {
      this.#tracker.child(status);
      if (status.state === "running") void this.#learnSessionFile();
    });
    this.bridge = new PiBridge({
      liveId: options.id,
      waitingDialogs: () => this.#tracker.waitingDialogs,
      onCommand: (type, command) => this.#tracker.command(type, command),
      pi: this.pi,
      demo: options.demo,
      replayBytes: options.replayBytes,
      heartbeatMs: options.heartbeatMs,
      sessions,
      links: options.links,
      trust,
      log: options.log,
    });
    const hub = this.bridge.hub;
    const workspace = new WorkspaceFiles(this.cwd);
    const git = new GitFacts(workspace.paths);
    this.#workspaceApi = createWorkspaceApi({
      files: workspace,
      git,
      log: options.log,
      // The repository's own commands (git filters…) run for a driver in a trusted workspace only, read afresh each time.
      repoCommands: async (request) => this.#grants.get(request)?.role === "driver" && (await trust.refresh()).trusted,
      // Viewers do not read files that may hold secrets (workspace/viewer-reads.ts).
      isDriver: (request) => this.#grants.get(request)?.role === "driver",
      onChanged: (request, change) => this.bridge.room.announceActivity(this.#grants.get(request) ?? null, change),
      // A branch made or deleted, or a push, moves refs the git-dir watcher does not watch: every page hears of it at once.
      onGitChanged: () => announceGitMoved(),
    });
    this.#search = {
      files: workspace,
      log: options.log,
      onReplaced: (request, path) => this.bridge.room.announceActivity(this.#grants.get(request) ?? null, { action: "saved", path }),
    };
    const announceGitMoved = () => {
      hub.broadcastFrame({ type: "workspace_changed", paths: [], git: true });
      void this.#refreshBranch(options.onSummaryChange);
    };
    this.#onSummaryChange = options.onSummaryChange;
    this.#gitWatcher = new GitDirWatcher({
      locate: async () => locateGitDir(() => git.gitDir(), await workspace.paths.rootReal()),
      onChange: announceGitMoved,
    });
    this.#watcher = new WorkspaceWatcher({
      root: this.cwd,
      log: options.log,
      onChange: (paths) => hub.broadcastFrame({ type: "workspace_changed", paths }),
      onGitFolder: () => {
        announceGitMoved();
        void this.#gitWatcher.refresh();
      },
    });
  }

  /** Start pi and the watchers (not awaited: a large workspace's walk must not delay anything). */
  start(): void {
    this.pi.start();
    this.#startWatching();
  }

  /**
   * An agent put back on the board from an earlier run (board-memory.ts):
   * the watchers start, pi sleeps until the session is opened or prompted,
   * then reopens `sessionFile` (a new session when it is gone).
   */
  startAsleep(sessionFile: string | null): void {
    this.#asleep = true;
    this.#sessionFile = sessionFile;
    this.#startWatching();
  }

  #startWatching(): void {
    void this.#refreshBranch(this.#onSummaryChange);
    void this.#watcher.start();
    void this.#gitWatcher.refresh();
    this.#trust.watch();
  }

  get worktree(): LiveWorktree | null {
    return this.#worktree;
  }

  /** This agent works on a worktree pier made for it: its card says so. */
  setWorktree(worktree: LiveWorktree): void {
    this.#worktree = worktree;
    this.#onSummaryChange?.();
  }

  /** A run, a dialog or an unanswered prompt is under way (run-tracker.ts): not idle, whatever the clock says. */
  get busy(): boolean {
    return this.#tracker.busy;
  }

  /** What the board shows of this session's runs. */
  get run(): RunSummary {
    return this.#tracker.summary;
  }

  get sessionFile(): string | null {
    return this.#sessionFile;
  }

  get asleep(): boolean {
    return this.#asleep;
  }

  /** Stop pi to free its memory; the session wakes (pi reopens its session file) when it is opened or prompted. */
  async sleep(): Promise<void> {
    if (!this.pi.running || this.#asleep) return;
    this.#asleep = true;
    await this.#learnSessionFile();
    await this.pi.stop();
    // A page may have come meanwhile (it woke pi, or was told none may wake): it has what it was sent.
    if (this.#asleep && this.#waking === null && this.bridge.hub.size === 0) this.bridge.forgetOutput();
    this.#onSummaryChange?.();
  }

  /** Start pi again on the session it had, if it sleeps; resolves once pi runs (or could not start). */
  wake(): Promise<void> {
    if (!this.#asleep) return Promise.resolve();
    this.#waking ??= (async () => {
      this.#asleep = false;
      const plan = this.sessions.restartLaunch(this.pi.launch, this.#sessionFile ?? undefined);
      await this.pi.restart("error" in plan ? this.pi.launch : plan.launch);
      this.#waking = null;
      this.#onSummaryChange?.();
    })();
    return this.#waking;
  }

  /** Resolves once pi runs (true), or false after `timeoutMs` or when it exits first. */
  whenRunning(timeoutMs: number): Promise<boolean> {
    if (this.pi.running) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      const onStatus = (status: { state: string }) => {
        if (status.state === "running") done(true);
        else if (status.state === "exited") done(false);
      };
      const done = (running: boolean) => {
        clearTimeout(timer);
        this.pi.off("status", onStatus);
        resolve(running);
      };
      this.pi.on("status", onStatus);
    });
  }

  /** Browsers connected to this session now. */
  get browsers(): number {
    return this.bridge.hub.size;
  }

  /** `mayWake` false: too many agents run to wake this one if it sleeps (the page is told so). */
  addBrowser(ws: WebSocket, grant: Grant, mayWake = true): void {
    // Opening a sleeping session wakes it: the page sees pi start, as after a restart.
    if (mayWake) void this.wake();
    this.bridge.addBrowser(ws, grant);
    if (this.#asleep && !mayWake) {
      this.notice("warning", "This agent's pi was stopped while it sat idle, and too many agents run to start it again: stop another agent on the board, then reload.");
    }
    // The board shows who watches.
    this.#onSummaryChange?.();
    ws.once("close", () => this.#onSummaryChange?.());
  }

  /** This session's HTTP routes (session files, the workspace API); false when `url` is none of them. */
  async handleHttp(request: IncomingMessage, response: ServerResponse, url: URL, grant: Grant): Promise<boolean> {
    this.#grants.set(request, grant);
    if (await handleTerminalHttp(this.terminals, request, response, url, grant)) return true;
    if (await this.sessions.handleHttp(request, response, url, grant.id)) return true;
    if (await handleSearchHttp(this.#search, request, response, url, grant)) return true;
    return this.#workspaceApi(request, response, url);
  }

  /** Tells every browser of this session something (e.g. that the demo model is in use). */
  notice(level: "info" | "warning", message: string): void {
    this.bridge.hub.broadcastFrame({ type: "notice", level, message });
  }

  /** Closes every browser of this session with `code`, stops pi, the watchers and every shell (and what the shells started). */
  async close(code: number, reason: string): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#trust.close();
    this.#watcher.close();
    this.#gitWatcher.close();
    this.bridge.heartbeat.stop();
    this.bridge.room.dispose();
    this.bridge.hub.closeAll(code, reason);
    await Promise.all([this.pi.stop(), this.terminals.closeAll(code, reason)]);
    await this.sessions.close();
  }

  /**
   * Ask pi which session file it has open (a read only the relay sees): one
   * question at a time, and once more after it if pi may have moved
   * meanwhile. A stream of short runs (bench/relay.bench.ts's stand-in)
   * otherwise asked at every agent_settled: thousands of get_state waiting
   * in pi's stdin, ~8 s of the relay's CPU per GB spent writing them.
   */
  async #learnSessionFile(): Promise<void> {
    if (this.#learning) return void (this.#learnAgain = true);
    this.#learning = true;
    try {
      do {
        this.#learnAgain = false;
        await this.#askSessionFile();
      } while (this.#learnAgain);
    } finally {
      this.#learning = false;
    }
  }

  async #askSessionFile(): Promise<void> {
    const answer = await this.bridge.askPi("get_state");
    if (answer === null) return;
    try {
      const file = (JSON.parse(answer.toString("utf8")) as { data?: { sessionFile?: unknown } }).data?.sessionFile;
      if (typeof file === "string" && file !== "" && file !== this.#sessionFile) {
        this.#sessionFile = file;
        // The board remembers it (board-memory.ts).
        this.#onSummaryChange?.();
      }
    } catch {
      // Not JSON: pi's answer is read nowhere else; the last known file stays.
    }
  }

  async #refreshBranch(onChange: (() => void) | undefined): Promise<void> {
    const branch = await gitBranch(this.cwd);
    if (branch === this.branch) return;
    this.branch = branch;
    onChange?.();
  }

  #trustChanged(info: WorkspaceTrustInfo): void {
    this.pi.launch = { ...this.pi.launch, args: this.#trust.piArgs(this.pi.launch.args) };
    const hub = this.bridge.hub;
    hub.broadcastFrame({ type: "workspace_trust", trust: info });
    // A driver's git status may differ now (filters on or off): pages load it again.
    hub.broadcastFrame({ type: "workspace_changed", paths: [], git: true });
  }
}
