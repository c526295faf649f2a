// Where pi keeps the sessions of a workspace, found the way pi 0.87.1 finds it
// at start-up (dist/main.js, "sessionDir"), so the relay lists the folder pi
// really writes to:
//
// 1. `--session-dir <dir>` among pi's arguments (the last one wins). pi's
//    parser has no `--session-dir=<dir>` form: that spelling lands among the
//    unknown extension flags and is ignored, so it is ignored here too.
// 2. PI_CODING_AGENT_SESSION_DIR, when not empty.
// 3. The `sessionDir` setting: the project's <cwd>/.pi/settings.json over the
//    global <agentDir>/settings.json (pi merges them, the project wins). pi
//    reads it before asking whether the project is trusted, so an untrusted
//    project's setting counts too (docs/security.md says so).
// 4. <agentDir>/sessions/--<cwd, "/", "\" and ":" turned into "-">--, with
//    agentDir = PI_CODING_AGENT_DIR or ~/.pi/agent.
//
// pi expands "~" and file:// URLs in all of these but does not resolve a
// relative path: it stays relative to pi's working folder (which is `cwd`),
// so that is what it is resolved against here.
import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readRegularTextFile } from "../regular-file.ts";

export type SessionDirSource = "cli" | "env" | "settings" | "default";

export type SessionDirResolution = {
  /** The session folder, absolute. */
  dir: string;
  /**
   * True when pi only counts sessions whose header cwd is this workspace (a
   * custom folder other than the default one may hold several projects').
   */
  filterCwd: boolean;
  source: SessionDirSource;
  /** False when pi runs with --no-session: it saves nothing (old sessions still list). */
  persisted: boolean;
  /** The workspace folder as pi sees it (process.cwd() of the child: the realpath). */
  cwd: string;
};

export type ResolveSessionDirOptions = {
  /** The folder pi is started in. */
  cwd: string;
  /** pi's environment. */
  env: NodeJS.ProcessEnv;
  /** pi's arguments (with or without the `--mode rpc` the relay adds). */
  piArgs: readonly string[];
  /** For "~"; default: the env's HOME, else this process's home folder. */
  homeDir?: string;
};

export const ENV_AGENT_DIR = "PI_CODING_AGENT_DIR";
export const ENV_SESSION_DIR = "PI_CODING_AGENT_SESSION_DIR";
const CONFIG_DIR_NAME = ".pi";

export async function resolveSessionDir(options: ResolveSessionDirOptions): Promise<SessionDirResolution> {
  const home = options.homeDir ?? (options.env.HOME || homedir());
  // pi's process.cwd() is the kernel's answer: symbolic links resolved.
  const cwd = await realpath(options.cwd).catch(() => resolve(options.cwd));
  const agentDir = resolve(cwd, piAgentDir(options.env, home));
  const defaultDir = defaultSessionDirPath(cwd, agentDir);
  const args = readPiArgs(options.piArgs);
  const persisted = !args.noSession;

  // pi compares the expanded, unresolved string with the default path.
  const custom = (raw: string, source: SessionDirSource): SessionDirResolution => {
    const expanded = expandPiPath(raw, home);
    return { dir: resolve(cwd, expanded), filterCwd: expanded !== defaultDir, source, persisted, cwd };
  };

  if (args.sessionDir) return custom(args.sessionDir, "cli");
  const fromEnv = options.env[ENV_SESSION_DIR];
  if (fromEnv) return custom(fromEnv, "env");
  const fromSettings = await sessionDirSetting(cwd, agentDir);
  if (fromSettings) return custom(fromSettings, "settings");
  return { dir: defaultDir, filterCwd: false, source: "default", persisted, cwd };
}

/** pi's agent folder (PI_CODING_AGENT_DIR or ~/.pi/agent), "~" expanded, maybe relative. */
export function piAgentDir(env: NodeJS.ProcessEnv, home: string): string {
  const fromEnv = env[ENV_AGENT_DIR];
  return fromEnv ? expandPiPath(fromEnv, home) : join(home, CONFIG_DIR_NAME, "agent");
}

/** pi's getDefaultSessionDirPath for absolute `cwd` and `agentDir`. */
export function defaultSessionDirPath(cwd: string, agentDir: string): string {
  const safe = `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
  return join(agentDir, "sessions", safe);
}

/** pi's normalizePath: "~" and "~/…" expanded, file:// URLs turned into paths, nothing resolved. */
export function expandPiPath(input: string, home: string): string {
  if (input === "~") return home;
  if (input.startsWith("~/") || (process.platform === "win32" && input.startsWith("~\\"))) return join(home, input.slice(2));
  if (/^file:\/\//.test(input)) {
    try {
      return fileURLToPath(input);
    } catch {
      return input;
    }
  }
  return input;
}

/** pi's resolvePath: expanded, then absolute against `base`. */
export function resolvePiPath(input: string, base: string, home: string): string {
  const expanded = expandPiPath(input, home);
  return isAbsolute(expanded) ? resolve(expanded) : resolve(base, expanded);
}

/** Options that take the next argument (pi's parseArgs), when there is one. */
const TAKES_VALUE = new Set([
  "--provider",
  "--model",
  "--api-key",
  "--system-prompt",
  "--append-system-prompt",
  "--name",
  "-n",
  "--session",
  "--session-id",
  "--fork",
  "--session-dir",
  "--models",
  "--tools",
  "-t",
  "--exclude-tools",
  "-xt",
  "--thinking",
  "--export",
  "--extension",
  "-e",
  "--skill",
  "--prompt-template",
  "--theme",
]);

const KNOWN_FLAGS = new Set([
  "--help",
  "-h",
  "--version",
  "-v",
  "--continue",
  "-c",
  "--resume",
  "-r",
  "--no-session",
  "--no-tools",
  "-nt",
  "--no-builtin-tools",
  "-nbt",
  "--no-extensions",
  "-ne",
  "--no-skills",
  "-ns",
  "--no-prompt-templates",
  "-np",
  "--no-themes",
  "--no-context-files",
  "-nc",
  "--verbose",
  "--approve",
  "-a",
  "--no-approve",
  "-na",
  "--offline",
]);

/**
 * The two facts about sessions in pi's arguments, walking them exactly like
 * pi's parseArgs does, so a value that merely looks like `--session-dir`
 * (`--append-system-prompt --session-dir`) is not taken for the option.
 */
export function readPiArgs(args: readonly string[]): { sessionDir: string | undefined; noSession: boolean } {
  let sessionDir: string | undefined;
  let noSession = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (arg === "--") break;
    if (KNOWN_FLAGS.has(arg)) {
      if (arg === "--no-session") noSession = true;
    } else if (TAKES_VALUE.has(arg)) {
      if (next === undefined) continue;
      if (arg === "--session-dir") sessionDir = next;
      i++;
    } else if (arg === "--mode" || arg === "--use-theme") {
      if (next !== undefined && !next.startsWith("-")) i++;
    } else if (arg === "--tui-mode") {
      if (next !== undefined && !next.startsWith("-")) i++;
    } else if (arg === "--print" || arg === "-p") {
      if (next !== undefined && !next.startsWith("@") && (!next.startsWith("-") || next.startsWith("---"))) i++;
    } else if (arg === "--list-models") {
      if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) i++;
    } else if (arg.startsWith("@")) {
      // a file argument
    } else if (arg.startsWith("--") && !arg.includes("=")) {
      // An unknown (extension) flag takes the next argument as its value.
      if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) i++;
    }
  }
  return { sessionDir, noSession };
}

/**
 * The merged `sessionDir` setting, or undefined. An unreadable or invalid
 * settings file counts as empty, as in pi. A value pi could not use (a number,
 * an object) is ignored: pi itself fails to start with one.
 */
async function sessionDirSetting(cwd: string, agentDir: string): Promise<string | undefined> {
  const [global, project] = await Promise.all([readSettings(join(agentDir, "settings.json")), readSettings(join(cwd, CONFIG_DIR_NAME, "settings.json"))]);
  // pi's deep merge: a project key replaces the global one, even with null or "".
  const value = Object.hasOwn(project, "sessionDir") ? project.sessionDir : global.sessionDir;
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Far more than any settings file; a larger one counts as unreadable. */
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

async function readSettings(path: string): Promise<Record<string, unknown>> {
  // A project's settings file comes with the folder: one that is a named pipe
  // must not keep pier from starting (a plain readFile waits on it forever).
  const read = await readRegularTextFile(path, { what: "a settings file", maxBytes: MAX_SETTINGS_BYTES });
  if (!read.ok) return {};
  try {
    const text = read.text.replace(/^\uFEFF/, "");
    if (text === "") return {};
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
