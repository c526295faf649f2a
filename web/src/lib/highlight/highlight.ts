// Syntax highlighting, loaded on first use: highlight.js core plus only the
// grammar a file needs, each its own chunk, so the initial bundle carries
// none of it. highlight.js escapes the source text and emits only its own
// <span class="hljs-…"> tags, so the HTML may go into {@html}.

import type { HLJSApi, LanguageFn } from "highlight.js";
import type { HighlightLanguage } from "./languages.ts";

/** Beyond this, highlighting costs more than it helps: show plain text. */
export const MAX_HIGHLIGHT_CHARS = 200_000;

type Loader = () => Promise<{ default: LanguageFn }>;

const GRAMMARS: Record<HighlightLanguage, Loader> = {
  bash: () => import("highlight.js/lib/languages/bash"),
  c: () => import("highlight.js/lib/languages/c"),
  cpp: () => import("highlight.js/lib/languages/cpp"),
  css: () => import("highlight.js/lib/languages/css"),
  diff: () => import("highlight.js/lib/languages/diff"),
  go: () => import("highlight.js/lib/languages/go"),
  ini: () => import("highlight.js/lib/languages/ini"),
  java: () => import("highlight.js/lib/languages/java"),
  javascript: () => import("highlight.js/lib/languages/javascript"),
  json: () => import("highlight.js/lib/languages/json"),
  markdown: () => import("highlight.js/lib/languages/markdown"),
  python: () => import("highlight.js/lib/languages/python"),
  ruby: () => import("highlight.js/lib/languages/ruby"),
  rust: () => import("highlight.js/lib/languages/rust"),
  sql: () => import("highlight.js/lib/languages/sql"),
  typescript: () => import("highlight.js/lib/languages/typescript"),
  xml: () => import("highlight.js/lib/languages/xml"),
  yaml: () => import("highlight.js/lib/languages/yaml"),
};

let core: Promise<HLJSApi> | null = null;
const registered = new Map<HighlightLanguage, Promise<void>>();

function loadCore(): Promise<HLJSApi> {
  if (!core) {
    core = import("highlight.js/lib/core").then((module) => module.default);
    // A failed chunk load may succeed later (e.g. after a relay restart): retry next time.
    core.catch(() => (core = null));
  }
  return core;
}

function ensureLanguage(hljs: HLJSApi, language: HighlightLanguage): Promise<void> {
  let pending = registered.get(language);
  if (!pending) {
    pending = GRAMMARS[language]().then((module) => hljs.registerLanguage(language, module.default));
    // A failed chunk load may succeed later (e.g. after a reconnect): forget it.
    pending.catch(() => registered.delete(language));
    registered.set(language, pending);
  }
  return pending;
}

/**
 * HTML for `code` highlighted as `language`, or null when it should stay
 * plain text (no language, too large, or the grammar could not be loaded).
 */
export async function highlightCode(code: string, language: HighlightLanguage | null): Promise<string | null> {
  if (!language || code.length === 0 || code.length > MAX_HIGHLIGHT_CHARS) return null;
  try {
    const hljs = await loadCore();
    await ensureLanguage(hljs, language);
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return null;
  }
}
