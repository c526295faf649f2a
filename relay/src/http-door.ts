// The door every HTTP request of pier (and of `pier replay`) goes through:
// a `?token=` link is traded for a session cookie, and anything else must
// carry an allowed Host and Origin and a cookie of a link still valid. One
// place, so the live relay and the replay server cannot drift apart.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { checkAccess, grantFromCookies, hostKind, parseHost, sessionCookieHeader } from "./access-control.ts";
import { LINK_TTL_MS, MAX_GRANTS_PER_LINK, type AccessLinks, type Grant, type RedeemFailure } from "./access-links.ts";
import { sendStatusPage } from "./http-pages.ts";
import type { Site } from "./launch-host.ts";
import { sendText } from "./static-files.ts";
import { sendApiError } from "./workspace/json-http.ts";

export function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Trade the `?token=` of `url` for a session cookie, then redirect to "/"
 * with `landingQuery` (default: the request's query without the token), so
 * the secret leaves the address bar and the history entry. A browser
 * already signed in (it reopened its own spent link) just goes in.
 *
 * A valid link opened at 127.0.0.1 or localhost on a pier with its own name
 * is sent on, unspent, to the same link under that name: a cookie set there
 * would reach every local port. An invalid one is refused as anywhere, so
 * the name is told only to a link's holder (see launch-host.ts).
 */
export function redeemLink(request: IncomingMessage, response: ServerResponse, url: URL, links: AccessLinks, site: Site, landingQuery?: string): void {
  const token = url.searchParams.get("token");
  const kind = hostKind(request.headers.host, site);
  if (kind === "foreign") {
    return sendStatusPage(response, 403, "Refused", "This Host is not allowed (open the link pier printed, with its host name or IP address).");
  }
  const noStore = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
  if (kind === "address") {
    const refusal = links.check(token);
    if (refusal !== null) return sendStatusPage(response, refusedLinkStatus(refusal), "This link does not open Pier", refusedLinkText(refusal));
    // The Host's port, not pier's: through a tunnel it is the tunnel's.
    const port = parseHost(request.headers.host)!.port;
    response.writeHead(303, { Location: `http://${site.launchHost}:${port}${landingPath(url.search)}`, ...noStore });
    return void response.end();
  }
  const redirect = (cookieValue: string | null) => {
    response.writeHead(303, {
      ...(cookieValue !== null ? { "Set-Cookie": sessionCookieHeader(site.port, cookieValue) } : {}),
      Location: landingPath(landingQuery ?? queryWithout(url, "token")),
      ...noStore,
    });
    response.end();
  };
  const redemption = links.redeem(token);
  if (redemption.ok) return redirect(redemption.cookieValue);
  if (grantFromCookies(request.headers.cookie, site.port, (value) => links.grantFor(value)) !== null) return redirect(null);
  return sendStatusPage(response, refusedLinkStatus(redemption.reason), "This link does not open Pier", refusedLinkText(redemption.reason));
}

/**
 * Always "/" and a query: never built from the request's path, which a raw
 * request can make `//other-host/…` (`GET /.//other-host/x?token=…`
 * normalises to that path), a Location every browser reads as another site.
 */
export function landingPath(query: string): string {
  return query === "" || query === "?" ? "/" : `/${query.startsWith("?") ? query : `?${query}`}`;
}

function queryWithout(url: URL, name: string): string {
  const kept = new URLSearchParams(url.searchParams);
  kept.delete(name);
  const text = kept.toString();
  return text === "" ? "" : `?${text}`;
}

/** The request's grant, or null after answering it with the refusal (JSON for /api/, a page otherwise). */
export function admitHttp(request: IncomingMessage, response: ServerResponse, url: URL, links: AccessLinks, site: Site): Grant | null {
  const decision = checkAccess(
    {
      host: request.headers.host,
      origin: request.headers.origin,
      secFetchSite: header(request, "sec-fetch-site"),
      cookie: request.headers.cookie,
      isWebSocket: false,
    },
    site,
    (cookie) => links.grantFor(cookie),
  );
  if (decision.allow) return decision.grant;
  const reason = decision.reason.charAt(0).toUpperCase() + decision.reason.slice(1) + ".";
  if (url.pathname.startsWith("/api/")) sendApiError(response, decision.status, decision.status === 401 ? "unauthorized" : "forbidden", reason);
  else sendStatusPage(response, decision.status, decision.status === 401 ? "Not authorized" : "Refused", reason);
  return null;
}

export function refusedLinkText(reason: RedeemFailure): string {
  const fresh = "In the terminal where pier runs, press Enter: it prints a fresh link. Copy that one.";
  const minutes = Math.round(LINK_TTL_MS / 60_000);
  switch (reason) {
    case "used":
      return `This link was used already. Each link works once, for one browser, so that a copy of it (in a history, a log, a screen share) opens nothing. ${fresh}`;
    case "expired":
      return `This link has expired: links work for ${minutes} minutes. ${fresh}`;
    case "revoked":
      return `This link was revoked by a driver of this Pier. Ask them for a new one, or ${fresh[0]!.toLowerCase()}${fresh.slice(1)}`;
    case "unknown":
      return `This link's secret is not one this pier issued (pier makes new secrets every time it starts). ${fresh}`;
    case "crowded":
      return `This link has been opened too many times (by ${MAX_GRANTS_PER_LINK.toLocaleString("en")} browsers): ask whoever shared it for a new one.`;
    case "full":
      return "This Pier has too many sessions open to let another browser in: ask a driver to revoke the links that are no longer needed, or to restart pier.";
  }
}

/** A link past a cap is not a wrong link: 429 for its own cap, 503 for the relay's; 401 otherwise. */
export function refusedLinkStatus(reason: RedeemFailure): 401 | 429 | 503 {
  return reason === "crowded" ? 429 : reason === "full" ? 503 : 401;
}

/** An HTTP server for `handle`: a request it fails is logged and answered 500 (or cut, once headers went out), never left hanging. */
export function serveHttp(handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>, log: (message: string) => void): Server {
  return createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`HTTP error: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) sendText(response, 500, "Internal error.");
      else response.destroy();
    });
  });
}
