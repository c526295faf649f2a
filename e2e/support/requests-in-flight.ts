// A page's HTTP requests sent and not yet answered (or failed), from the
// moment this is called: for a test that must know the page is quiet before
// it holds or cuts the network, since a request caught by a hold is never
// answered. WebSockets are not requests here (Playwright reports them apart).
import type { Page, Request } from "@playwright/test";

export function requestsInFlight(page: Page, matches: (request: Request) => boolean = () => true): Set<Request> {
  const pending = new Set<Request>();
  page.on("request", (request) => {
    if (matches(request)) pending.add(request);
  });
  page.on("requestfinished", (request) => pending.delete(request));
  page.on("requestfailed", (request) => pending.delete(request));
  return pending;
}
