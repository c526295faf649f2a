// The door every HTTP request of pier (and of `pier replay`) goes through:
// a `?token=` link is traded for a session cookie, and anything else must
// carry an allowed Host and Origin and a cookie of a link still valid. One
// place, so the live relay and the replay server cannot drift apart.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { checkAccess, cookieName, isAllowedHost, readCookie, sessionCookieHeader } from "./access-control.ts";
import { LINK_TTL_MS, type AccessLinks, type Grant, type RedeemFailure } from "./access-links.ts";
import { sendStatusPage } from "./http-pages.ts";
import { sendText } from "./static-files.ts";
import { sendApiError } from "./workspace/json-http.ts";

export function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Trade a link's secret for a session cookie, then redirect to `location`
 * (so the secret leaves the address bar and the history entry). A browser
 * already signed in (it reopened its own spent link) just goes in.
 */
export function redeemLink(request: IncomingMessage, response: ServerResponse, token: string, links: AccessLinks, port: number, location: string): void {
  if (!isAllowedHost(request.headers.host, port)) {
    return sendStatusPage(response, 403, "Refused", "This Host is not allowed (use localhost or the IP address pier printed).");
  }
  const redirect = (cookieValue: string | null) => {
    response.writeHead(303, {
      ...(cookieValue !== null ? { "Set-Cookie": sessionCookieHeader(port, cookieValue) } : {}),
      Location: location,
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
    });
    response.end();
  };
  const redemption = links.redeem(token);
  if (redemption.ok) return redirect(redemption.cookieValue);
  if (links.grantFor(readCookie(request.headers.cookie, cookieName(port))) !== null) return redirect(null);
  return sendStatusPage(response, 401, "This link does not open Pier", refusedLinkText(redemption.reason));
}

/** The request's grant, or null after answering it with the refusal (JSON for /api/, a page otherwise). */
export function admitHttp(request: IncomingMessage, response: ServerResponse, url: URL, links: AccessLinks, port: number): Grant | null {
  const decision = checkAccess(
    {
      host: request.headers.host,
      origin: request.headers.origin,
      secFetchSite: header(request, "sec-fetch-site"),
      cookie: request.headers.cookie,
      isWebSocket: false,
    },
    port,
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
  }
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
