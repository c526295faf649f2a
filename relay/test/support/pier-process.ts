// Test support: the real `pier` command as a child process, and a WebSocket
// "browser" that speaks the relay wire (text control frames, binary stdout
// bytes). Shared by the relay contract tests and the e2e specs (startPier).
//
// pier runs in its own process group so stop() can take it down with
// everything in it even when pier itself misbehaves; pi, which pier starts in
// a group of its own, is taken down by its group too.
import { spawn, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { JsonlDecoder, RELAY_SOCKET_PATH, type RelayFrame } from "@pier/protocol";
import { withPiUnderTest } from "./pi-under-test.ts";
// Node clients resolve pier's `pier-….localhost` names as browsers do.
import "./resolve-localhost.ts";

export const PIER_BIN = fileURLToPath(new URL("../../bin/pier.js", import.meta.url));

export type ExitStatus = { code: number | null; signal: NodeJS.Signals | null };

export type StartPierOptions = {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** How long to wait for the URL line (default 20 s). */
  startTimeoutMs?: number;
  /** Another `pier.js` to run (a benchmark's baseline build); default: this repository's. */
  bin?: string;
  /**
   * Start pier without `--pi <the pi under test>`, so that it chooses its pi
   * itself (from PATH, else the bundled one): only for tests of that choice,
   * with an `env.PATH` the test made.
   */
  piFromPath?: boolean;
};

/** pier's arguments as a test means them: its pi named (never the machine's PATH's), unless a test of that choice says so. */
function pierArgs(args: string[], piFromPath = false): string[] {
  // `pier replay` starts no pi: it takes no pi option.
  return args[0] === "replay" || piFromPath ? args : withPiUnderTest(args);
}

export type RunningPier = {
  /** The first printed URL, `?token=` included. Links work once: a second browser needs `freshUrl()`. */
  url: string;
  /** Asks pier (Enter on its standard input) for another single-use link. */
  freshUrl(): Promise<string>;
  /** `http://pier-<random>.localhost:<port>` (the printed link's origin): what a page served by pier sends as Origin. */
  origin: string;
  /** `pier-<random>.localhost:<port>`: the Host header of that page. */
  host: string;
  /** `pier-<random>.localhost`: pier's own host name for this launch (its address instead with `--host <network address>`). */
  hostname: string;
  port: number;
  token: string;
  /** `pier_<port>=<value>`, ready for a Cookie header. */
  cookie: string;
  /** pier's stdout and stderr so far, split into lines. */
  stdout: string[];
  stderr: string[];
  process: ChildProcess;
  /** Settles when pier exits. */
  exited: Promise<ExitStatus>;
  /** Sends `signal` to pier only (not its group), as `kill <pid>` would. */
  signal(signal: NodeJS.Signals): void;
  /**
   * Stops pier with `signal` (default SIGTERM), waits up to `graceMs` for it
   * to exit, then SIGKILLs its whole process group (pi included) so nothing
   * outlives the test. Idempotent.
   */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<ExitStatus>;
};

/** A process's children (Linux /proc; elsewhere none are known). */
function childPidsOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export async function startPier(args: string[], options: StartPierOptions = {}): Promise<RunningPier> {
  // pier remembers recent workspaces in its XDG state folder: a test's pier gets its own, never the user's.
  const env = options.env ?? process.env;
  const child = spawn(process.execPath, [options.bin ?? PIER_BIN, ...pierArgs(args, options.piFromPath)], {
    cwd: options.cwd ?? process.cwd(),
    // Never the machine's own XDG_STATE_HOME, even when it is set: one test's board would come back in the next.
    env: options.env?.["XDG_STATE_HOME"] ? env : { ...env, XDG_STATE_HOME: mkdtempSync(join(tmpdir(), "pier-state-")) },
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  child.stdin!.on("error", () => {});
  const stdout: string[] = [];
  const stderr: string[] = [];
  const lineEvents = new EventEmitter();
  collectLines(child.stdout!, stdout, () => lineEvents.emit("stdout"));
  collectLines(child.stderr!, stderr, () => {});
  const exited = new Promise<ExitStatus>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  // "close" comes once stdout and stderr are read to the end as well.
  const outputRead = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const exitedWithOutput = exited.then(async (status) => {
    await Promise.race([outputRead, delay(1000)]);
    return status;
  });
  let exitStatus: ExitStatus | null = null;
  void exited.then((status) => (exitStatus = status));

  const killGroups = (leaders: number[]) => {
    for (const leader of leaders) {
      try {
        process.kill(-leader, "SIGKILL");
      } catch {
        // The group is already gone.
      }
    }
  };
  const stop = async (signal: NodeJS.Signals = "SIGTERM", graceMs = 10_000): Promise<ExitStatus> => {
    // Taken before pier goes: an orphaned pi can no longer be found this way.
    const piGroups = childPidsOf(child.pid!);
    if (exitStatus === null) {
      try {
        child.kill(signal);
      } catch {
        // Exited meanwhile.
      }
    }
    const status = await Promise.race([exited, delay(graceMs).then(() => null)]);
    killGroups([child.pid!, ...piGroups]);
    return status ?? (await exited);
  };

  let url: string;
  try {
    url = await waitForUrlLine(lineEvents, stdout, stderr, exitedWithOutput, options.startTimeoutMs ?? 20_000);
  } catch (error) {
    await stop("SIGKILL", 0);
    throw error;
  }
  const parsed = new URL(url);
  const port = Number(parsed.port);
  const host = parsed.host;
  const token = parsed.searchParams.get("token") ?? "";
  // One request at a time: each waits for the first URL line after its own Enter.
  let linkQueue: Promise<unknown> = Promise.resolve();
  const freshUrl = (): Promise<string> => {
    const next = linkQueue.then(() => {
      const seen = stdout.length;
      child.stdin!.write("\n");
      return waitForUrlLine(lineEvents, stdout, stderr, exitedWithOutput, 10_000, seen);
    });
    linkQueue = next.catch(() => undefined);
    return next;
  };
  let cookie: string;
  try {
    // The printed link stays unused, for the test's first browser.
    cookie = await exchangeToken(await freshUrl(), port);
  } catch (error) {
    await stop("SIGKILL", 0);
    throw error;
  }
  return {
    url,
    freshUrl,
    origin: `http://${host}`,
    host,
    hostname: parsed.hostname,
    port,
    token,
    cookie,
    stdout,
    stderr,
    process: child,
    exited,
    signal: (signal) => void child.kill(signal),
    stop,
  };
}

/** `pier replay FILE [OTHER]`: the player for a capture (opened compared with `compareWith` if given), behind the same door, with no pi. */
export function startPierReplay(file: string, { compareWith, ...options }: StartPierOptions & { compareWith?: string } = {}): Promise<RunningPier> {
  return startPier(["replay", file, ...(compareWith === undefined ? [] : [compareWith])], options);
}

/** Runs pier to its end (for commands that refuse to start): exit status and output. */
export function runPier(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; piFromPath?: boolean } = {}): Promise<ExitStatus & { stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [PIER_BIN, ...pierArgs(args, options.piFromPath)], { cwd: options.cwd ?? process.cwd(), env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`pier ${args.join(" ")} did not exit within ${options.timeoutMs ?? 20_000} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function collectLines(stream: NodeJS.ReadableStream, lines: string[], onLines: () => void): void {
  let partial = "";
  stream.setEncoding("utf8");
  stream.on("data", (text: string) => {
    const parts = (partial + text).split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts);
    if (parts.length > 0) onLines();
  });
  stream.on("end", () => {
    if (partial) lines.push(partial);
    partial = "";
  });
}

function waitForUrlLine(lineEvents: EventEmitter, stdout: string[], stderr: string[], exited: Promise<ExitStatus>, timeoutMs: number, from = 0): Promise<string> {
  const find = () => stdout.slice(from).find((line) => /^http:\/\/\S+\/\?token=\S+$/.test(line));
  return new Promise((resolve, reject) => {
    const describe = (what: string) => new Error(`pier ${what} before printing its URL.\nstdout:\n${stdout.join("\n")}\nstderr:\n${stderr.join("\n")}`);
    const timer = setTimeout(() => finish(() => reject(describe(`printed nothing usable within ${timeoutMs} ms`))), timeoutMs);
    const onLine = () => {
      const url = find();
      if (url) finish(() => resolve(url));
    };
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      lineEvents.off("stdout", onLine);
      settle();
    };
    lineEvents.on("stdout", onLine);
    void exited.then((status) => finish(() => reject(describe(`exited (code ${status.code}, signal ${status.signal})`))));
    onLine();
  });
}

/** Opens a link the way a browser would and returns the session cookie it sets ("pier_<port>=…"). */
export async function exchangeToken(url: string, port: number): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  const setCookie = response.headers.get("set-cookie");
  await response.body?.cancel();
  if (response.status !== 303 || !setCookie) {
    throw new Error(`token exchange answered ${response.status} (Set-Cookie: ${setCookie ?? "none"}), expected 303 with a cookie`);
  }
  const pair = setCookie.split(";")[0]!.trim();
  if (!pair.startsWith(`pier_${port}=`)) throw new Error(`unexpected cookie from the token exchange: ${setCookie}`);
  return pair;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

// --- The browser side of the wire -------------------------------------------

export type ConnectOptions = {
  /** Default: the pier cookie. `null` sends none. */
  cookie?: string | null;
  /** Default: pier's own origin. `null` sends none. */
  origin?: string | null;
  /** Overrides the Host header. */
  host?: string;
  path?: string;
  timeoutMs?: number;
  /**
   * Default true. False keeps the bytes but does not parse them into
   * `records` (a bench's extra client then takes less CPU from the page it
   * measures); waitForRecord then refuses at once.
   */
  parseRecords?: boolean;
  /** Default true. False: WebSocket pings go unanswered, like a browser whose network vanished. */
  answerPings?: boolean;
};

/** A received text frame or binary chunk, in arrival order. */
export type WireEvent = { kind: "frame"; frame: RelayFrame } | { kind: "bytes"; bytes: Buffer };

export type PiRecord = { [key: string]: any };

export type Browser = {
  ws: WebSocket;
  /** Everything received, in order. */
  events: WireEvent[];
  frames: RelayFrame[];
  /** Binary chunks as received, and their concatenation. */
  chunks: Buffer[];
  bytes(): Buffer;
  /** Bytes received before `replay_end` (the replay). */
  replayBytes(): Buffer;
  /** Complete records decoded from the byte stream so far. */
  records: PiRecord[];
  /** Lines of the byte stream that were not JSON (should stay empty). */
  invalidLines: string[];
  hello: Extract<RelayFrame, { type: "hello" }>;
  closed: Promise<{ code: number; reason: string }>;
  waitForFrame<T extends RelayFrame["type"]>(type: T, predicate?: (frame: Extract<RelayFrame, { type: T }>) => boolean, timeoutMs?: number): Promise<Extract<RelayFrame, { type: T }>>;
  waitForRecord(predicate: (record: PiRecord) => boolean, timeoutMs?: number): Promise<PiRecord>;
  /** Resolves once `check` returns something other than undefined/false, re-checked on every message. */
  waitUntil<T>(check: () => T | undefined | false, description: string, timeoutMs?: number): Promise<T>;
  send(value: unknown): void;
  sendRaw(data: string | Buffer, options?: { binary?: boolean }): void;
  close(): Promise<void>;
};

const DEFAULT_WAIT_MS = 20_000;

export function connectBrowser(pier: RunningPier, options: ConnectOptions = {}): Promise<Browser> {
  const ws = openSocket(pier, options);
  const events: WireEvent[] = [];
  const frames: RelayFrame[] = [];
  const chunks: Buffer[] = [];
  const records: PiRecord[] = [];
  const invalidLines: string[] = [];
  const decoder = new JsonlDecoder();
  const waiters = new Set<() => void>();
  let replayEndAt: number | null = null;
  let totalBytes = 0;
  let closeInfo: { code: number; reason: string } | null = null;

  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once("close", (code, reason) => {
      closeInfo = { code, reason: reason.toString("utf8") };
      resolve(closeInfo);
      for (const waiter of [...waiters]) waiter();
    }),
  );
  ws.on("message", (data, isBinary) => {
    const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (isBinary) {
      events.push({ kind: "bytes", bytes: buffer });
      chunks.push(buffer);
      totalBytes += buffer.length;
      if (options.parseRecords !== false) {
        for (const line of decoder.push(buffer)) {
          if (line.kind === "record") records.push(line.value as PiRecord);
          else invalidLines.push(line.raw);
        }
      }
    } else {
      const frame = JSON.parse(buffer.toString("utf8")) as RelayFrame;
      events.push({ kind: "frame", frame });
      frames.push(frame);
      if (frame.type === "replay_end" && replayEndAt === null) replayEndAt = totalBytes;
    }
    for (const waiter of [...waiters]) waiter();
  });

  const summary = () => {
    const last = frames.slice(-5).map((frame) => JSON.stringify(frame).slice(0, 200));
    return `(received ${frames.length} text frames, ${totalBytes} bytes / ${records.length} records${
      closeInfo ? `, socket closed ${closeInfo.code} ${closeInfo.reason}` : ""
    }; last frames: ${last.join(" | ") || "none"})`;
  };

  const waitUntil = <T>(check: () => T | undefined | false, description: string, timeoutMs = DEFAULT_WAIT_MS): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const attempt = () => {
        const value = check();
        if (value !== undefined && value !== false) {
          done();
          resolve(value);
        } else if (closeInfo) {
          done();
          reject(new Error(`socket closed while waiting for ${description} ${summary()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${description} ${summary()}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(attempt);
      };
      waiters.add(attempt);
      attempt();
    });

  const browser: Omit<Browser, "hello"> = {
    ws,
    events,
    frames,
    chunks,
    bytes: () => Buffer.concat(chunks),
    replayBytes: () => Buffer.concat(chunks).subarray(0, replayEndAt ?? totalBytes),
    records,
    invalidLines,
    closed,
    waitUntil,
    waitForFrame: (type, predicate, timeoutMs) => waitUntil(() => frames.find((frame) => frame.type === type && (!predicate || predicate(frame as never))) as never, `a "${type}" frame`, timeoutMs),
    waitForRecord: (predicate, timeoutMs) =>
      options.parseRecords === false
        ? Promise.reject(new Error("waitForRecord: this client was connected with parseRecords: false"))
        : waitUntil(() => records.find(predicate), "a matching pi record", timeoutMs),
    send: (value) => ws.send(JSON.stringify(value)),
    sendRaw: (data, sendOptions) => ws.send(data, { binary: sendOptions?.binary ?? false }),
    close: async () => {
      if (ws.readyState === WebSocket.CLOSED) return;
      ws.close();
      const timer = setTimeout(() => ws.terminate(), 2000);
      await closed;
      clearTimeout(timer);
    },
  };

  return new Promise<Browser>((resolve, reject) => {
    ws.once("unexpected-response", (_request, response) => {
      reject(new Error(`WebSocket upgrade refused with HTTP ${response.statusCode}`));
      ws.terminate();
    });
    ws.once("error", reject);
    ws.once("open", () => {
      ws.off("error", reject);
      ws.on("error", () => {});
      browser
        .waitForFrame("replay_end", undefined, options.timeoutMs ?? DEFAULT_WAIT_MS)
        .then(() => {
          const hello = frames.find((frame) => frame.type === "hello");
          if (!hello || frames[0] !== hello) throw new Error(`the first text frame was not hello ${summary()}`);
          resolve({ ...browser, hello: hello as Browser["hello"] });
        })
        .catch(reject);
    });
  });
}

/** Attempts a WebSocket upgrade and reports the HTTP status it was refused with (or "open"). */
export function attemptUpgrade(pier: RunningPier, options: ConnectOptions = {}): Promise<{ status: number | "open"; body: string }> {
  const ws = openSocket(pier, options);
  return new Promise((resolve, reject) => {
    ws.once("unexpected-response", (_request, response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => (body += text));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.on("error", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    ws.once("open", () => {
      ws.terminate();
      resolve({ status: "open", body: "" });
    });
    ws.once("error", (error) => reject(error));
  });
}

function openSocket(pier: RunningPier, options: ConnectOptions): WebSocket {
  const headers: { [name: string]: string } = {};
  const cookie = options.cookie === undefined ? pier.cookie : options.cookie;
  if (cookie !== null) headers.Cookie = cookie;
  if (options.host) headers.Host = options.host;
  const origin = options.origin === undefined ? pier.origin : options.origin;
  return new WebSocket(`ws://${pier.host}${options.path ?? RELAY_SOCKET_PATH}`, {
    headers,
    ...(origin !== null ? { origin } : {}),
    ...(options.answerPings === false ? { autoPong: false } : {}),
  });
}

/** A command id unique within the test run. */
let nextId = 0;
export function commandId(prefix = "t"): string {
  return `${prefix}-${process.pid}-${++nextId}`;
}

/** True while a process with this pid exists (signal 0 probes without killing). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export type HttpAnswer = { status: number; headers: IncomingHttpHeaders; body: string };

/**
 * A plain HTTP GET with the path sent exactly as given (fetch would normalise
 * `/../x` and `%2e%2e` away) and any headers, Host included.
 */
export function httpGet(pier: RunningPier, path: string, headers: { [name: string]: string } = {}): Promise<HttpAnswer> {
  // pier's own Host unless the test names another (as a browser at the printed link would send).
  const withHost = Object.keys(headers).some((name) => name.toLowerCase() === "host") ? headers : { Host: pier.host, ...headers };
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port: pier.port, path, method: "GET", headers: withHost }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => (body += text));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}
