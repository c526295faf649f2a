// `pier tap -- COMMAND…`: pier between an RPC client (this process's stdin,
// stdout, stderr) and the pi it starts, invisible to that client, with the
// conversation shown read-only in browsers (tap-server.ts).
//
// Order of work for each piece of pi's stdout: to the client first, then a
// copy to the browsers. The client's bytes go to pi as they arrive, never
// waiting for a line. The client reading slowly pauses pi (as a pipe would);
// browsers never pause anything. EOF from the client closes pi's stdin; pi's
// exit code, or the signal that ended it (raised again on this process), is
// the tap's; SIGINT, SIGTERM and SIGHUP sent to the tap go to pi, once (pi
// has a process group of its own, so a terminal's Ctrl+C is not doubled).
// The client closing its end of stdout or stderr closes pi's: pi gets the
// EPIPE it would have got.
import { spawn } from "node:child_process";
import { open } from "node:fs/promises";
import { constants } from "node:os";
import type { Writable } from "node:stream";
import { MAX_COMMAND_BYTES } from "@pier/protocol";
import { freeChunk } from "../chunk-reclaim.ts";
import { CliError, isLoopback } from "../cli-options.ts";
import { networkWarning } from "../network-warning.ts";
import { SecretScrubber } from "../secret-scrubber.ts";
import { LineCutter } from "./line-cutter.ts";
import { parseTapOptions, TAP_USAGE, type TapOptions } from "./tap-options.ts";
import { drained, openOutput } from "./tap-output.ts";
import { TapServer } from "./tap-server.ts";

const FORWARDED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const MAX_STDERR_LINE = 4096;
/** How long the browsers' side may take to close once pi exited, before the tap exits anyway. */
const CLOSE_WAIT_MS = 1000;

export async function tapMain(argv: string[], webRoot: string): Promise<void> {
  const err = openOutput(2);
  // The client closed our stderr: pier's own lines are lost, and pi's (below) go unwritten.
  let errOpen = true;
  err.on("error", () => (errOpen = false));
  const say = (line: string) => errOpen && err.write(`pier tap: ${line}\n`);
  let options: TapOptions;
  try {
    options = parseTapOptions(argv, process.cwd(), process.env);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    err.write(`pier tap: ${error.message}\n\n${TAP_USAGE}`);
    await drained(err);
    process.exit(2);
  }
  if (options.help) {
    // No pi and no client here: help goes where help goes.
    const out = openOutput(1);
    out.write(TAP_USAGE);
    await drained(out);
    process.exit(0);
  }

  const scrubbed = new SecretScrubber(options.args, process.env).commandLine([options.command, ...options.args]);
  const server = new TapServer({ host: options.host, port: options.port, webRoot, replayBytes: options.replayBytes, command: scrubbed, cwd: process.cwd(), log: say });
  const child = spawn(options.command, options.args, { stdio: ["pipe", "pipe", "pipe"], detached: process.platform !== "win32" });
  let spawnError: NodeJS.ErrnoException | null = null;
  child.once("error", (error: NodeJS.ErrnoException) => {
    spawnError = error;
    say(`cannot start ${options.command}: ${error.message}`);
  });
  child.once("spawn", () => server.childStatus({ state: "running", epoch: 1, pid: child.pid!, startedAt: Date.now() }));

  // client → pi
  const input = process.stdin;
  const sent = new LineCutter(MAX_COMMAND_BYTES);
  input.on("data", (chunk: Buffer) => {
    if (!child.stdin.write(chunk)) input.pause();
    for (const line of sent.push(chunk)) server.clientLine(line);
  });
  child.stdin.on("drain", () => input.resume());
  const endInput = () => {
    const last = sent.end();
    if (last !== null) server.clientLine(last);
    child.stdin.end();
  };
  input.once("end", endInput);
  input.once("error", endInput);
  // pi gone (EPIPE): its exit tells the rest.
  child.stdin.on("error", () => {});

  // pi → client, then browsers
  const out = openOutput(1);
  let outOpen = true;
  pipeOut(
    child.stdout,
    out,
    () => outOpen,
    (bytes) => server.stdout(bytes),
  );
  out.on("error", () => {
    outOpen = false;
    child.stdout.destroy();
  });
  const stderrLines = new LineCutter(MAX_STDERR_LINE);
  pipeOut(
    child.stderr,
    err,
    () => errOpen,
    (bytes) => {
      for (const line of stderrLines.push(bytes)) server.stderrLine(line);
    },
  );
  err.on("error", () => child.stderr.destroy());

  for (const signal of FORWARDED_SIGNALS) process.on(signal, () => child.kill(signal));

  child.once("close", (code, signal) => {
    const last = stderrLines.end();
    if (last !== null) server.stderrLine(last);
    const error = spawnError as NodeJS.ErrnoException | null;
    server.childStatus({ state: "exited", epoch: 1, code, signal, exitedAt: Date.now(), ...(error ? { error: `could not start ${options.command}: ${error.message}` } : {}) });
    void finish(code, signal, error);
  });

  async function finish(code: number | null, signal: NodeJS.Signals | null, error: NodeJS.ErrnoException | null): Promise<never> {
    await Promise.all([drained(out), drained(err)]);
    await Promise.race([server.close(), new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS))]);
    if (signal !== null) {
      // Raised again on the tap, so the client sees what it would have seen of pi.
      for (const forwarded of FORWARDED_SIGNALS) process.removeAllListeners(forwarded);
      process.kill(process.pid, signal);
      // A signal Node ignores (SIGPIPE) or keeps for itself: the shell's convention.
      await new Promise((resolve) => setTimeout(resolve, 200));
      process.exit(128 + (constants.signals[signal] ?? 0));
    }
    // As a shell says it: 127 not found, 126 not runnable.
    process.exit(error ? (error.code === "ENOENT" ? 127 : 126) : (code ?? 1));
  }

  // The inspector, once pi is on its way: a failure here leaves the pass-through as it is.
  try {
    if (!isLoopback(options.host)) for (const line of networkWarning(options.host, options.port, "Anyone who can reach this address and obtains the link can watch this conversation.")) say(line);
    const { url } = await server.listen();
    if (options.linkFile !== null)
      await writeLinkFile(options.linkFile, url).catch((error: unknown) => say(`cannot write --link-file ${options.linkFile}: ${error instanceof Error ? error.message : String(error)}`));
    if (options.printLink) say(`read-only inspector of this conversation: ${url}`);
  } catch (error) {
    say(`the inspector did not start (${error instanceof Error ? error.message : String(error)}); pi runs as usual`);
  }
}

/**
 * `from`'s bytes to `to` as they come, pausing `from` while `to` is behind;
 * then `after` gets them (the browsers' copy), at once and in the same order
 * (so what the tap reports after a chunk, a client line or pi's exit, comes
 * after it for the browsers too). `after` copies what it keeps: the chunk
 * itself is `to`'s until written, and freed then (chunk-reclaim.ts: a chunk
 * left to the collector lingers, and pi's reads come fast).
 */
function pipeOut(from: NodeJS.ReadableStream & { pause(): unknown; resume(): unknown }, to: Writable, isOpen: () => boolean, after: (bytes: Buffer) => void): void {
  from.on("data", (bytes: Buffer) => {
    const writing = isOpen();
    if (writing && !to.write(bytes, () => freeChunk(bytes))) from.pause();
    after(bytes);
    if (!writing) freeChunk(bytes);
  });
  to.on("drain", () => from.resume());
}

async function writeLinkFile(path: string, url: string): Promise<void> {
  const file = await open(path, "w", 0o600);
  try {
    // An existing file keeps its mode: made private before the secret goes in.
    await file.chmod(0o600);
    await file.writeFile(`${url}\n`);
  } finally {
    await file.close();
  }
}
