// The page's "under way" marks (a status dot, the Live dot, the caret after
// an answer's text, the dots while the model is waited for, a running
// command's dot) blink on one shared clock: an attribute on <html> that
// flips every BLINK_MS, which their CSS reads (`:root[data-blink="off"]`).
//
// Why not CSS animations: Chromium serviced a running CSS animation at every
// frame, composited or not. While an answer streamed at a reading pace (10
// deltas a second), the three blinking marks made the page's main thread
// recalculate style and produce a frame 60 times a second: without them it
// spent 20-30 ms on style over the 10 s instead of 95-195, and 15-35% less
// main-thread time in all. A flip is two style recalculations a second,
// and only of the elements that blink.
//
// The clock runs only while something holds it (a blinking element is on
// the page), and not at all for someone who asked for less motion: their
// marks stay lit.

export const BLINK_MS = 600;

let holders = 0;
let timer: ReturnType<typeof setInterval> | null = null;

/** Something that blinks is on the page: the clock runs until every holder let go. Returns the release (safe to call twice). */
export function holdBlink(): () => void {
  holders++;
  if (holders === 1) start();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders--;
    if (holders === 0) stop();
  };
}

/**
 * A Svelte action for an element that blinks while `on` (default true):
 * `<span class="dot" use:blinks={running}>`.
 */
export function blinks(_node: Element, on = true): { update(on: boolean): void; destroy(): void } {
  let release = on ? holdBlink() : null;
  return {
    update(next: boolean) {
      if (next && release === null) release = holdBlink();
      else if (!next && release !== null) {
        release();
        release = null;
      }
    },
    destroy() {
      release?.();
      release = null;
    },
  };
}

function start(): void {
  if (typeof document === "undefined" || (typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches)) return;
  const root = document.documentElement;
  timer = setInterval(() => {
    root.dataset["blink"] = root.dataset["blink"] === "off" ? "on" : "off";
  }, BLINK_MS);
}

function stop(): void {
  if (timer !== null) clearInterval(timer);
  timer = null;
  if (typeof document !== "undefined") delete document.documentElement.dataset["blink"];
}
