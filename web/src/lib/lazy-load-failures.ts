// Parts of the page are fetched when first needed (dialogs, panels, the
// editor: each `{#await import(…)}`). When such a fetch fails, Svelte shows
// nothing and the action that asked for it seems to do nothing. Vite's loader
// dispatches `vite:preloadError` on window for every failed dynamic import:
// this turns it into one alert that says why and what to do. The page is not
// reloaded for the person: a typed prompt or an unsaved file would be lost.

export const LAZY_LOAD_FAILED = "Part of Pier did not load";

/** Calls `report(title, message)` for each failed dynamic import; returns the function that stops listening. */
export function listenForLazyLoadFailures(target: Window, report: (title: string, message: string) => void): () => void {
  const onFailure = (event: Event) => {
    const error = (event as Event & { payload?: unknown }).payload;
    const file = /\/assets\/([^/?#\s]+\.js)/.exec(error instanceof Error ? error.message : String(error))?.[1];
    report(
      LAZY_LOAD_FAILED,
      `${file ? `${file} could not be fetched` : "A piece of the page could not be fetched"} from pier: the connection dropped, or pier was updated or restarted since this page opened. Reload the page to get it.`,
    );
  };
  target.addEventListener("vite:preloadError", onFailure);
  return () => target.removeEventListener("vite:preloadError", onFailure);
}
