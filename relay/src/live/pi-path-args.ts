// pi resolves the resource paths of its command line (`-e ./review.ts`,
// `--skill`, `--prompt-template`, `--theme`, `--session-dir`, a
// `--system-prompt` file) against the folder it runs in. pier passes the
// arguments it was given to every agent, and a new agent runs in another
// folder: its relative paths would name files that are not there, and its
// extension would silently not load. So for an agent beyond the first, they
// are made absolute against the primary session's folder, where pi resolved
// them for the first agent.
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";

/** Options whose value is a path (a package source such as `builtin:mcp` or `npm:x` is left as it is). */
const PATH_OPTIONS = new Set(["-e", "--extension", "--skill", "--prompt-template", "--theme", "--session-dir"]);
/** Options whose value is text or a path: a path only when such a file exists (as pi decides). */
const TEXT_OR_PATH_OPTIONS = new Set(["--system-prompt", "--append-system-prompt"]);

/** `args` with every relative resource path made absolute against `baseCwd`. */
export function withAbsolutePiPaths(args: readonly string[], baseCwd: string, exists: (path: string) => boolean = existsSync): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const equals = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = equals === -1 ? arg : arg.slice(0, equals);
    if (!PATH_OPTIONS.has(name) && !TEXT_OR_PATH_OPTIONS.has(name)) {
      out.push(arg);
      continue;
    }
    const inline = equals !== -1;
    const value = inline ? arg.slice(equals + 1) : args[i + 1];
    if (value === undefined) {
      out.push(arg);
      continue;
    }
    const absolute = absoluteValue(name, value, baseCwd, exists);
    if (inline) out.push(`${name}=${absolute}`);
    else {
      out.push(arg, absolute);
      i++;
    }
  }
  return out;
}

function absoluteValue(name: string, value: string, baseCwd: string, exists: (path: string) => boolean): string {
  if (value === "" || isAbsolute(value) || value.startsWith("~")) return value;
  // A source with a scheme (builtin:mcp, npm:pkg, git:host/repo, https://…) is not a path.
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return value;
  const path = resolve(baseCwd, value);
  if (TEXT_OR_PATH_OPTIONS.has(name)) return exists(path) ? path : value;
  return path;
}
