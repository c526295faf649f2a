// The `pier` command: reads options, decides between the user's own pi setup
// and the offline demo model, starts the relay, prints the URL, and shuts
// everything down on SIGINT, SIGTERM or SIGHUP.
import { spawn } from "node:child_process";
import { closeSync } from "node:fs";
import { stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { DemoInfo } from "@pier/protocol";
import { CliError, isLoopback, parseCliOptions, USAGE, type CliOptions } from "./cli-options.ts";
import { startDemoModel, type DemoModel } from "./demo-model.ts";
import { offerFreshLinks } from "./fresh-links.ts";
import { probeModel } from "./model-probe.ts";
import { networkWarning } from "./network-warning.ts";
import { piOriginLine } from "@pier/protocol";
import { bundledPiDoc, piDoc } from "./pi-cli.ts";
import type { PiLaunch } from "./pi-process.ts";
import { startRelay, type RunningRelay } from "./relay.ts";
import { checkCaptureFile } from "./capture-file.ts";
import { openRegularFileSync } from "./regular-file.ts";
import { parseReplayOptions, REPLAY_USAGE, type ReplayOptions } from "./replay-options.ts";
import { startReplayServer } from "./replay-server.ts";
import { tapMain } from "./tap/tap-main.ts";
import { exportMain } from "./export/export-main.ts";
import { piArgsFor, withoutSessionSelectors } from "./sessions/session-args.ts";
import { readHeaderSync } from "./sessions/session-catalog.ts";
import { RELAY_VERSION } from "./version.ts";
import { runsWithNode } from "./pi-version.ts";
import { whichPi, type WhichPi } from "./which-pi.ts";

const WEB_ROOT = fileURLToPath(new URL("../../web/dist", import.meta.url));

const log = (line: string) => process.stderr.write(`pier: ${line}\n`);
/** What stops pier: Ctrl+C, `kill`, and its terminal closing (SIGHUP). */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/** Stop signals this close together are one request (see `stop`). */
const SAME_STOP_MS = 500;

export async function main(argv: string[]): Promise<void> {
  // Before anything touches process.stdout: the tap's stdout is the RPC client's (tap/tap-output.ts).
  if (argv[0] === "tap") return tapMain(argv.slice(1), WEB_ROOT);
  // pier's own output goes to a person or a script that may be gone (a closed
  // terminal: EIO; `pier | head -1`: EPIPE). A line lost there must not
  // crash pier, which would leave pi's shutdown and the cleanup undone.
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
  if (argv[0] === "replay") return replayMain(argv.slice(1));
  if (argv[0] === "export") return exportMain(argv.slice(1), WEB_ROOT);
  let options: CliOptions;
  try {
    options = parseCliOptions(argv, process.cwd());
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    process.stderr.write(`pier: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) return void process.stdout.write(USAGE);
  if (options.version) return void process.stdout.write(`pier ${RELAY_VERSION}\n`);
  try {
    await run(options);
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

async function run(options: CliOptions): Promise<void> {
  for (const dir of [options.cwd, ...options.moreWorkspaces]) if (!(await isDirectory(dir))) throw new Error(`--cwd ${dir} is not a folder`);
  if (!isLoopback(options.host)) {
    for (const line of networkWarning(options.host, options.port, "Anyone who can reach this address and obtains the URL can run shell commands as you through pi.")) log(line);
  }
  if (options.session.kind === "file") {
    const { path } = options.session;
    // Opened without blocking: a named pipe is named as one, not waited on.
    const opened = openRegularFileSync(path, { what: "a session file" });
    if (!opened.ok) throw new Error(opened.code === "ENOENT" || opened.code === "ENOTDIR" ? `--session ${path}: no such session file` : `--session ${opened.message}`);
    closeSync(opened.fd);
    // What pi would refuse, said before a page opens on a pi that exited at
    // once. An empty file pi takes as a new session started there.
    const header = opened.stats.size === 0 ? null : readHeaderSync(path);
    if (typeof header === "string") throw new Error(`--session ${path} ${header}`);
  }
  // A pi on PATH Pier does not support stops pier here, with the sentence that says what to do.
  const pi = await whichPi(options, process.env);
  // Before anything else pi does: which pi this is, so a difference from the user's terminal is no mystery.
  log(piOriginLine(pi));
  if (pi.warning) log(pi.warning);
  const userLaunch = piLaunch(pi, options, options.cwd, process.env);
  let demo: DemoModel | null = null;
  let demoInfo: DemoInfo | null = null;
  if (options.demo) {
    demo = await startDemoModel(options.demoScenario);
    demoInfo = { reason: "requested", projectDir: demo.projectDir, tour: options.demoScenario === null };
  } else if (options.demoFallback && (await probeModel(probeLaunch(userLaunch))) === "no_model") {
    demo = await startDemoModel(options.demoScenario);
    demoInfo = { reason: "no_model", projectDir: demo.projectDir, tour: options.demoScenario === null };
    process.stdout.write(
      "pi has no usable model configured, so Pier is using its offline demo model on a sample project.\n" +
        `Configure a model for pi (see ${piDoc(pi.program, "models.md") ?? bundledPiDoc("models.md") ?? "docs/models.md in pi's package"}), then run pier again.\n`,
    );
  }
  const launch = demo ? piLaunch(pi, options, demo.projectDir, { ...process.env, ...demo.env }) : userLaunch;
  let relay: RunningRelay;
  try {
    relay = await startRelay({
      host: options.host,
      port: options.port,
      launch,
      demo: demoInfo,
      webRoot: WEB_ROOT,
      replayBytes: options.replayBytes,
      heartbeatMs: options.heartbeatMs,
      maxRunning: options.maxAgents,
      idleStopMs: options.idleStopMs,
      workspaces: options.moreWorkspaces,
      worktreesDir: options.worktreesDir,
      explicitSessionFile: options.session.kind === "file" ? options.session.path : null,
      log,
    });
  } catch (error) {
    // The demo's scratch folders (its pi config, the project copy) go with it.
    await demo?.close();
    throw error;
  }
  // The one line a script (or a person) needs; the secret is printed nowhere else.
  process.stdout.write(`${relay.url}\n`);
  log(`serving ${launch.cwd} with ${demo ? "the offline demo model" : "your pi configuration"}; open the link above (Ctrl+C stops)`);
  offerFreshLinks({ freshUrl: () => relay.freshUrl(), log });
  if (options.open) openBrowser(relay.url);

  let stoppingSince: number | null = null;
  const stop = async (signal: NodeJS.Signals) => {
    if (stoppingSince !== null) {
      // One stop request can arrive twice at once: `timeout` signals pier and
      // then its whole process group, pi's shutdown included. A person who
      // presses Ctrl+C again means "now".
      if (Date.now() - stoppingSince < SAME_STOP_MS) return;
      log(`second ${signal}: exiting now`);
      process.exit(1);
    }
    stoppingSince = Date.now();
    log(`${signal}: stopping pi and the relay`);
    await relay.close();
    await demo?.close();
    process.exit(0);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => void stop(signal));
}

/** `pier replay FILE`: serve a capture to a player page; no pi. */
async function replayMain(argv: string[]): Promise<void> {
  let options: ReplayOptions;
  try {
    options = parseReplayOptions(argv, process.cwd());
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    process.stderr.write(`pier: ${error.message}\n\n${REPLAY_USAGE}`);
    process.exit(2);
  }
  if (options.help) return void process.stdout.write(REPLAY_USAGE);
  const check = await checkCaptureFile(options.file);
  if (!check.ok) {
    log(check.message);
    process.exit(1);
  }
  // The second file is checked as the first; its refusal says it is the one to compare with (the two paths may look alike).
  const other = options.compare === null ? null : await checkCaptureFile(options.compare);
  if (other?.ok === false) {
    log(`${other.message} (the second file, to compare with)`);
    await check.handle.close();
    process.exit(1);
  }
  const capture = { file: options.file, handle: check.handle, name: check.name, size: check.size };
  const compare = other === null ? null : { file: options.compare ?? "", handle: other.handle, name: other.name, size: other.size };
  const readers = compare === null ? "this capture" : "these captures";
  if (!isLoopback(options.host)) for (const line of networkWarning(options.host, options.port, `Anyone who can reach it and obtains the URL can read ${readers}.`)) log(line);
  const server = await startReplayServer({ host: options.host, port: options.port, capture, compare, webRoot: WEB_ROOT, log });
  process.stdout.write(`${server.url}\n`);
  log(`replaying ${check.name}${compare === null ? "" : ` compared with ${compare.name}`} (no pi is started); open the link above (Ctrl+C stops)`);
  offerFreshLinks({ freshUrl: () => server.freshUrl(), log });
  if (options.open) openBrowser(server.url);
  const stop = async (signal: NodeJS.Signals) => {
    log(`${signal}: stopping`);
    await server.close();
    process.exit(0);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => void stop(signal));
}

function piLaunch(pi: WhichPi, options: CliOptions, cwd: string, env: NodeJS.ProcessEnv): PiLaunch {
  const args = ["--mode", "rpc", ...piArgsFor(options.session, options.piArgs, false)];
  const origin = { version: pi.version, source: pi.source, path: pi.path };
  return runsWithNode(pi.program) ? { command: process.execPath, args: [pi.program, ...args], cwd, env, origin } : { command: pi.program, args, cwd, env, origin };
}

/** The model probe opens no session: loading a long one would only slow it down, and nothing is saved. */
function probeLaunch(launch: PiLaunch): PiLaunch {
  return { ...launch, args: [...withoutSessionSelectors(launch.args), "--no-session"] };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function openBrowser(url: string): void {
  const [command, args] = process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["cmd", ["/c", "start", "", url]] : ["xdg-open", [url]];
  const child = spawn(command as string, args as string[], { stdio: "ignore", detached: true });
  child.on("error", () => log("could not open a browser; open the URL above yourself"));
  child.unref();
}
