// What the inspector remembers across reloads: whether it is open (closed
// until the person opens it once) and its last tab. In the main bundle: the
// page decides at start whether to load the inspector at all.

export type InspectorTab = "records" | "bytes" | "timeline" | "flow" | "compose";

export const INSPECTOR_TABS: readonly InspectorTab[] = ["records", "bytes", "timeline", "flow", "compose"];

const OPEN_KEY = "pier.inspector.open";
const TAB_KEY = "pier.inspector.tab";

/** localStorage, or null where there is none or it refuses (private windows, tests in Node). */
function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

function read(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    // Full or refused: the preference lasts for this page only.
  }
}

export function loadInspectorOpen(): boolean {
  return read(OPEN_KEY) === "1";
}

export function saveInspectorOpen(open: boolean): void {
  write(OPEN_KEY, open ? "1" : "0");
}

export function loadInspectorTab(): InspectorTab {
  const tab = read(TAB_KEY);
  return INSPECTOR_TABS.find((t) => t === tab) ?? "records";
}

export function saveInspectorTab(tab: InspectorTab): void {
  write(TAB_KEY, tab);
}
