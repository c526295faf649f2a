// Keys of the extension notifications this browser already showed, kept in
// localStorage so a reload (which rebuilds everything from the relay's
// replay) puts them in the bell's history without popping them up again,
// while a page that never saw them (the first one, opened after pi started
// and said hello from session_start) still does. Keys are scoped to one pi
// child (`scope`): an extension that fails the same way in the next pi run
// is news again.

const KEY = "pier.extensionUi.shown";
const LIMIT = 300;

function read(): string[] {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((key): key is string => typeof key === "string") : [];
  } catch {
    return [];
  }
}

export function rememberShown(scope: string, keys: readonly string[]): void {
  if (keys.length === 0) return;
  const scoped = keys.map((key) => `${scope}\u0000${key}`);
  const fresh = new Set(scoped);
  const all = [...read().filter((known) => !fresh.has(known)), ...scoped];
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(all.slice(-LIMIT)));
  } catch {
    // Storage full or disabled: a reload may pop these up once more.
  }
}

/** A membership test over the keys stored now, for one pi child. */
export function shownHere(scope: string): (key: string) => boolean {
  const keys = new Set(read());
  return (key) => keys.has(`${scope}\u0000${key}`);
}
