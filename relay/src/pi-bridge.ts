// The pi ↔ browsers plumbing: pi's stdout bytes to every browser (and to the
// bounded replay for late ones), its stderr lines and lifecycle as relay
// frames, and each browser's checked command to pi's stdin, with stdin
// backpressure pausing every browser socket until pi catches up.
import type { RawData, WebSocket } from "ws";
import { CLOSE_REVOKED, MAX_COMMAND_BYTES, READ_ONLY_COMMANDS, RELAY_PROTOCOL_VERSION, type DemoInfo, type RelayRequest } from "@pier/protocol";
import type { AccessLinks, Grant } from "./access-links.ts";
import { BrowserHub, type BrowserClient } from "./browser-hub.ts";
import { classifyBrowserFrame } from "./browser-frame.ts";
import { Coalescer } from "./coalescer.ts";
import { RequestLimiter } from "./rate-limit.ts";
import { ReadRouting } from "./read-routing.ts";
import { ChunkReclaim } from "./chunk-reclaim.ts";
import { Heartbeat } from "./heartbeat.ts";
import type { PiProcess } from "./pi-process.ts";
import { Room } from "./room.ts";
import type { SessionService } from "./sessions/session-service.ts";
import { StdoutReplay } from "./stdout-replay.ts";
import { SecretScrubber } from "./secret-scrubber.ts";
import { SentLog } from "./sent-log.ts";
import { RELAY_VERSION } from "./version.ts";
import type { WorkspaceTrustService } from "./workspace-trust-service.ts";

const RECENT_STDERR_LINES = 200;

export type PiBridgeOptions = {
  pi: PiProcess;
  demo: DemoInfo | null;
  replayBytes: number;
  /** Session checks and restarts; null when pi does not save sessions. */
  sessions: SessionService | null;
  /** The links browsers come in with (drivers make and revoke them through the room). */
  links: AccessLinks;
  /** How often each browser is pinged and each page hears from the relay (heartbeat.ts). */
  heartbeatMs?: number;
  /** The workspace's trust (shown in hello; drivers change it with pier.trust_workspace). */
  trust?: WorkspaceTrustService;
  /** The live session this bridge serves (what a viewer link made from its pages opens). */
  liveId?: string;
  /** Dialogs pi waits for now, with when they passed (the board's run tracker), for a joining page's hello. */
  waitingDialogs?: () => { id: string; since: number }[];
  /** A command went to pi (after every check): its type and record, for the board's state of this session. */
  onCommand?: (type: string, command: Readonly<Record<string, unknown>>) => void;
  log: (line: string) => void;
};

export class PiBridge {
  readonly hub: BrowserHub;
  readonly room: Room;
  readonly heartbeat: Heartbeat;
  readonly #pi: PiProcess;
  readonly #options: PiBridgeOptions;
  readonly #replay: StdoutReplay;
  readonly #recentStderr: string[] = [];
  readonly #reclaim = new ChunkReclaim();
  /** Who sent the recent prompts, for browsers that join later (sent-log.ts). */
  readonly #sentLog = new SentLog();
  /** The count of browsers changes with each one coming or going: a class of 20 arriving sends a few counts, the last one right. */
  readonly #peerChanges = new Coalescer<"peers">();
  /** For the launch pi runs with now (a restart may bring other arguments). */
  #scrubber: { launch: PiProcess["launch"]; scrubber: SecretScrubber } | null = null;
  #stdinBlocked = false;
  #boardSeq = 0;
  /** Read-only commands: metered, and answered to the asker alone (read-routing.ts). */
  readonly #reads: ReadRouting;
  /** pier.* requests, per connection (rate-limit.ts). */
  readonly #requests = new RequestLimiter();

  constructor(options: PiBridgeOptions) {
    const pi = options.pi;
    this.#pi = pi;
    this.#options = options;
    this.#replay = new StdoutReplay(options.replayBytes);
    this.hub = new BrowserHub(this.#replay, { pause: () => pi.pauseStdout(), resume: () => pi.resumeStdout() });
    this.room = new Room(options.links, options.log, options.liveId);
    this.heartbeat = new Heartbeat(options.heartbeatMs);
    this.#reads = new ReadRouting(this.hub, (line) => this.#writeToPi(line));

    pi.on("status", (child) => {
      this.#reads.childChanged(child.state);
      // What the last child wrote is all out before anything about the next one.
      this.hub.flushStdout();
      if (child.state === "starting") {
        this.#replay.clear();
        this.room.forgetAnswers();
        this.#sentLog.clear();
        this.#recentStderr.length = 0;
      } else if (child.state === "running") {
        this.hub.broadcastAfterStdout({ type: "child_started", child });
      } else {
        const scrubbed = this.#scrubStatus(child);
        options.log(`pi exited (${scrubbed.state === "exited" && scrubbed.error !== undefined ? scrubbed.error : `code ${child.code}, signal ${child.signal}`})`);
        this.hub.broadcastAfterStdout({ type: "child_exited", child: scrubbed });
        this.#unblockStdin();
      }
    });
    pi.on("stdout", (chunk) => {
      // Counted first: the hub takes the chunk over and may free it at once.
      this.#reclaim.noteChunk(chunk.length);
      this.#reads.stdout(chunk);
    });
    pi.on("stderrLine", (raw) => {
      // pi may echo a key it was given ("invalid api key: …"): pages, late joiners and pier's log get it redacted.
      const line = this.#scrub().text(raw);
      this.#recentStderr.push(line);
      if (this.#recentStderr.length > RECENT_STDERR_LINES) this.#recentStderr.shift();
      options.log(`pi: ${line}`);
      this.hub.broadcastFrame({ type: "stderr", line });
    });
    pi.on("drain", () => this.#unblockStdin());
  }

  /**
   * pi was stopped for sleeping (live-session.ts sleep) and nobody watches:
   * what it wrote is let go. A page that opens the session wakes pi, and a
   * starting pi clears the replay anyway; kept, a board of sleeping agents
   * would hold up to --replay-bytes each of output no page reads.
   */
  forgetOutput(): void {
    this.hub.flushStdout();
    this.#replay.clearAndFree();
    this.#sentLog.clear();
  }

  /** The relay asks pi a read for itself (read-routing.ts ask); null when pi is not running or went away. */
  askPi(type: string): Promise<Buffer | null> {
    return this.#pi.running ? this.#reads.ask(type) : Promise.resolve(null);
  }

  /** pi's last stderr lines (redacted), newest last. */
  stderrTail(count: number): string[] {
    return this.#recentStderr.slice(-count);
  }

  /** A new, authorized browser: hello, the replay, then live traffic (the hub sends the replay and replay_end). */
  addBrowser(ws: WebSocket, grant: Grant): void {
    const { hub, room } = this;
    if (this.#stdinBlocked) ws.pause();
    const launch = this.#pi.launch;
    const client = hub.add(ws, (client) => {
      const you = room.admit(client.id, grant);
      return {
        type: "hello",
        protocolVersion: RELAY_PROTOCOL_VERSION,
        clientId: client.id,
        relayVersion: RELAY_VERSION,
        cwd: launch.cwd,
        // Never the raw argv: it may hold --api-key, and viewers get this hello too.
        piCommand: this.#scrub().commandLine([launch.command, ...launch.args]),
        // Version, source and path (no secret in any of them).
        ...(launch.origin ? { pi: { version: launch.origin.version, source: launch.origin.source, path: launch.origin.path } } : {}),
        demo: this.#options.demo,
        child: this.#scrubStatus(this.#pi.status),
        replay: { bytes: this.#replay.bytes, truncated: this.#replay.truncated },
        recentStderr: [...this.#recentStderr],
        peers: hub.size,
        limits: { maxCommandBytes: MAX_COMMAND_BYTES },
        sessions: this.#options.sessions?.info ?? null,
        you,
        people: room.people.list(),
        heartbeatMs: this.heartbeat.intervalMs,
        sent: this.#sentLog.forJoiner(grant.id, this.#replay.start),
        dialogs: { waiting: this.#options.waitingDialogs?.() ?? [], answered: room.answeredDialogs() },
        ...(this.#options.trust ? { trust: this.#options.trust.info } : {}),
      };
    });
    this.heartbeat.watch(client);
    room.welcome(client);
    this.#peerChanges.changed("peers", () => hub.broadcastFrame({ type: "peers", count: hub.size }));
    ws.on("message", (data, isBinary) => this.#onBrowserFrame(client, grant, data, isBinary));
    ws.on("error", () => ws.terminate());
    ws.on("close", () => {
      this.heartbeat.forget(client);
      hub.remove(client);
      room.leave(client);
      this.#reads.leave(client);
      this.#peerChanges.changed("peers", () => hub.broadcastFrame({ type: "peers", count: hub.size }));
    });
  }

  #onBrowserFrame(client: BrowserClient, grant: Grant, data: RawData, isBinary: boolean): void {
    // A revoked browser is told so with close code 4403, but ws still emits
    // the frames it had buffered and those that arrive during the closing
    // handshake: from a socket that is not open, or whose grant is no longer
    // live, nothing reaches pi or the room, whatever was already queued.
    if (!client.open || !this.#options.links.isLive(grant)) {
      if (client.open) client.socket.close(CLOSE_REVOKED, "the link this page was opened with was revoked");
      return;
    }
    if (isBinary) {
      return client.sendFrame({ type: "error", code: "binary_frame", message: "send commands as text frames (JSON), not binary" });
    }
    // ws delivers a Buffer for a text frame unless binaryType was changed.
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    const frame = classifyBrowserFrame(bytes);
    if (frame.kind === "refused") {
      return client.sendFrame({
        type: "error",
        code: frame.code,
        message: frame.message,
        ...(frame.command ? { command: frame.command } : {}),
      });
    }
    const pi = this.#pi;
    if (frame.kind === "request") {
      const request = frame.request;
      if (request.type === "pier.restart_pi") {
        if (this.room.roleOf(client) !== "driver") return client.sendFrame({ type: "error", code: "forbidden", message: "only a driver can restart pi", command: { type: request.type } });
        return this.#restart(client, request.sessionFile);
      }
      if (!this.#requests.take(client)) {
        return client.sendFrame({
          type: "error",
          code: "rate_limited",
          message: `too many requests in a short time; “${request.type}” was not carried out, try again in a moment`,
          command: { type: request.type },
        });
      }
      if (request.type === "pier.trust_workspace") return void this.#trustWorkspace(client, request);
      const refused = this.room.handle(client, request);
      if (refused !== null) client.sendFrame({ type: "error", code: refused.code, message: refused.message, command: { type: request.type } });
      return;
    }
    const refusal = this.#options.sessions?.refuseCommand(frame.type, frame.command, grant.id) ?? null;
    if (refusal !== null) {
      return client.sendFrame({
        type: "error",
        code: "path_refused",
        message: refusal,
        command: { type: frame.type, ...(frame.id !== undefined ? { id: frame.id } : {}) },
      });
    }
    if (!pi.running) {
      return client.sendFrame({
        type: "error",
        code: "pi_not_running",
        message: "pi is not running, so the command was not sent; restart pi first",
        command: { type: frame.type, ...(frame.id !== undefined ? { id: frame.id } : {}) },
      });
    }
    const refused = this.room.checkCommand(client, frame.type, frame.command);
    if (refused !== null) {
      return client.sendFrame({
        type: "error",
        code: refused.code,
        message: refused.message,
        command: { type: frame.type, ...(frame.id !== undefined ? { id: frame.id } : {}) },
      });
    }
    // A read's answer goes to this browser alone, so no other browser is told of it either.
    if (READ_ONLY_COMMANDS.has(frame.type)) return this.#reads.offer(client, grant, frame);
    this.#reads.commandSent(client, frame.id);
    this.#sentLog.note(this.room.people, client.id, frame.type, frame.command, frame.line, this.hub.streamEnd);
    this.#writeToPi(frame.line);
    this.#options.onCommand?.(frame.type, frame.command);
    this.room.announceCommand(client, frame.line);
  }

  /**
   * A driver acts on this session from the board, without a page on it:
   * prompt it, abort its run, or answer its dialog (the first answer wins,
   * as from a page). Everyone on the session hears who sent it. Returns why
   * it was not sent, or null.
   */
  commandFromBoard(grant: Grant, record: { type: "prompt" | "abort" | "extension_ui_response" } & Record<string, unknown>): string | null {
    if (grant.role !== "driver") return "only a driver can act on an agent";
    if (!this.#pi.running) return "this agent's pi is not running: restart it first";
    const person = this.room.people.byGrant(grant.id) ?? { clientId: `board-${grant.id}`, name: "A driver (board)", role: "driver" as const, colour: "#6b7280" };
    if (record.type === "extension_ui_response") {
      const first = this.room.claimAnswer(String(record["id"]), person);
      if (first !== null) return `${first.name} answered this dialog first; pi has its answer`;
    }
    // A dialog's answer carries the dialog's id; a command gets one of its own.
    const line = Buffer.from(JSON.stringify(record.type === "extension_ui_response" ? record : { ...record, id: `board-${++this.#boardSeq}` }));
    this.#reads.commandSent(null, undefined);
    this.#writeToPi(line);
    this.#options.onCommand?.(record.type, record);
    this.room.broadcast({ type: "command_sent", sender: person, line: line.toString("utf8"), at: Date.now() });
    return null;
  }

  #writeToPi(line: Buffer): void {
    const accepted = this.#pi.writeLine(line);
    if (!accepted && !this.#stdinBlocked) {
      this.#stdinBlocked = true;
      this.hub.pauseReading();
    }
  }

  /**
   * A driver trusts or distrusts the workspace (viewers never; a revoked
   * link's socket is closed before it gets here): saved in pi's store, then
   * pi restarts with its new --approve / --no-approve on the page's session.
   */
  async #trustWorkspace(client: BrowserClient, request: Extract<RelayRequest, { type: "pier.trust_workspace" }>): Promise<void> {
    const command = { type: request.type };
    if (this.room.roleOf(client) !== "driver") return client.sendFrame({ type: "error", code: "forbidden", message: "only a driver can trust or distrust this folder", command });
    const trust = this.#options.trust;
    if (!trust) return client.sendFrame({ type: "error", code: "request_failed", message: "this relay keeps no workspace trust", command });
    const before = this.#pi.launch.args;
    try {
      await trust.decide(request.trusted);
    } catch (error) {
      return client.sendFrame({ type: "error", code: "request_failed", message: error instanceof Error ? error.message : String(error), command });
    }
    // The change updated pi's arguments (relay.ts); pi reads its project's resources only at start.
    const after = this.#pi.launch.args;
    if (after.length !== before.length || after.some((arg, i) => arg !== before[i])) this.#restart(client, request.sessionFile);
  }

  /** Restart pi, reopening the session the browser was on when it has one. */
  #restart(client: BrowserClient, sessionFile: string | undefined): void {
    const pi = this.#pi;
    const sessions = this.#options.sessions;
    const plan = sessions ? sessions.restartLaunch(pi.launch, sessionFile) : { launch: pi.launch };
    if ("error" in plan) {
      return client.sendFrame({ type: "error", code: "request_failed", message: plan.error, command: { type: "pier.restart_pi" } });
    }
    this.#options.log(`restarting pi at a browser's request${sessionFile ? " on its session" : ""}`);
    pi.restart(plan.launch).catch((error: unknown) => this.#options.log(`restart failed: ${String(error)}`));
  }

  #scrub(): SecretScrubber {
    const launch = this.#pi.launch;
    if (this.#scrubber?.launch !== launch) this.#scrubber = { launch, scrubber: new SecretScrubber(launch.args, launch.env) };
    return this.#scrubber.scrubber;
  }

  #scrubStatus(child: PiProcess["status"]): PiProcess["status"] {
    return child.state === "exited" && child.error !== undefined ? { ...child, error: this.#scrub().text(child.error) } : child;
  }

  #unblockStdin(): void {
    if (!this.#stdinBlocked) return;
    this.#stdinBlocked = false;
    this.hub.resumeReading();
  }
}
