// Editor tab bookkeeping, kept pure so it can be tested without a DOM: which
// tabs are open, in what order, which is active, and which becomes active
// when one closes (the right neighbour, else the left, like VS Code).

export type TabKind = "file" | "diff";

export interface Tab {
  /** "file:<path>" or "diff:<key>". */
  id: string;
  kind: TabKind;
  /** Workspace path the tab is about. */
  path: string;
  title: string;
}

export interface TabsState {
  tabs: Tab[];
  activeId: string | null;
}

export const fileTabId = (path: string) => `file:${path}`;
export const diffTabId = (key: string) => `diff:${key}`;

export function createTabsState(): TabsState {
  return { tabs: [], activeId: null };
}

/** Opens (or re-activates) a tab; a new tab goes right after the active one. */
export function openTab(state: TabsState, tab: Tab): void {
  const existing = state.tabs.findIndex((t) => t.id === tab.id);
  if (existing !== -1) {
    state.tabs[existing] = { ...state.tabs[existing]!, title: tab.title };
  } else {
    const activeIndex = state.activeId === null ? -1 : state.tabs.findIndex((t) => t.id === state.activeId);
    const at = activeIndex === -1 ? state.tabs.length : activeIndex + 1;
    state.tabs.splice(at, 0, tab);
  }
  state.activeId = tab.id;
}

/** Closes a tab; returns it (or null). Activates a neighbour if it was active. */
export function closeTab(state: TabsState, id: string): Tab | null {
  const index = state.tabs.findIndex((t) => t.id === id);
  if (index === -1) return null;
  const [removed] = state.tabs.splice(index, 1);
  if (state.activeId === id) {
    const next = state.tabs[index] ?? state.tabs[index - 1] ?? null;
    state.activeId = next?.id ?? null;
  }
  return removed ?? null;
}

export function activateTab(state: TabsState, id: string): boolean {
  if (!state.tabs.some((t) => t.id === id)) return false;
  state.activeId = id;
  return true;
}

/** Moves the active tab by `delta` places in the activation order (Ctrl+Tab-like). */
export function cycleTab(state: TabsState, delta: number): void {
  if (state.tabs.length === 0) return;
  const index = Math.max(
    0,
    state.tabs.findIndex((t) => t.id === state.activeId),
  );
  const next = (index + delta + state.tabs.length * 16) % state.tabs.length;
  state.activeId = state.tabs[next]!.id;
}

/** After a rename on disk: tabs under `from` now point under `to`. Returns [oldId, newId] pairs. */
export function renameTabs(state: TabsState, from: string, to: string): [string, string][] {
  const moved: [string, string][] = [];
  for (let i = 0; i < state.tabs.length; i++) {
    const tab = state.tabs[i]!;
    if (tab.kind !== "file") continue;
    if (tab.path !== from && !tab.path.startsWith(`${from}/`)) continue;
    const path = to + tab.path.slice(from.length);
    const id = fileTabId(path);
    state.tabs[i] = { ...tab, id, path, title: path.slice(path.lastIndexOf("/") + 1) };
    if (state.activeId === tab.id) state.activeId = id;
    moved.push([tab.id, id]);
  }
  return moved;
}

/**
 * Short labels for tabs: the file name, plus as many parent folders as it
 * takes to tell same-named files apart ("index.ts — src", "index.ts — test").
 */
export function tabLabels(tabs: readonly Tab[]): Map<string, { name: string; hint: string }> {
  const labels = new Map<string, { name: string; hint: string }>();
  const byName = new Map<string, Tab[]>();
  for (const tab of tabs) {
    const list = byName.get(tab.title) ?? [];
    list.push(tab);
    byName.set(tab.title, list);
  }
  for (const [name, group] of byName) {
    const paths = new Set(group.map((t) => t.path));
    for (const tab of group) {
      if (paths.size === 1) {
        labels.set(tab.id, { name, hint: "" });
        continue;
      }
      const folders = tab.path.split("/").slice(0, -1);
      let depth = 1;
      const hintFor = (path: string, d: number) => path.split("/").slice(0, -1).slice(-d).join("/");
      while (depth < folders.length && group.some((other) => other.path !== tab.path && hintFor(other.path, depth) === hintFor(tab.path, depth))) depth++;
      labels.set(tab.id, { name, hint: hintFor(tab.path, depth) || "/" });
    }
  }
  return labels;
}
