// Keeps a scrolled list at its end while it grows (a live log, a byte tail).
//
// The scroll happens in a ResizeObserver callback, that is right after the
// browser laid the page out: reading scrollHeight there costs nothing. Done
// from an effect right after the DOM changed, the same read forces a layout
// of the whole page in the middle of the frame (while a long answer
// streams, twice the layout work per frame).

import { INTENT_WINDOW_MS } from "./transcript/follow.ts";

/**
 * While `following()` is true, scroll `scroller` to its end each time
 * `content` (what it scrolls) or the scroller itself (a header above it
 * changing height, a pane opening under it) changes size. Returns the
 * cleanup.
 */
export function stickToEnd(scroller: HTMLElement, content: Element, following: () => boolean): () => void {
  const observer = new ResizeObserver(() => {
    if (following()) scroller.scrollTop = scroller.scrollHeight;
  });
  observer.observe(content);
  observer.observe(scroller);
  return () => observer.disconnect();
}

/** Besides the wheel: the scrollbar or a drag (pointerdown), touch, keys. */
const OTHER_INPUTS = ["pointerdown", "touchmove", "keydown"] as const;

/**
 * Whether a list follows its live end, changed only by the person (the
 * transcript's rule, transcript/follow.ts): scrolling up leaves the end at
 * once, even by a few pixels, and a wheel turned up leaves it before the
 * list scrolls at all (otherwise rows arriving under the wheel would pull
 * the list back down); scrolling back near the end rejoins it. Scrolls made
 * by layout (the content growing, stickToEnd's own) change nothing.
 */
export class EndFollowing {
  readonly #set: (following: boolean) => void;
  readonly #nearPx: number;
  #inputAt = -Infinity;
  #lastTop = 0;

  constructor(set: (following: boolean) => void, nearPx: number) {
    this.#set = set;
    this.#nearPx = nearPx;
  }

  /** Notice the person's ways to scroll on `element` (passive listeners: never in scrolling's way). Returns the cleanup. */
  listen(element: HTMLElement): () => void {
    const passive = { passive: true } as const;
    element.addEventListener("wheel", this.wheel, passive);
    for (const type of OTHER_INPUTS) element.addEventListener(type, this.input, passive);
    return () => {
      element.removeEventListener("wheel", this.wheel);
      for (const type of OTHER_INPUTS) element.removeEventListener(type, this.input);
    };
  }

  /** A wheel turned (listen adds it). */
  readonly wheel = (event: WheelEvent): void => {
    this.#inputAt = performance.now();
    if (event.deltaY < 0) this.#set(false);
  };

  /** The person's other ways to scroll: touch, keys, the scrollbar (pointerdown; listen adds them). */
  readonly input = (): void => {
    this.#inputAt = performance.now();
  };

  /** After each scroll: `top` is scrollTop, `gap` what is left below the view (asked only after the person's input). */
  scrolled(top: number, gap: () => number): void {
    const previous = this.#lastTop;
    this.#lastTop = top;
    if (performance.now() - this.#inputAt > INTENT_WINDOW_MS) return;
    if (top < previous - 1) this.#set(false);
    else if (gap() < this.#nearPx) this.#set(true);
  }
}
