// The colour scheme the page shows, as data-scheme="light"|"dark" on <html>
// (app.css and the code colours key their dark values on it). Settings sets
// it; code that paints with colours of its own (Monaco, the inspector's
// timeline canvas) asks isDarkScheme() and hears of changes here, instead of
// asking the OS (prefers-color-scheme), whose choice a setting may override.

const listeners = new Set<() => void>();

export function isDarkScheme(): boolean {
  return document.documentElement.dataset["scheme"] === "dark";
}

/** Called after every change of scheme. Returns the unsubscribe. */
export function onSchemeChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setScheme(scheme: "light" | "dark"): void {
  if (document.documentElement.dataset["scheme"] === scheme) return;
  document.documentElement.dataset["scheme"] = scheme;
  for (const listener of listeners) listener();
}
