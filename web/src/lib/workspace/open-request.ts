// A page opened to show one file: `#open=<workspace path>` in its address
// (a worktree diff on the board links to the agent's own page this way,
// since the file is in that agent's folder, not this page's). Taken once,
// then dropped from the address so a reload does not open it again.

const KEY = "open=";

/** The workspace path the address asks to open, if any (the hash is removed). */
export function takeOpenRequest(
  where: Pick<Location, "hash" | "pathname" | "search"> = location,
  replace: (url: string) => void = (url) => history.replaceState(history.state, "", url),
): string | null {
  if (!where.hash.startsWith(`#${KEY}`)) return null;
  let path: string;
  try {
    path = decodeURIComponent(where.hash.slice(1 + KEY.length));
  } catch {
    return null;
  } finally {
    replace(`${where.pathname}${where.search}`);
  }
  return path.trim() === "" ? null : path;
}

/** The address of `page` opening `path` there. */
export function openRequestHref(page: string, path: string): string {
  return `${page}#${KEY}${encodeURIComponent(path)}`;
}
