// Spawns and supervises the pi child. stdout is handed on as raw chunks (never
// parsed here); stderr is split into bounded lines for the browsers; commands
// are written to stdin as one line each, honouring stdin backpressure.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { EventEmitter } from "node:events";
import type { ChildStatus } from "@pier/protocol";

export type PiLaunch = {
  /** Program to run and its arguments (pi's own arguments included). */
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
};

/** How long pi gets to exit after its stdin closes before SIGTERM, then SIGKILL. */
const STOP_GRACE_MS = 3000;
const MAX_STDERR_LINE = 4096;

type PiProcessEvents = {
  status: [ChildStatus];
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

  constructor(launch: PiLaunch) {
    super();
    this.launch = launch;
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
    this.#child?.stdout.pause();
  }

  resumeStdout(): void {
    this.#child?.stdout.resume();
  }

  /** Ends pi the way it likes (stdin closed), escalating if it does not go. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    child.stdin.end();
    const term = setTimeout(() => child.kill("SIGTERM"), STOP_GRACE_MS);
    const kill = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS * 2);
    await this.#exited;
    clearTimeout(term);
    clearTimeout(kill);
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
