// Keeps the keyboard inside a modal box (aria-modal, or a sheet over a
// backdrop): Tab and Shift+Tab go round its own controls instead of
// wandering to the page behind it, which looks covered and is not. The
// trapping is focus-trap's (it knows what is tabbable, radio groups, hidden
// elements, traps opened over traps); everything else stays with the
// component: what gets the focus first, what gets it back, Esc, and what a
// click outside does.

import { createFocusTrap } from "focus-trap";

/** Svelte action: `use:trapFocus` (or `use:trapFocus={false}` to leave the keys alone, e.g. around a code editor that uses Tab). */
export function trapFocus(node: HTMLElement, enabled = true): { update(enabled: boolean): void; destroy(): void } {
  const trap = createFocusTrap(node, {
    initialFocus: false,
    fallbackFocus: node,
    returnFocusOnDeactivate: false,
    escapeDeactivates: false,
    allowOutsideClick: true,
  });
  const set = (on: boolean) => {
    if (on && !trap.active) trap.activate();
    else if (!on && trap.active) trap.deactivate();
  };
  set(enabled);
  return { update: set, destroy: () => set(false) };
}
