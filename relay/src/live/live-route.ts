// Which live session a request is for: `/live/<id>/rest` names one, any
// other path is for the browser's default session (the one its link was
// made for, else the primary).
import { LIVE_ID_PATTERN, LIVE_PREFIX } from "@pier/protocol";

export type LiveRoute = { id: string; rest: string } | null;

/** `/live/2/api/files/tree` → { id: "2", rest: "/api/files/tree" }; `/live/2` → rest "/"; null for an unprefixed path. */
export function liveRoute(pathname: string): LiveRoute | { invalid: true } {
  if (!pathname.startsWith(LIVE_PREFIX)) return null;
  const after = pathname.slice(LIVE_PREFIX.length);
  const slash = after.indexOf("/");
  const id = slash === -1 ? after : after.slice(0, slash);
  if (!LIVE_ID_PATTERN.test(id)) return { invalid: true };
  return { id, rest: slash === -1 ? "/" : after.slice(slash) };
}
