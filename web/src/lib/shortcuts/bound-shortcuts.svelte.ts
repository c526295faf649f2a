// Which shortcuts of the registry have a live handler right now. Handlers
// bind through here (listenForShortcuts, or bindShortcuts beside a handler
// of their own), and the shortcuts list shows only what is bound: a key the
// page stopped handling drops out of the list by itself.
import { untrack } from "svelte";
import { SvelteMap } from "svelte/reactivity";
import { matchesShortcut, type ShortcutId } from "./shortcut-registry.ts";

/** How many live handlers each shortcut has (two components may bind one key). */
const handlers = new SvelteMap<ShortcutId, number>();

export function isShortcutBound(id: ShortcutId): boolean {
  return (handlers.get(id) ?? 0) > 0;
}

/**
 * Marks `ids` as bound until the returned function is called (call it when
 * the handler goes). Called from $effects: the counts are read untracked, or
 * the effect would depend on the map it writes and re-run itself without end
 * (Svelte's effect_update_depth_exceeded, seen on viewers' pages).
 */
export function bindShortcuts(ids: readonly ShortcutId[]): () => void {
  untrack(() => {
    for (const id of ids) handlers.set(id, (handlers.get(id) ?? 0) + 1);
  });
  let bound = true;
  return () => {
    if (!bound) return;
    bound = false;
    untrack(() => {
      for (const id of ids) {
        const left = (handlers.get(id) ?? 0) - 1;
        if (left > 0) handlers.set(id, left);
        else handlers.delete(id);
      }
    });
  };
}

/**
 * What a handler does with its key. Returning false means "not mine this
 * time" (e.g. Ctrl+B in a text field): the key goes on as if unbound.
 */
export type ShortcutHandler = (event: KeyboardEvent) => boolean | void;

/**
 * Listens on the window for the registry's keys: each handler runs when its
 * shortcut matches, and the key's default (the browser's own meaning) is
 * prevented unless the handler returns false. `capture` catches keys before
 * Monaco or a text field sees them. Returns the function that stops it (an
 * $effect's cleanup).
 */
export function listenForShortcuts(entries: Partial<Record<ShortcutId, ShortcutHandler>>, options: { capture?: boolean; stopPropagation?: boolean } = {}): () => void {
  const ids = Object.keys(entries) as ShortcutId[];
  const onKeydown = (event: KeyboardEvent) => {
    for (const id of ids) {
      if (!matchesShortcut(id, event)) continue;
      if (entries[id]!(event) === false) continue;
      event.preventDefault();
      if (options.stopPropagation) event.stopPropagation();
      return;
    }
  };
  const capture = options.capture ?? false;
  window.addEventListener("keydown", onKeydown, { capture });
  const unbind = bindShortcuts(ids);
  return () => {
    window.removeEventListener("keydown", onKeydown, { capture });
    unbind();
  };
}
