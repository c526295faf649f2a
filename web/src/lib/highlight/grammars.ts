// highlight.js core plus only the grammar a piece of code needs, each loaded
// on first use as its own chunk: shared by the page (highlight.ts) and the
// worker that highlights long code off the main thread (highlight.worker.ts).

import type { HLJSApi, LanguageFn } from "highlight.js";
import type { HighlightLanguage } from "./languages.ts";

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

/** `code` highlighted as `language` (HTML of highlight.js's own spans, the text escaped), or null when the grammar cannot be loaded. */
export async function highlightWith(code: string, language: HighlightLanguage): Promise<string | null> {
  try {
    const hljs = await loadCore();
    await ensureLanguage(hljs, language);
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return null;
  }
}
