// Opening pier in a benchmark's page: signed in with a cookie of pier's (no
// link to spend, no redirect), and optionally with the page's own files
// (index.html and assets/) served from another build of web/ than the one
// pier serves, so that a bench can measure two versions of the page side by
// side in one run against the same pier and pi. Everything else (the
// WebSocket, the file service, the headers such as the CSP) still comes from
// pier. Make such a build with `vite build --outDir <dir>` in web/.
//
// Plain TypeScript with erasable types only: Node runs it with type stripping.
import { existsSync, readFileSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import type { RunningPier } from "../../relay/test/support/pier-process.ts";

const TYPES: Record<string, string> = {
  ".js": "text/javascript",
  ".css": "text/css",
  ".html": "text/html",
  ".ttf": "font/ttf",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/**
 * Chromium switches for pages opened with openPier: a page whose files come
 * from a route (the baseline build) counts as public, and Chromium's Local
 * Network Access checks would then refuse its WebSocket to 127.0.0.1.
 */
export const BENCH_CHROMIUM_ARGS = ["--disable-features=LocalNetworkAccessChecks"];

/** The folder named by `PIER_BENCH_BASELINE_DIST`, or null; throws when it holds no build. */
export function baselineDistFromEnv(): string | null {
  const dir = process.env.PIER_BENCH_BASELINE_DIST;
  if (!dir) return null;
  const dist = resolve(dir);
  if (!existsSync(join(dist, "index.html"))) throw new Error(`PIER_BENCH_BASELINE_DIST: no index.html in ${dist}`);
  return dist;
}

/** A new page of `context` showing pier, from `dist` when given (else from pier's own web/dist). */
export async function openPier(context: BrowserContext, pier: RunningPier, dist: string | null): Promise<Page> {
  const at = pier.cookie.indexOf("=");
  await context.addCookies([{ name: pier.cookie.slice(0, at), value: pier.cookie.slice(at + 1), url: pier.origin, httpOnly: true, sameSite: "Strict" }]);
  if (dist !== null) await serveDistFrom(context, pier.origin, dist);
  const page = await context.newPage();
  await page.goto(`${pier.origin}/`);
  return page;
}

async function serveDistFrom(context: BrowserContext, origin: string, dist: string): Promise<void> {
  await context.route(`${origin}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    const file = path === "/" ? "index.html" : path.startsWith("/assets/") ? path.slice(1) : null;
    if (route.request().method() !== "GET" || file === null || !existsSync(join(dist, file))) return route.continue();
    // Playwright fetches from its own process, which cannot resolve pier's `pier-….localhost` name: ask the
    // loopback address, with the page's Host (pier checks it).
    const url = new URL(route.request().url());
    const host = url.host;
    if (url.hostname.endsWith(".localhost")) url.hostname = "127.0.0.1";
    const real = await route.fetch({ url: url.href, headers: { ...route.request().headers(), host } });
    const headers: Record<string, string> = { ...real.headers(), "content-type": TYPES[extname(file)] ?? "application/octet-stream" };
    for (const name of ["content-length", "content-encoding", "etag"]) delete headers[name];
    await route.fulfill({ status: 200, headers, body: readFileSync(join(dist, file)) });
  });
}
