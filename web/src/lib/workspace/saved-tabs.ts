// Which editor tabs were open, kept per workspace and per browser so that a
// reload (or coming back tomorrow) puts them back. localStorage is keyed by
// the workspace path the relay names in its hello (`cwd`): two Pier
// workspaces in one browser keep their own tabs. Only file tabs are kept: a
// diff tab shows a moment (a tool's edit, a change against HEAD) that a
// reload has no way to rebuild truthfully.

const KEY_PREFIX = "pier.openTabs:";
/** A hand-edited or ancient entry never opens hundreds of files at once. */
export const MAX_SAVED_TABS = 30;

export interface SavedTabs {
  /** Workspace paths of the open file tabs, in tab order. */
  paths: string[];
  /** The active tab's path, or null when a diff (or nothing) was active. */
  active: string | null;
}

export function savedTabsKey(cwd: string): string {
  return `${KEY_PREFIX}${cwd}`;
}

/** What was saved for this workspace; an empty list when nothing (or something unreadable) was. */
export function loadSavedTabs(cwd: string): SavedTabs {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(savedTabsKey(cwd)) ?? "null");
    if (typeof parsed !== "object" || parsed === null) return { paths: [], active: null };
    const record = parsed as { paths?: unknown; active?: unknown };
    const paths = Array.isArray(record.paths) ? [...new Set(record.paths.filter((p): p is string => typeof p === "string" && p !== ""))].slice(0, MAX_SAVED_TABS) : [];
    const active = typeof record.active === "string" && paths.includes(record.active) ? record.active : null;
    return { paths, active };
  } catch {
    return { paths: [], active: null };
  }
}

export function storeSavedTabs(cwd: string, tabs: SavedTabs): void {
  try {
    if (tabs.paths.length === 0) globalThis.localStorage?.removeItem(savedTabsKey(cwd));
    else globalThis.localStorage?.setItem(savedTabsKey(cwd), JSON.stringify({ paths: tabs.paths.slice(0, MAX_SAVED_TABS), active: tabs.active }));
  } catch {
    // Private mode or storage full: tabs just don't come back after a reload.
  }
}
