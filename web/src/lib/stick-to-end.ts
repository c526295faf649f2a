// Keeps a scrolled list at its end while it grows (a live log, a byte tail).
//
// The scroll happens in a ResizeObserver callback, that is right after the
// browser laid the page out: reading scrollHeight there costs nothing. Done
// from an effect right after the DOM changed, the same read forces a layout
// of the whole page in the middle of the frame (while a long answer
// streams, twice the layout work per frame).

/**
 * While `following()` is true, scroll `scroller` to its end each time
 * `content` (what it scrolls) changes size. Returns the cleanup.
 */
export function stickToEnd(scroller: HTMLElement, content: Element, following: () => boolean): () => void {
  const observer = new ResizeObserver(() => {
    if (following()) scroller.scrollTop = scroller.scrollHeight;
  });
  observer.observe(content);
  return () => observer.disconnect();
}
