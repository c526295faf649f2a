// Where pier keeps what it remembers across restarts (the recent
// workspaces): its own folder under the XDG state directory, never inside a
// user's repository.
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/** `$XDG_STATE_HOME/pier`, else `~/.local/state/pier` (a relative XDG_STATE_HOME is ignored, as the spec says). */
export function pierStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env["XDG_STATE_HOME"];
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".local", "state"), "pier");
}
