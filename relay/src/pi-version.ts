// What version a pi CLI is, and whether Pier supports it. Read from the
// package.json of the pi package the CLI lives in when there is one (no
// process started); else asked with `pi --version`, bounded in time.
import { execFile } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";

/** pi's npm package names: today's, and the one pi was published under before. */
const PI_PACKAGE_NAMES = new Set(["@earendil-works/pi-coding-agent", "@mariozechner/pi-coding-agent"]);

/**
 * The versions Pier supports: the oldest it was built and tested against,
 * up to (not including) the next major version after the newest it was
 * tested with (1.6.x): pi keeps its RPC wire within a major version.
 */
export const OLDEST_SUPPORTED_PI = "0.87.1";
export const FIRST_UNSUPPORTED_MAJOR = 2;
export const SUPPORTED_RANGE_TEXT = `${OLDEST_SUPPORTED_PI} or newer, before ${FIRST_UNSUPPORTED_MAJOR}.0`;

/** `pi --version` answers in well under a second; a CLI that is not pi may never answer. */
export const VERSION_TIMEOUT_MS = 5000;

/** Does pier run this program with its own Node (a JavaScript file), or execute it? */
export function runsWithNode(program: string): boolean {
  return /\.[cm]?js$/.test(program);
}

/**
 * The version in the package.json of the pi package `file` belongs to (the
 * nearest package.json above it that has a name), or null when it is not in
 * one (a shell wrapper, a standalone binary, a missing file).
 */
export function piPackageVersion(file: string): string | null {
  let dir: string;
  try {
    dir = dirname(realpathSync(file));
  } catch {
    return null;
  }
  for (;;) {
    const found = readPackageJson(join(dir, "package.json"));
    if (found !== undefined) return found !== null && PI_PACKAGE_NAMES.has(found.name) && typeof found.version === "string" ? found.version : null;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** A package.json with a name; undefined when there is none here (or it has no name: a `{"type":"module"}` marker); null when unreadable. */
function readPackageJson(path: string): { name: string; version?: unknown } | null | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const json = JSON.parse(text) as { name?: unknown; version?: unknown };
    return typeof json.name === "string" ? { name: json.name, version: json.version } : undefined;
  } catch {
    return null;
  }
}

export type AskedVersion = { version: string | null; said: string };

/**
 * Runs `<program> --version` (a .js file with this Node) and takes the first
 * x.y.z it prints. `said` is its output (or why there is none), for a refusal.
 * PI_OFFLINE keeps pi from checking for updates on the way.
 */
export function askPiVersion(program: string, env: NodeJS.ProcessEnv, timeoutMs = VERSION_TIMEOUT_MS): Promise<AskedVersion> {
  const [command, args] = runsWithNode(program) ? [process.execPath, [program, "--version"]] : [program, ["--version"]];
  return new Promise((resolve) => {
    const child = execFile(command, args, { env: { ...env, PI_OFFLINE: "1" }, timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 64 * 1024 }, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}`.trim();
      const version = /\b(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\b/.exec(stdout)?.[1] ?? null;
      if (version !== null) return resolve({ version, said: output });
      const why = error && "killed" in error && error.killed ? `no answer within ${timeoutMs / 1000} s` : error && !output ? error.message : JSON.stringify(output.slice(0, 120));
      resolve({ version: null, said: why });
    });
    child.stdin?.end();
  });
}

export type Support = "supported" | "too_old" | "too_new" | "unparsable";

/** Whether Pier supports a pi of this version (a pre-release counts as its release). */
export function piVersionSupport(version: string | null): Support {
  const parsed = version === null ? null : parseVersion(version);
  if (parsed === null) return "unparsable";
  if (parsed[0] >= FIRST_UNSUPPORTED_MAJOR) return "too_new";
  return compare(parsed, parseVersion(OLDEST_SUPPORTED_PI)!) < 0 ? "too_old" : "supported";
}

function parseVersion(version: string): [number, number, number] | null {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+][0-9A-Za-z.+-]*)?$/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
