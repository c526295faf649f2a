// Inline `code` in rendered Markdown that names one of pi's records becomes a
// button that opens the protocol inspector on it. Marked here, after
// sanitizing (the sanitizer allows no such attributes in model output), like
// code-copy-buttons.ts; one delegated listener per container.
import { requestLesson } from "../transcript/transcript-links.svelte.ts";
import { wireTerm } from "../transcript/wire-terms.ts";

/** Marks every inline code element in `root` that names a record (and is not yet marked). */
export function markWireTerms(root: HTMLElement): void {
  for (const code of root.querySelectorAll<HTMLElement>("code:not(pre code):not(.wire-term)")) {
    const term = wireTerm(code.textContent ?? "");
    if (term === undefined) continue;
    code.classList.add("wire-term");
    code.setAttribute("role", "button");
    code.tabIndex = 0;
    code.title = `${term.term}: show it in the protocol inspector`;
  }
}

function termOf(event: Event): string | null {
  const code = (event.target as Element | null)?.closest?.<HTMLElement>("code.wire-term");
  return code ? (code.textContent ?? "").trim() : null;
}

export function onWireTermClick(event: MouseEvent): void {
  const term = termOf(event);
  if (term !== null) requestLesson(term);
}

export function onWireTermKeydown(event: KeyboardEvent): void {
  if (event.key !== "Enter" && event.key !== " ") return;
  const term = termOf(event);
  if (term === null) return;
  event.preventDefault();
  requestLesson(term);
}
