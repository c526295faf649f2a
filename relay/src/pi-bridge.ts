// The pi ↔ browsers plumbing: pi's stdout bytes to every browser (and to the
// bounded replay for late ones), its stderr lines and lifecycle as relay
// frames, and each browser's checked command to pi's stdin, with stdin
// backpressure pausing every browser socket until pi catches up.
import type { RawData, WebSocket } from "ws";
import { MAX_COMMAND_BYTES, RELAY_PROTOCOL_VERSION, type DemoInfo } from "@pier/protocol";
import type { AccessLinks, Grant } from "./access-links.ts";
import { BrowserHub, type BrowserClient } from "./browser-hub.ts";
import { classifyBrowserFrame } from "./browser-frame.ts";
import { ChunkReclaim } from "./chunk-reclaim.ts";
import { Heartbeat } from "./heartbeat.ts";
import type { PiProcess } from "./pi-process.ts";
import { Room } from "./room.ts";
import type { SessionService } from "./sessions/session-service.ts";
import { StdoutReplay } from "./stdout-replay.ts";
import { RELAY_VERSION } from "./version.ts";

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
  #stdinBlocked = false;

  constructor(options: PiBridgeOptions) {
    const pi = options.pi;
    this.#pi = pi;
    this.#options = options;
    this.#replay = new StdoutReplay(options.replayBytes);
    this.hub = new BrowserHub(this.#replay, { pause: () => pi.pauseStdout(), resume: () => pi.resumeStdout() });
    this.room = new Room(options.links, options.log);
    this.heartbeat = new Heartbeat(options.heartbeatMs);

    pi.on("status", (child) => {
      // What the last child wrote is all out before anything about the next one.
      this.hub.flushStdout();
      if (child.state === "starting") {
        this.#replay.clear();
        this.#recentStderr.length = 0;
      } else if (child.state === "running") {
        this.hub.broadcastAfterStdout({ type: "child_started", child });
      } else {
        options.log(`pi exited (${child.error ?? `code ${child.code}, signal ${child.signal}`})`);
        this.hub.broadcastAfterStdout({ type: "child_exited", child });
        this.#unblockStdin();
      }
    });
    pi.on("stdout", (chunk) => {
      // Counted first: the hub takes the chunk over and may free it at once.
      this.#reclaim.noteChunk(chunk.length);
      this.hub.writeStdout(chunk);
    });
    pi.on("stderrLine", (line) => {
      this.#recentStderr.push(line);
      if (this.#recentStderr.length > RECENT_STDERR_LINES) this.#recentStderr.shift();
      options.log(`pi: ${line}`);
      this.hub.broadcastFrame({ type: "stderr", line });
    });
    pi.on("drain", () => this.#unblockStdin());
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
        piCommand: [launch.command, ...launch.args],
        demo: this.#options.demo,
        child: this.#pi.status,
        replay: { bytes: this.#replay.bytes, truncated: this.#replay.truncated },
        recentStderr: [...this.#recentStderr],
        peers: hub.size,
        limits: { maxCommandBytes: MAX_COMMAND_BYTES },
        sessions: this.#options.sessions?.info ?? null,
        you,
        people: room.people.list(),
        heartbeatMs: this.heartbeat.intervalMs,
      };
    });
    this.heartbeat.watch(client);
    room.welcome(client);
    hub.broadcastFrame({ type: "peers", count: hub.size });
    ws.on("message", (data, isBinary) => this.#onBrowserFrame(client, data, isBinary));
    ws.on("error", () => ws.terminate());
    ws.on("close", () => {
      this.heartbeat.forget(client);
      hub.remove(client);
      room.leave(client);
      hub.broadcastFrame({ type: "peers", count: hub.size });
    });
  }

  #onBrowserFrame(client: BrowserClient, data: RawData, isBinary: boolean): void {
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
      const refused = this.room.handle(client, request);
      if (refused !== null) client.sendFrame({ type: "error", code: refused.code, message: refused.message, command: { type: request.type } });
      return;
    }
    const refusal = this.#options.sessions?.refuseCommand(frame.type, frame.command) ?? null;
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
    const accepted = pi.writeLine(frame.line);
    this.room.announceCommand(client, frame.line);
    if (!accepted && !this.#stdinBlocked) {
      this.#stdinBlocked = true;
      this.hub.pauseReading();
    }
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

  #unblockStdin(): void {
    if (!this.#stdinBlocked) return;
    this.#stdinBlocked = false;
    this.hub.resumeReading();
  }
}
