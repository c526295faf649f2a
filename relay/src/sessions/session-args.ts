// Which session pi opens at start-up, expressed as pi's own arguments. Pier
// resumes the workspace's most recent session by default (pi's --continue),
// so closing Pier, a crash or "Restart pi" never strands a conversation.
import { resolve } from "node:path";

/** pi options that choose the session (a value follows those in VALUED). */
const SELECTORS = new Set(["--continue", "-c", "--resume", "-r", "--session", "--session-id", "--fork", "--no-session"]);
const VALUED = new Set(["--session", "--session-id", "--fork"]);

export type SessionChoice =
  /** pi's --continue: the most recent session of this workspace, or a new one. */
  { kind: "resume" } | { kind: "new" } | { kind: "file"; path: string };

function optionName(arg: string): string {
  const equals = arg.indexOf("=");
  return arg.startsWith("--") && equals !== -1 ? arg.slice(0, equals) : arg;
}

/** The session option in pi's own arguments (e.g. `--no-session`), if the person passed one. */
export function sessionSelectorIn(piArgs: readonly string[]): string | null {
  for (const arg of piArgs) {
    const name = optionName(arg);
    if (SELECTORS.has(name)) return name;
  }
  return null;
}

/**
 * The session file named by pi's own `--session <file>` (not an id: pi takes
 * either), resolved like pi resolves it against its working folder.
 */
export function sessionFileIn(piArgs: readonly string[], cwd: string): string | null {
  let file: string | null = null;
  for (let i = 0; i < piArgs.length - 1; i++) {
    if (piArgs[i] === "--session" && piArgs[i + 1]!.endsWith(".jsonl")) file = resolve(cwd, piArgs[i + 1]!);
  }
  return file;
}

/** pi's arguments without any session selector (and their values). */
export function withoutSessionSelectors(piArgs: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < piArgs.length; i++) {
    const arg = piArgs[i]!;
    const name = optionName(arg);
    if (!SELECTORS.has(name)) {
      kept.push(arg);
      continue;
    }
    if (VALUED.has(name) && name === arg) i++; // "--session FILE": skip the value too
  }
  return kept;
}

/**
 * pi's arguments for a session choice. A selector the person passed to pi
 * themselves (after `--`) wins over the default resume; an explicit choice
 * (Restart pi on a known session file) replaces it.
 */
export function piArgsFor(choice: SessionChoice, piArgs: readonly string[], explicit: boolean): string[] {
  if (!explicit && sessionSelectorIn(piArgs) !== null) return [...piArgs];
  const rest = withoutSessionSelectors(piArgs);
  switch (choice.kind) {
    case "resume":
      return [...rest, "--continue"];
    case "new":
      return rest;
    case "file":
      return [...rest, "--session", choice.path];
  }
}
