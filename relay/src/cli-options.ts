// `pier` command-line options: parsed strictly, with a clear sentence for
// anything wrong (the CLI prints it with the usage and exits 2).
import { isIP } from "node:net";
import { resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { HEARTBEAT_MS } from "./heartbeat.ts";
import { DEFAULT_MAX_RUNNING } from "./live/live-sessions.ts";
import { SUPPORTED_RANGE_TEXT } from "./pi-version.ts";
import { sessionSelectorIn, type SessionChoice } from "./sessions/session-args.ts";

export const USAGE = `Usage: pier [options] [-- <pi arguments>]
       pier replay FILE [OTHER] [--port N] [--host ADDR] [--open]
       pier export CAPTURE [-o FILE.html] [--force]

Opens a browser IDE for the pi coding agent on a workspace folder.

Options:
  --cwd DIR            workspace folder pi works in (default: current directory);
                       give it again for more workspaces, listed for new agents
  --port N             port to listen on; 0 picks a free one (default: 0)
  --host ADDR          address to listen on (default: 127.0.0.1, loopback only);
                       anything else exposes the IDE to your network: a warning is printed
  --demo               run pi against Pier's offline scripted demo model, in a
                       scratch copy of a sample project (never your files)
  --demo-scenario FILE play this scenario file with the demo model instead of the tour
  --no-demo-fallback   never fall back to the demo model when pi has no usable model
  --new-session        start a new session instead of continuing the workspace's most recent one
  --session FILE       open this session file (a .jsonl in pi's session folder)
  --worktrees DIR      where agents' git worktrees go: DIR/<repository>/<branch>
                       (default: beside the repository, <repository>.worktrees/<branch>)
  --open               open the URL in your default browser
  --pi PATH            run this pi CLI, whatever its version (a .js file runs
                       with this Node; anything else is executed)
  --bundled-pi         run the pi bundled with Pier even if there is one on PATH
                       Without either, pier runs the pi on your PATH as your
                       terminal would (refused if Pier does not support its
                       version: ${SUPPORTED_RANGE_TEXT}), else the bundled one
  --max-agents N       how many pi children (live sessions) may run at once
                       (default: 8)
  --idle-stop MINUTES  stop the pi of a live session nobody watches after this
                       long without activity (default: 30; 0: never); it starts
                       again on its session when opened or prompted
  --replay-bytes N     how much of pi's output to keep for browsers that connect
                       late or reload (default: 8388608, 8 MiB)
  --heartbeat SECONDS  how often pier checks that each browser is still there
                       (default: 15); one whose network vanished is let go
                       within twice that, and a page that hears nothing from
                       pier for three times that reconnects
  -h, --help           show this help
  -v, --version        show Pier's version

Everything after -- is passed to pi, e.g.: pier -- --model sonnet --thinking high

pier replay FILE opens a capture recorded in Pier's inspector (no pi is started);
pier replay FILE OTHER opens it compared with a second capture.
pier export CAPTURE writes it as one HTML page that opens anywhere, offline.
`;

export type CliOptions = {
  cwd: string;
  /** The folders of further --cwd options (listed on the board for new agents). */
  moreWorkspaces: string[];
  /** --worktrees: where agents' worktrees go; null: beside each repository. */
  worktreesDir: string | null;
  port: number;
  host: string;
  demo: boolean;
  demoScenario: string | null;
  demoFallback: boolean;
  /** Which session pi opens: by default the workspace's most recent one (pi's --continue). */
  session: SessionChoice;
  open: boolean;
  /** --pi: the pi CLI to run (absolute); null: pier chooses (which-pi.ts). */
  pi: string | null;
  /** --bundled-pi: the pi bundled with Pier, even with one on PATH. */
  bundledPi: boolean;
  replayBytes: number;
  heartbeatMs: number;
  maxAgents: number;
  idleStopMs: number;
  piArgs: string[];
  help: boolean;
  version: boolean;
};

export class CliError extends Error {}

/**
 * node:util's parseArgs for every `pier` command line, its refusal as a
 * CliError: without Node's advice to use "--" for a value that looks like an
 * option ("--" means pi's arguments to pier), and with `hint` after it.
 */
export function parseCommandLine<T extends ParseArgsConfig>(config: T, hint = ""): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify.*$/s, ".") : String(error);
    throw new CliError(hint === "" ? message : `${message} ${hint}`);
  }
}

/** Where a `pier` command listens (--host, --port), checked: loopback and a free port unless told otherwise. */
export function listenAddress(host = "127.0.0.1", port = "0"): { host: string; port: number } {
  if (host !== "localhost" && isIP(host) === 0) throw new CliError(`--host must be an IP address or "localhost", not "${host}"`);
  if (!/^\d+$/.test(port) || Number(port) > 65535) throw new CliError(`--port takes a whole number from 0 to 65535, not "${port}"`);
  return { host, port: Number(port) };
}

export function parseCliOptions(argv: string[], baseDir: string): CliOptions {
  const dashDash = argv.indexOf("--");
  const own = dashDash === -1 ? argv : argv.slice(0, dashDash);
  const piArgs = dashDash === -1 ? [] : argv.slice(dashDash + 1);
  const { values } = parseCommandLine({
    args: own,
    allowPositionals: false,
    strict: true,
    options: {
      cwd: { type: "string", multiple: true },
      worktrees: { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      demo: { type: "boolean" },
      "demo-scenario": { type: "string" },
      "no-demo-fallback": { type: "boolean" },
      "new-session": { type: "boolean" },
      session: { type: "string" },
      open: { type: "boolean" },
      pi: { type: "string" },
      "bundled-pi": { type: "boolean" },
      "replay-bytes": { type: "string" },
      "max-agents": { type: "string" },
      "idle-stop": { type: "string" },
      heartbeat: { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
  const { host, port } = listenAddress(values.host, values.port);
  if (piArgs.includes("--mode")) throw new CliError("pier always runs pi with --mode rpc; do not pass --mode to pi");
  if (values.pi !== undefined && values["bundled-pi"]) throw new CliError("choose either --pi PATH or --bundled-pi, not both");
  const session = sessionChoice(values["new-session"] ?? false, values.session, piArgs, baseDir);
  return {
    cwd: resolve(baseDir, values.cwd?.[0] ?? "."),
    moreWorkspaces: moreWorkspaces(values.cwd ?? [], baseDir),
    worktreesDir: values.worktrees !== undefined ? resolve(baseDir, nonEmpty(values.worktrees, "--worktrees needs a folder")) : null,
    port,
    host,
    demo: values.demo ?? false,
    demoScenario: values["demo-scenario"] ? resolve(baseDir, values["demo-scenario"]) : null,
    demoFallback: !(values["no-demo-fallback"] ?? false),
    session,
    open: values.open ?? false,
    pi: values.pi !== undefined ? resolve(baseDir, nonEmpty(values.pi, "--pi needs the path of a pi CLI")) : null,
    bundledPi: values["bundled-pi"] ?? false,
    replayBytes: parseInteger(values["replay-bytes"] ?? String(8 * 1024 * 1024), "--replay-bytes", 64 * 1024, 1024 ** 3),
    // Whole milliseconds: 1.005 s is 1005, not 1004.9999999999999.
    heartbeatMs: Math.round(parseSeconds(values.heartbeat ?? String(HEARTBEAT_MS / 1000), "--heartbeat", 0.1, 3600) * 1000),
    idleStopMs: Math.round(parseSeconds(values["idle-stop"] ?? "30", "--idle-stop", 0, 7 * 24 * 60, "minutes") * 60_000),
    maxAgents: parseInteger(values["max-agents"] ?? String(DEFAULT_MAX_RUNNING), "--max-agents", 1, 64),
    piArgs,
    help: values.help ?? false,
    version: values.version ?? false,
  };
}

/** The folders of the second and later --cwd, each once, without the first. */
function moreWorkspaces(dirs: readonly string[], baseDir: string): string[] {
  const first = resolve(baseDir, dirs[0] ?? ".");
  return [...new Set(dirs.slice(1).map((dir) => resolve(baseDir, dir)))].filter((dir) => dir !== first);
}

function sessionChoice(newSession: boolean, file: string | undefined, piArgs: readonly string[], baseDir: string): SessionChoice {
  if (newSession && file !== undefined) throw new CliError("choose either --new-session or --session FILE, not both");
  const piSelector = sessionSelectorIn(piArgs);
  if (piSelector !== null && (newSession || file !== undefined)) {
    throw new CliError(`pi's own ${piSelector} (after --) already chooses the session; drop it or pier's ${newSession ? "--new-session" : "--session"}`);
  }
  if (file !== undefined) {
    if (file.trim() === "") throw new CliError("--session needs the path of a session file");
    return { kind: "file", path: resolve(baseDir, file) };
  }
  return newSession ? { kind: "new" } : { kind: "resume" };
}

function nonEmpty(text: string, message: string): string {
  if (text.trim() === "") throw new CliError(message);
  return text;
}

function parseInteger(text: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) throw new CliError(`${name} takes a whole number, not "${text}"`);
  const value = Number(text);
  if (value < min || value > max) throw new CliError(`${name} must be between ${min} and ${max}`);
  return value;
}

function parseSeconds(text: string, name: string, min: number, max: number, unit = "seconds"): number {
  if (!/^\d+(\.\d+)?$/.test(text)) throw new CliError(`${name} takes a number of ${unit}, not "${text}"`);
  const value = Number(text);
  if (value < min || value > max) throw new CliError(`${name} must be between ${min} and ${max} ${unit}`);
  return value;
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}
