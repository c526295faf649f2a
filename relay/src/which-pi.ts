// Which pi pier runs. The user's own pi, the one their terminal runs (found
// on PATH), so their extensions and settings behave as they do there; else
// the pi bundled with Pier. `--pi PATH` names one (always honoured: it is
// the way out), `--bundled-pi` asks for the bundled one. A pi on PATH that
// Pier does not support is refused in one sentence that says what to do,
// rather than run quietly as something else.
import { accessSync, constants, readFileSync, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import type { PiOrigin } from "@pier/protocol";
import { defaultPiCliPath } from "./pi-cli.ts";
import { askPiVersion, piPackageVersion, piVersionSupport, runsWithNode, SUPPORTED_RANGE_TEXT, VERSION_TIMEOUT_MS, type Support } from "./pi-version.ts";

export type WhichPi = PiOrigin & {
  /** The file pier runs: a .js file runs with pier's own Node, anything else is executed. */
  program: string;
  /** A warning for pier's terminal (a --pi of a version Pier does not support), or null. */
  warning: string | null;
};

export type PiChoice = {
  /** --pi PATH (absolute), or null. */
  pi: string | null;
  /** --bundled-pi. */
  bundledPi: boolean;
};

export class UnsupportedPiError extends Error {}

export type WhichPiDeps = {
  /** The bundled pi's CLI (default: relay's dependency). */
  bundledCli?: string;
  /** How long `pi --version` may take. */
  versionTimeoutMs?: number;
};

/** Decides which pi runs; throws UnsupportedPiError (one sentence) for a pi on PATH Pier does not support. */
export async function whichPi(choice: PiChoice, env: NodeJS.ProcessEnv, deps: WhichPiDeps = {}): Promise<WhichPi> {
  const bundledCli = deps.bundledCli ?? defaultPiCliPath();
  const bundled = (): WhichPi => ({ program: bundledCli, path: bundledCli, version: piPackageVersion(bundledCli), source: "bundled", warning: null });
  if (choice.pi !== null) {
    const version = piPackageVersion(choice.pi) ?? (await askPiVersion(choice.pi, env, deps.versionTimeoutMs)).version;
    const support = piVersionSupport(version);
    const warning =
      support === "supported"
        ? null
        : `${version === null ? "could not tell which pi version --pi is" : `pi ${version} is not a version Pier supports (${SUPPORTED_RANGE_TEXT})`}; running it as asked, it may misbehave`;
    return { program: choice.pi, path: choice.pi, version, source: "option", warning };
  }
  if (choice.bundledPi) return bundled();
  const found = findOnPath("pi", env["PATH"] ?? "");
  if (found === null) return bundled();
  const program = cliBehind(found);
  // `pnpm exec` and package scripts put node_modules/.bin on PATH: that pi is the bundled one.
  if (sameFile(program, bundledCli)) return bundled();
  let version = piPackageVersion(program);
  let said = "";
  if (version === null) ({ version, said } = await askPiVersion(program, env, deps.versionTimeoutMs ?? VERSION_TIMEOUT_MS));
  const support = piVersionSupport(version);
  if (support !== "supported") throw new UnsupportedPiError(refusal(found, version, said, support, piPackageVersion(bundledCli)));
  return { program, path: found, version, source: "path", warning: null };
}

/** One sentence: what is wrong with the pi on PATH, and the ways on (pier prefixes "pier: "). */
function refusal(found: string, version: string | null, said: string, support: Support, bundledVersion: string | null): string {
  const bundled = `--bundled-pi to use the pi ${bundledVersion === null ? "" : `${bundledVersion} `}bundled with Pier`;
  if (version === null || support === "unparsable") {
    return `the pi on your PATH (${found}) did not say which version it is (pi --version: ${said || "nothing"}), so Pier cannot tell whether it supports it: start pier with ${bundled}, or with --pi ${found} to run it anyway.`;
  }
  const older = support === "too_old";
  return `the pi on your PATH (${found}) is ${version}, ${older ? "older" : "newer"} than Pier supports (${SUPPORTED_RANGE_TEXT}): ${older ? "update it, or " : ""}start pier with ${bundled}, or with --pi PATH to run another pi.`;
}

/** The first executable file called `name` in a PATH string, or null. Empty entries (the current folder) are skipped. */
export function findOnPath(name: string, path: string): string | null {
  for (const dir of path.split(delimiter)) {
    if (dir === "" || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not there, or not executable: the shell would go on looking too.
    }
  }
  return null;
}

/**
 * The pi CLI a PATH entry leads to: through symlinks (npm's global bin), and
 * through a package manager's shell shim that names its target (pnpm writes
 * `# cmd-shim-target=<path>`). Run with pier's Node, it needs no `node` on
 * PATH (which may be an older one). Anything else is run as it is.
 */
export function cliBehind(file: string): string {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return file;
  }
  if (runsWithNode(real)) return real;
  let head: string;
  try {
    head = readFileSync(real, "utf8").slice(0, 8192);
  } catch {
    return real;
  }
  if (!head.startsWith("#!")) return real;
  const target = /^# cmd-shim-target=(.+\.[cm]?js)\s*$/m.exec(head)?.[1];
  if (target === undefined) return real;
  try {
    return realpathSync(target);
  } catch {
    return real;
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
