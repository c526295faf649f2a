// Which pi a pier runs, and where it came from: told in pier's terminal at
// start and to every page in the hello, in the same words (piOriginLine).

/**
 * "path": the pi on the user's PATH (the one their own terminal runs);
 * "bundled": the pi installed with Pier (no pi on PATH, or --bundled-pi);
 * "option": the CLI named with --pi.
 */
export type PiSource = "path" | "bundled" | "option";

export type PiOrigin = {
  /** pi's version (its package.json, or what `pi --version` printed); null when it could not be told (--pi only). */
  version: string | null;
  source: PiSource;
  /** Where it was found: the PATH entry, the --pi argument, or the bundled CLI. A path, never a secret. */
  path: string;
};

/** "pi 1.6.0 from PATH (/usr/local/bin/pi)", "pi 1.6.0 (bundled with Pier)", "pi 0.87.1 from --pi (/opt/pi/cli.js)". */
export function piOriginLine(pi: PiOrigin): string {
  const name = pi.version === null ? "pi (version unknown)" : `pi ${pi.version}`;
  if (pi.source === "bundled") return `${name} (bundled with Pier)`;
  return `${name} from ${pi.source === "path" ? "PATH" : "--pi"} (${pi.path})`;
}
