// A "Copy" button on each code block of rendered Markdown. The buttons are
// made here with createElement, after sanitizing (the sanitizer allows no
// buttons in model output), and live inside the <pre>, so they go when the
// rendered HTML is replaced. One delegated click listener per container.
import { copyText } from "../clipboard.ts";

const FEEDBACK_MS = 1500;

/** Adds a copy button to every code block in `root` that has none yet. */
export function addCodeCopyButtons(root: HTMLElement): void {
  for (const pre of root.querySelectorAll<HTMLPreElement>("pre")) {
    if (pre.querySelector(":scope > .md-copy")) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "md-copy";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy code");
    button.dataset.findSkip = "";
    pre.append(button);
  }
}

/** The click handler for a container holding rendered Markdown. */
export async function onCodeCopyClick(event: MouseEvent): Promise<void> {
  const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>("button.md-copy");
  if (!button) return;
  const code = button.parentElement?.querySelector(":scope > code");
  // marked ends a fence's code with a newline that is not part of the code.
  const copied = await copyText((code?.textContent ?? "").replace(/\n$/, ""));
  button.textContent = copied ? "Copied" : "Copy failed";
  setTimeout(() => {
    if (button.isConnected) button.textContent = "Copy";
  }, FEEDBACK_MS);
}
