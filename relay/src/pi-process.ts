// Spawns and supervises the pi child. stdout is handed on as raw chunks (never
// parsed here); stderr is split into bounded lines for the browsers; commands
// are written to stdin as one line each, honouring stdin backpressure.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { EventEmitter } from "node:events";
import type { ChildStatus, PiOrigin } from "@pier/protocol";

export type PiLaunch = {
  /** Program to run and its arguments (pi's own arguments included). */
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Which pi this is and where it came from (which-pi.ts), for the hello; absent when not known (tests' launches). */
  origin?: PiOrigin;
};

export type StopStep = { afterMs: number; signal: NodeJS.Signals };

/**
 * Stopping pi: stdin is closed at once (pi's documented way to ask, rpc.md
 * "Shutdown"), then these signals, in ms from that moment. pi's orderly
 * shutdown aborts the run (a bash tool gets SIGTERM, and SIGKILL after pi's
 * own 5 s), runs the extensions' session_shutdown handlers and waits for
 * credential writes (a token refresh in flight is a network round trip or
 * two). 16 s before pi is told to stop at once covers the 5 s with room for
 * a slow network; a pi that shuts down cleanly is gone within a second.
 */
export const STOP_STEPS: readonly StopStep[] = [
  // Not sent with the stdin close: a pi still starting has no handler yet
  // and dies at once (the default action; pi 0.87.1 can then leave its
  // auth.json lock behind for the next pi). Later it is harmless (one signal
  // does not interrupt a shutdown under way) and it also ends pi's tracked
  // background processes, which the stdin close does not.
  { afterMs: 3000, signal: "SIGTERM" },
  // A second signal: pi >= 1.5 exits at once, still ending its background processes.
  { afterMs: 16_000, signal: "SIGTERM" },
  // A child whose event loop is stuck runs no handler at all.
  { afterMs: 18_000, signal: "SIGKILL" },
];
const MAX_STDERR_LINE = 4096;

type PiProcessEvents = {
  status: [ChildStatus];
  /** One read of pi's stdout. The relay's bridge takes it over: its bytes are freed once sent (chunk-reclaim.ts). */
  stdout: [Buffer];
  stderrLine: [string];
  /** stdin accepted writes again after a full buffer. */
  drain: [];
};

export class PiProcess extends EventEmitter<PiProcessEvents> {
  /** How pi is started; a restart may change it (e.g. to reopen a session file). */
  launch: PiLaunch;
  #child: ChildProcessWithoutNullStreams | null = null;
  #status: ChildStatus = { state: "exited", epoch: 0, code: null, signal: null, exitedAt: Date.now() };
  #stderrPartial = "";
  #exited: Promise<void> = Promise.resolve();
  /** The relay wants stdout paused (browsers behind); kept across restarts. */
  #stdoutPaused = false;
  readonly #stopSteps: readonly StopStep[];

  constructor(launch: PiLaunch, stopSteps: readonly StopStep[] = STOP_STEPS) {
    super();
    this.launch = launch;
    this.#stopSteps = stopSteps;
  }

  get status(): ChildStatus {
    return this.#status;
  }

  get running(): boolean {
    return this.#status.state === "running";
  }

  start(): void {
    if (this.#child) throw new Error("pi is already running");
    const epoch = this.#status.epoch + 1;
    this.#setStatus({ state: "starting", epoch });
    const child = spawn(this.launch.command, this.launch.args, {
      cwd: this.launch.cwd,
      env: this.launch.env,
      stdio: ["pipe", "pipe", "pipe"],
      // pi gets a process group (and session) of its own, so pier alone
      // decides how it stops. In pier's group, the terminal's Ctrl+C (and a
      // closed terminal's SIGHUP, `timeout`, `kill -USR2 %1`) reached pi too:
      // it has no SIGINT handler and died at once, skipping its shutdown, and
      // the command its bash tool was running (a dev server, a test run) was
      // left behind; a SIGHUP raced pier's stdin close and pi exited before
      // aborting that command. Not on Windows, where it would open a console.
      detached: process.platform !== "win32",
    });
    this.#child = child;
    this.#stderrPartial = "";
    let spawnError: string | undefined;
    this.#exited = new Promise((resolve) => {
      child.once("close", (code, signal) => {
        this.#flushStderr();
        this.#child = null;
        this.#setStatus({
          state: "exited",
          epoch,
          code,
          signal,
          exitedAt: Date.now(),
          ...(spawnError ? { error: spawnError } : {}),
        });
        resolve();
      });
    });
    child.once("spawn", () => this.#setStatus({ state: "running", epoch, pid: child.pid!, startedAt: Date.now() }));
    child.once("error", (error) => {
      spawnError = `could not start pi (${this.launch.command}): ${error.message}`;
    });
    child.stdout.on("data", (chunk: Buffer) => this.emit("stdout", chunk));
    if (this.#stdoutPaused) child.stdout.pause();
    // A dead pi's last bytes are read whatever the browsers' state: "close"
    // (and so child_exited) waits for its stdout to end.
    child.once("exit", () => child.stdout.resume());
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => this.#onStderr(text));
    child.stdin.on("drain", () => this.emit("drain"));
    // pi may exit while a write is in flight; EPIPE is reported by "close".
    child.stdin.on("error", () => {});
  }

  /** Writes one command line; false means stdin is full: wait for "drain". */
  writeLine(line: Buffer): boolean {
    const child = this.#child;
    if (!child || this.#status.state !== "running") throw new Error("pi is not running");
    child.stdin.write(line);
    return child.stdin.write("\n");
  }

  pauseStdout(): void {
    this.#stdoutPaused = true;
    this.#child?.stdout.pause();
  }

  resumeStdout(): void {
    this.#stdoutPaused = false;
    this.#child?.stdout.resume();
  }

  /** Ends pi the way it likes (stdin closed), escalating if it does not go (STOP_STEPS). */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    child.stdin.end();
    // A pi blocked writing to a full stdout pipe handles nothing: read it out.
    child.stdout.resume();
    const timers = this.#stopSteps.map(({ afterMs, signal }) => setTimeout(() => child.kill(signal), afterMs));
    await this.#exited;
    for (const timer of timers) clearTimeout(timer);
  }

  async restart(launch: PiLaunch = this.launch): Promise<void> {
    await this.stop();
    this.launch = launch;
    this.start();
  }

  #setStatus(status: ChildStatus): void {
    this.#status = status;
    this.emit("status", status);
  }

  #onStderr(text: string): void {
    const lines = (this.#stderrPartial + text).split("\n");
    this.#stderrPartial = lines.pop() ?? "";
    if (this.#stderrPartial.length > MAX_STDERR_LINE) {
      lines.push(this.#stderrPartial);
      this.#stderrPartial = "";
    }
    for (const line of lines) this.#emitStderr(line);
  }

  #flushStderr(): void {
    if (this.#stderrPartial) this.#emitStderr(this.#stderrPartial);
    this.#stderrPartial = "";
  }

  #emitStderr(line: string): void {
    const clean = line.endsWith("\r") ? line.slice(0, -1) : line;
    this.emit("stderrLine", clean.length > MAX_STDERR_LINE ? `${clean.slice(0, MAX_STDERR_LINE)} … (line cut)` : clean);
  }
}
