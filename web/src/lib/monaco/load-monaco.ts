// Lazy entry point to Monaco. Nothing here imports monaco-editor statically:
// the first call to `loadMonaco()` fetches the Monaco chunk (≈ 1 MB gz), sets
// up its web workers and Pier's light/dark themes, and resolves with the API.
// The app is usable before that, and anything that needs an editor (the
// workbench, the extension-UI editor dialog) shares the one loaded copy.

import type * as MonacoNs from "monaco-editor";
import { languageIdFor } from "./language.ts";

export type Monaco = typeof MonacoNs;

let loading: Promise<Monaco> | null = null;
let loaded: Monaco | null = null;

export function loadMonaco(): Promise<Monaco> {
  loading ??= import("./monaco-setup.ts")
    .then((setup) => setup.setupMonaco())
    .then((monaco) => (loaded = monaco))
    .catch((error: unknown) => {
      // Let a later call try again (e.g. after a flaky network).
      loading = null;
      throw error;
    });
  return loading;
}

/** Monaco if it has finished loading, else null (never starts a load). */
export function loadedMonaco(): Monaco | null {
  return loaded;
}

/** Starts fetching Monaco in the background (e.g. when the explorer opens). */
export function prefetchMonaco(): void {
  void loadMonaco().catch(() => {});
}

/** Monaco language id for a workspace path, from the languages Monaco registered. */
export function languageForPath(monaco: Monaco, path: string): string {
  return languageIdFor(path, monaco.languages.getLanguages());
}

export const PIER_THEME_LIGHT = "pier-light";
export const PIER_THEME_DARK = "pier-dark";
