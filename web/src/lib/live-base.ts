// Which live session this page shows, by its path: `/live/<id>/…` is that
// session (its socket and HTTP API live under the same prefix), any other
// path is the browser's default session (the relay picks it: the session
// the link was made for, else the one pier started with).
import { LIVE_ID_PATTERN, LIVE_PREFIX } from "@pier/protocol";

/** The live session named by `pathname`, or null when the page is the default one. */
export function liveIdOf(pathname: string): string | null {
  if (!pathname.startsWith(LIVE_PREFIX)) return null;
  const after = pathname.slice(LIVE_PREFIX.length);
  const slash = after.indexOf("/");
  const id = slash === -1 ? after : after.slice(0, slash);
  return LIVE_ID_PATTERN.test(id) ? id : null;
}

/** The prefix every HTTP path and the socket of this page carry: "" or "/live/<id>". */
export function liveBase(pathname: string = location.pathname): string {
  const id = liveIdOf(pathname);
  return id === null ? "" : `${LIVE_PREFIX}${id}`;
}

/** `path` ("/api/…") under this page's live session. */
export function livePath(path: string, pathname: string = location.pathname): string {
  if (!path.startsWith("/")) throw new Error(`A relay path starts with "/" (got “${path}”).`);
  return `${liveBase(pathname)}${path}`;
}

/** Where a live session's page is: `/` for the primary, `/live/<id>/` for the others. */
export function livePageHref(card: { id: string; primary: boolean }): string {
  return card.primary ? "/" : `${LIVE_PREFIX}${card.id}/`;
}
