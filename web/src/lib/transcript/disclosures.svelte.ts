// What the person opened or closed in the transcript (thoughts, tool cards,
// summaries, commands), kept outside the components: a long transcript is
// virtualized, so a row scrolled out of view is unmounted, and its state
// must be there again when it scrolls back. Only explicit choices are kept,
// keyed by something stable (a tool call id, a message's timestamp), and
// the oldest are forgotten beyond a bound.
import { SvelteMap } from "svelte/reactivity";

const MAX_REMEMBERED = 5000;

const choices = new SvelteMap<string, boolean>();

/** Whether the disclosure `key` is open: the person's last choice, else `fallback`. */
export function isDisclosureOpen(key: string, fallback: boolean): boolean {
  return choices.get(key) ?? fallback;
}

export function setDisclosureOpen(key: string, open: boolean): void {
  if (choices.get(key) === open) return;
  // Re-inserted at the end: the map's order is the order of last use.
  choices.delete(key);
  choices.set(key, open);
  if (choices.size > MAX_REMEMBERED) {
    const oldest = choices.keys().next().value;
    if (oldest !== undefined) choices.delete(oldest);
  }
}
