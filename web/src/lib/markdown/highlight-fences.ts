// Highlights the fenced code blocks of rendered Markdown in place, lazily:
// highlight.js and the grammar load only when a fence names a language Pier
// knows. highlight.js escapes the code it wraps in spans, so the result is as
// safe as the sanitized text it replaces.
import { highlightCode } from "../highlight/highlight.ts";
import { languageForFence } from "../highlight/languages.ts";
import "../highlight/highlight.css";

export async function highlightFences(root: HTMLElement): Promise<void> {
  const blocks = root.querySelectorAll<HTMLElement>("pre > code[class^='language-']");
  for (const code of blocks) {
    if (code.dataset.highlighted === "yes") continue;
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
