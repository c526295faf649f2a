// Keeps the keyboard inside a modal box (aria-modal, or a sheet over a
// backdrop): Tab and Shift+Tab go round its own controls instead of
// wandering to the page behind it, which looks covered and is not. The
// trapping is focus-trap's (it knows what is tabbable, radio groups, hidden
// elements, traps opened over traps); everything else stays with the
// component: what gets the focus first, what gets it back, Esc, and what a
// click outside does.
//
// focus-trap (with tabbable) is loaded when the first box opens, or once the
// page is idle, not with the first screen, which has no modal box
// (bench/first-load.bench.ts). Until it arrives, a few ms, Tab is not held.

import type * as FocusTrap from "focus-trap";

let library: typeof FocusTrap | null = null;
let loading: Promise<typeof FocusTrap> | null = null;

function loadFocusTrap(): Promise<typeof FocusTrap> {
  loading ??= import("focus-trap").then((module) => (library = module));
  return loading;
}

if (typeof window !== "undefined" && typeof requestIdleCallback === "function") {
  requestIdleCallback(() => void loadFocusTrap().catch(() => {}), { timeout: 3000 });
}

/** Svelte action: `use:trapFocus` (or `use:trapFocus={false}` to leave the keys alone, e.g. around a code editor that uses Tab). */
export function trapFocus(node: HTMLElement, enabled = true): { update(enabled: boolean): void; destroy(): void } {
  let trap: FocusTrap.FocusTrap | null = null;
  let wanted = enabled;
  let destroyed = false;
  const apply = () => {
    if (trap === null) return;
    if (wanted && !trap.active) trap.activate();
    else if (!wanted && trap.active) trap.deactivate();
  };
  const create = (lib: typeof FocusTrap) => {
    if (destroyed) return;
    trap = lib.createFocusTrap(node, {
      initialFocus: false,
      fallbackFocus: node,
      returnFocusOnDeactivate: false,
      escapeDeactivates: false,
      allowOutsideClick: true,
    });
    apply();
  };
  if (library) create(library);
  else loadFocusTrap().then(create, (error: unknown) => console.error("focus-trap did not load", error));
  return {
    update: (on: boolean) => {
      wanted = on;
      apply();
    },
    destroy: () => {
      wanted = false;
      apply();
      destroyed = true;
    },
  };
}
