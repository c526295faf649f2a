// Highlights the fenced code blocks of rendered Markdown in place, lazily:
// highlight.js and the grammar load only when a fence names a language Pier
// knows. highlight.js escapes the code it wraps in spans, so the result is as
// safe as the sanitized text it replaces.
import { highlightCode } from "../highlight/highlight.ts";
import { languageForFence } from "../highlight/languages.ts";
import "../highlight/highlight.css";

/** Highlighting work done in one go at most; then the page gets a turn (a long answer can hold a hundred fences). */
const SLICE_MS = 8;

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function highlightFences(root: HTMLElement): Promise<void> {
  const blocks = root.querySelectorAll<HTMLElement>("pre > code[class^='language-']");
  let sliceStart = performance.now();
  for (const code of blocks) {
    if (code.dataset.highlighted === "yes") continue;
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToPage();
      sliceStart = performance.now();
    }
    const language = languageForFence(code.className.replace(/^language-/, ""));
    const source = code.textContent ?? "";
    const html = await highlightCode(source, language);
    // The block may have been replaced or changed while the grammar loaded.
    if (html === null || !code.isConnected || code.textContent !== source) continue;
    code.innerHTML = html;
    code.classList.add("hljs");
    code.dataset.highlighted = "yes";
  }
}
