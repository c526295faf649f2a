// Pier as an installable app: the web manifest (index.html) and the service
// worker (public/sw.js) that serves the app's shell. Where service workers
// are unavailable (a plain http:// network address is not a secure context)
// Pier is an ordinary page, as before.

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error: unknown) => console.warn("Pier's service worker was not registered:", error));
}
