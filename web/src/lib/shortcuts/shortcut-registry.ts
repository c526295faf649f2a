// Every keyboard shortcut the page binds, in one table: the handlers ask it
// whether a key is theirs (matchesShortcut), and the shortcuts list
// (components/shortcuts) is drawn from it. A key cannot be listed with one
// combination and bound to another, because there is only one definition.
import { isCycleModelShortcut, isCycleThinkingShortcut } from "../controls/model-list.ts";

/** The parts of a keydown a shortcut looks at (a KeyboardEvent, or a plain object in tests). */
export type KeyLike = Pick<KeyboardEvent, "key" | "code" | "altKey" | "ctrlKey" | "metaKey" | "shiftKey" | "repeat" | "isComposing">;

export type ShortcutScope = "Anywhere" | "Prompt box" | "Guided walk";

export interface Shortcut {
  id: ShortcutId;
  /** Alternatives, each a list of keys pressed together ("Mod" is Ctrl, or ⌘ on a Mac). */
  keys: readonly (readonly string[])[];
  /** What it does, as the list says it. */
  does: string;
  scope: ShortcutScope;
  matches(event: KeyLike): boolean;
}

/** Ctrl (or ⌘) with `letter`, no Alt or Shift: the browser's own combination for it is overridden. */
function modLetter(event: KeyLike, letter: string): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === letter;
}

/** Alt with the key at `code` (the physical key), nothing else held. */
function altCode(event: KeyLike, code: string): boolean {
  return event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.code === code && !event.repeat && !event.isComposing;
}

const noModifiers = (event: KeyLike) => !event.altKey && !event.ctrlKey && !event.metaKey;

const DEFINITIONS = [
  {
    id: "shortcuts",
    keys: [["?"], ["F1"]],
    does: "Show this list of keyboard shortcuts",
    scope: "Anywhere",
    // "?" is Shift+/ on most layouts: the character is what counts. F1 also
    // from text fields (it types nothing); "?" only outside them (checked by the handler).
    matches: (event: KeyLike) => !event.isComposing && ((event.key === "?" && noModifiers(event)) || (event.key === "F1" && noModifiers(event) && !event.shiftKey)),
  },
  {
    id: "stop",
    keys: [["Esc"]],
    does: "Stop the agent while it works (when no dialog or menu is open)",
    scope: "Anywhere",
    matches: (event: KeyLike) => event.key === "Escape" && !event.isComposing,
  },
  {
    id: "find",
    keys: [["Mod", "F"]],
    does: "Find in the conversation",
    scope: "Anywhere",
    matches: (event: KeyLike) => modLetter(event, "f"),
  },
  {
    id: "cycle-model",
    keys: [["Alt", "M"]],
    does: "Switch to the next model",
    scope: "Anywhere",
    matches: (event: KeyLike) => isCycleModelShortcut(event),
  },
  {
    id: "cycle-thinking",
    keys: [["Alt", "T"]],
    does: "Switch to the model's next thinking level",
    scope: "Anywhere",
    matches: (event: KeyLike) => isCycleThinkingShortcut(event),
  },
  {
    id: "toggle-explorer",
    keys: [["Mod", "B"]],
    does: "Show or hide the file explorer",
    scope: "Anywhere",
    matches: (event: KeyLike) => modLetter(event, "b"),
  },
  {
    id: "go-to-file",
    keys: [["Mod", "P"]],
    does: "Go to a file by name",
    scope: "Anywhere",
    matches: (event: KeyLike) => modLetter(event, "p"),
  },
  {
    id: "search-files",
    keys: [["Mod", "Shift", "F"]],
    does: "Search (and replace) in the workspace's files",
    scope: "Anywhere",
    matches: (event: KeyLike) => (event.ctrlKey || event.metaKey) && event.shiftKey && !event.altKey && event.key.toLowerCase() === "f",
  },
  {
    id: "save",
    keys: [["Mod", "S"]],
    does: "Save the file open in the editor",
    scope: "Anywhere",
    matches: (event: KeyLike) => modLetter(event, "s"),
  },
  {
    id: "board",
    keys: [["Alt", "A"]],
    does: "Open or close the board of agents",
    scope: "Anywhere",
    // By physical key, like Alt+M: on a Mac Alt+A types "å".
    matches: (event: KeyLike) => altCode(event, "KeyA"),
  },
  {
    id: "next-needs-you",
    keys: [["Alt", "N"]],
    does: "Go to the next agent that needs you",
    scope: "Anywhere",
    matches: (event: KeyLike) => altCode(event, "KeyN"),
  },
  {
    id: "walk-next",
    keys: [["N"]],
    does: "Next note of the walk (outside text fields)",
    scope: "Guided walk",
    matches: (event: KeyLike) => event.key.toLowerCase() === "n" && noModifiers(event) && !event.shiftKey && !event.isComposing,
  },
  {
    id: "walk-previous",
    keys: [["P"]],
    does: "Previous note of the walk (outside text fields)",
    scope: "Guided walk",
    matches: (event: KeyLike) => event.key.toLowerCase() === "p" && noModifiers(event) && !event.shiftKey && !event.isComposing,
  },
  {
    id: "send",
    keys: [["Enter"]],
    does: "Send the prompt (Shift+Enter starts a new line)",
    scope: "Prompt box",
    matches: (event: KeyLike) => event.key === "Enter" && !event.shiftKey && !event.isComposing,
  },
  {
    id: "send-other-way",
    keys: [["Alt", "Enter"]],
    does: "While pi works: send as the other kind (steer or follow-up) than Enter does",
    scope: "Prompt box",
    matches: (event: KeyLike) => event.key === "Enter" && event.altKey && !event.shiftKey && !event.isComposing,
  },
] as const satisfies readonly (Omit<Shortcut, "id"> & { id: string })[];

export type ShortcutId = (typeof DEFINITIONS)[number]["id"];

export const SHORTCUTS: readonly Shortcut[] = DEFINITIONS;

const BY_ID = new Map<string, Shortcut>(SHORTCUTS.map((s) => [s.id, s]));

export function shortcut(id: ShortcutId): Shortcut {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`No keyboard shortcut "${id}" in the registry`);
  return found;
}

export function matchesShortcut(id: ShortcutId, event: KeyLike): boolean {
  return shortcut(id).matches(event);
}

/** "Mod" as this machine's keyboard says it. */
export function keyCaps(keys: readonly string[], mac: boolean): string[] {
  return keys.map((key) => (key === "Mod" ? (mac ? "⌘" : "Ctrl") : key === "Alt" && mac ? "⌥" : key));
}

/** One alternative as text, e.g. "Ctrl+P" (for titles and accessible names). */
export function keysLabel(keys: readonly string[], mac: boolean): string {
  return keyCaps(keys, mac).join("+");
}

/** Whether a keydown comes from somewhere typing happens (where "?" is a character, not a shortcut). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== "function") return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  return element.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], .monaco-editor, .xterm') !== null;
}
