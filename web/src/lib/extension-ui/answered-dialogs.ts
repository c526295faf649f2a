// Ids of extension dialogs this browser answered or dismissed, kept in
// localStorage so a reload (which rebuilds from the relay's replay) does not
// bring them back. Ids are pi's fresh UUIDs, so one list serves every relay.

const KEY = "pier.extensionUi.answered";
const LIMIT = 300;

function read(): string[] {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

export function rememberAnswered(id: string): void {
  const ids = read().filter((known) => known !== id);
  ids.push(id);
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(ids.slice(-LIMIT)));
  } catch {
    // Storage full or disabled: a reload may show the dialog as "earlier request" again.
  }
}

/** A membership test over the ids stored now. */
export function answeredHere(): (id: string) => boolean {
  const ids = new Set(read());
  return (id) => ids.has(id);
}
