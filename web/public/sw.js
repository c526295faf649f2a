// Pier's service worker: what makes Pier installable as an app, and lets the
// app's window open its shell when pier is a moment away (restarting).
//
// It never stands between a page and pier's data: only GETs of this origin's
// page (network first, the last good copy when the network fails) and its
// hashed assets (immutable: cache first) are answered here. The API, the
// WebSockets, downloads and links with a `?token=` go to pier untouched, and
// nothing is ever fetched from another origin. No push service.
const SHELL_CACHE = "pier-shell-v1";
const ASSETS_CACHE = "pier-assets-v1";
/** Hashed asset files kept at most (older builds' files are dropped first). */
const MAX_ASSETS = 200;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== SHELL_CACHE && name !== ASSETS_CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/assets/")) return event.respondWith(cacheFirst(request));
  if (request.mode === "navigate" && !url.searchParams.has("token")) return event.respondWith(networkFirstShell(request));
});

async function cacheFirst(request) {
  const cache = await caches.open(ASSETS_CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) {
    await cache.put(request, response.clone());
    const keys = await cache.keys();
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ASSETS))) await cache.delete(old);
  }
  return response;
}

/** The page from pier; when pier cannot be reached, the last shell it served (the app then says it is reconnecting). */
async function networkFirstShell(request) {
  const cache = await caches.open(SHELL_CACHE);
  try {
    const response = await fetch(request);
    // Only the app itself is kept: not a refusal page, not a redirect.
    if (response.status === 200 && (response.headers.get("content-type") || "").startsWith("text/html")) await cache.put("/", response.clone());
    return response;
  } catch (error) {
    const shell = await cache.match("/");
    if (shell) return shell;
    throw error;
  }
}
