// Syntax highlighting, loaded on first use: highlight.js core plus only the
// grammar a file needs, each its own chunk (grammars.ts), so the initial
// bundle carries none of it. highlight.js escapes the source text and emits
// only its own <span class="hljs-…"> tags, so the HTML may go into {@html}.
//
// Long code is highlighted in a worker: highlight.js takes about 1 ms per
// kilobyte, and a model's answer or a `read` can hold a whole file (a
// 125 KB fence: 146 ms of highlighting, and the garbage it leaves, in one
// task when the answer ended). If the worker cannot start or fails, the
// page highlights the code itself.

import { highlightWith } from "./grammars.ts";
import type { HighlightLanguage } from "./languages.ts";
import type { HighlightAnswer, HighlightRequest } from "./highlight.worker.ts";

/** Beyond this, highlighting costs more than it helps: show plain text. */
export const MAX_HIGHLIGHT_CHARS = 200_000;
/** From this length on, code is highlighted in the worker (about 20 ms of work). */
export const WORKER_MIN_CHARS = 20_000;

/**
 * HTML for `code` highlighted as `language`, or null when it should stay
 * plain text (no language, too large, or the grammar could not be loaded).
 */
export async function highlightCode(code: string, language: HighlightLanguage | null): Promise<string | null> {
  if (!language || code.length === 0 || code.length > MAX_HIGHLIGHT_CHARS) return null;
  if (code.length >= WORKER_MIN_CHARS) {
    const html = await inWorker({ code, language });
    if (html !== undefined) return html;
  }
  return highlightWith(code, language);
}

type Pending = (html: string | null | undefined) => void;

let worker: Worker | null = null;
/** The worker could not be used: everything is highlighted here. */
let workerFailed = false;
let nextId = 1;
const pending = new Map<number, Pending>();

/** The worker's answer; undefined when there is no worker to ask (the caller highlights it itself). */
function inWorker(request: Omit<HighlightRequest, "id">): Promise<string | null | undefined> {
  const target = workerOrNull();
  if (target === null) return Promise.resolve(undefined);
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    target.postMessage({ id, ...request } satisfies HighlightRequest);
  });
}

function workerOrNull(): Worker | null {
  if (worker !== null || workerFailed) return worker;
  if (typeof Worker === "undefined") {
    workerFailed = true;
    return null;
  }
  try {
    worker = new Worker(new URL("./highlight.worker.ts", import.meta.url), { type: "module", name: "highlight" });
  } catch {
    workerFailed = true;
    return null;
  }
  worker.onmessage = (event: MessageEvent<HighlightAnswer>) => {
    const resolve = pending.get(event.data.id);
    pending.delete(event.data.id);
    resolve?.(event.data.html);
  };
  // It could not load (a blocked or missing chunk) or crashed: what it was
  // asked is highlighted here, and so is everything after.
  worker.onerror = () => {
    workerFailed = true;
    worker?.terminate();
    worker = null;
    for (const resolve of pending.values()) resolve(undefined);
    pending.clear();
  };
  return worker;
}
