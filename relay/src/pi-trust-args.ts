// pi's project trust as its own arguments. pi (0.87.1 and 1.6.0) takes
// `--approve` / `-a` ("trust project-local files for this run") and
// `--no-approve` / `-na` ("ignore project-local files for this run") before
// any extension, saved decision or setting. Pier passes the workspace's
// trust decision that way, so pi loads the project's `.pi/` resources
// exactly when Pier runs the repository's own commands — unless the person
// gave pi one of these themselves (after pier's `--`): theirs wins.

const APPROVE = new Set(["--approve", "-a"]);
const NO_APPROVE = new Set(["--no-approve", "-na"]);
/** The spellings Pier adds (never the short ones, so a person's `-a` is never mistaken for Pier's). */
const OURS = new Set(["--approve", "--no-approve"]);

/** The trust decision in pi's arguments as the person gave them (pi's parser: the last one wins), or null. */
export function piTrustOverride(piArgs: readonly string[]): boolean | null {
  let decision: boolean | null = null;
  for (const arg of piArgs) {
    if (arg === "--") break;
    if (APPROVE.has(arg)) decision = true;
    else if (NO_APPROVE.has(arg)) decision = false;
  }
  return decision;
}

/**
 * pi's arguments with Pier's trust flag for `trusted`: the one Pier added
 * before is replaced, else the flag goes right after `--mode rpc` (ahead of
 * anything the person passed). Call only when piTrustOverride found none.
 */
export function withTrustFlag(args: readonly string[], trusted: boolean): string[] {
  const flag = trusted ? "--approve" : "--no-approve";
  const at = args.findIndex((arg) => OURS.has(arg));
  if (at !== -1) return args.map((arg, i) => (i === at ? flag : arg));
  const mode = args.indexOf("--mode");
  if (mode === -1 || mode + 1 >= args.length) return [...args, flag];
  return [...args.slice(0, mode + 2), flag, ...args.slice(mode + 2)];
}
