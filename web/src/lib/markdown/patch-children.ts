// Puts new HTML into an element by changing only what differs (morphdom),
// for the block an answer is writing: rendered again while it grows, it is
// mostly the same nodes plus a few. Replaced whole at every render, a long
// one (a list of a thousand items, a long table) made the browser build,
// style and lay out every one of its nodes again each time.
import morphdom from "morphdom";

/**
 * Makes `element`'s children those of `html` (already sanitized): HTML, or
 * nodes (which are moved out of the fragment). The caret mark (data-caret)
 * survives.
 */
export function patchChildren(element: HTMLElement, html: string | DocumentFragment): void {
  if (element.firstChild === null) {
    if (typeof html === "string") element.innerHTML = html;
    else element.append(html);
    return;
  }
  const next = element.cloneNode(false) as HTMLElement;
  if (typeof html === "string") next.innerHTML = html;
  else next.append(html);
  morphdom(element, next, {
    childrenOnly: true,
    onBeforeElUpdated(from, to) {
      // Markdown.svelte moves it itself, from the element that had it.
      if (from.hasAttribute("data-caret")) to.setAttribute("data-caret", "");
      return true;
    },
  });
}
