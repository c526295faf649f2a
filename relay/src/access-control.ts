// Who may talk to the relay. The relay can run shell commands through pi, so
// it is guarded like an SSH server:
// - a browser gets in only through a single-use link secret (access-links.ts),
//   traded on first load for an HttpOnly, SameSite=Strict session cookie, so
//   the secret never has to appear in a WebSocket URL, a log or the browser
//   history after that;
// - every request needs an allowed Host (defeats DNS rebinding: a rebound
//   name is neither an IP literal nor "localhost"), and a same-origin Origin
//   where one is sent; a WebSocket upgrade must send one.
import { isIP } from "node:net";
import type { Grant } from "./access-links.ts";

/** Cookies are not isolated by port, so two pier instances need two names. */
export function cookieName(port: number): string {
  return `pier_${port}`;
}

export function sessionCookieHeader(port: number, value: string): string {
  return `${cookieName(port)}=${value}; HttpOnly; SameSite=Strict; Path=/`;
}

/** Reads one cookie from a Cookie header (the first one of that name). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Host header check: a host name that cannot be rebound, "localhost" or an
 * IP literal (any, so `--host 0.0.0.0` can be reached by the machine's
 * addresses). Any port: through an SSH tunnel (`ssh -L 8080:127.0.0.1:<port>`)
 * the browser names the tunnel's port, and a port says nothing a rebinding
 * attack could use (the attacker's name is what gives it away).
 */
export function isAllowedHost(hostHeader: string | undefined, _port: number): boolean {
  if (!hostHeader) return false;
  const parsed = splitHostPort(hostHeader) ?? splitHostPort(`${hostHeader}:80`);
  if (!parsed) return false;
  const host = parsed.host.toLowerCase();
  return host === "localhost" || isIP(host) !== 0;
}

/** Origin must be exactly http://<the Host header> (same origin). */
export function isSameOrigin(origin: string | undefined, hostHeader: string | undefined): boolean {
  if (!origin || !hostHeader) return false;
  return origin.toLowerCase() === `http://${hostHeader.toLowerCase()}`;
}

function splitHostPort(value: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]/@]+):(\d{1,5})$/.exec(value);
  if (!match) return null;
  const host = match[1]!.startsWith("[") ? match[1]!.slice(1, -1) : match[1]!;
  return { host, port: Number(match[2]) };
}

export type AccessDecision =
  | { allow: true; grant: Grant }
  | { allow: false; status: 400 | 401 | 403; reason: string };

export type AccessRequest = {
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  cookie: string | undefined;
  isWebSocket: boolean;
};

/** The rule for every request other than the link exchange; `grantFor` reads a session cookie value. */
export function checkAccess(request: AccessRequest, port: number, grantFor: (cookieValue: string | undefined) => Grant | null): AccessDecision {
  if (!isAllowedHost(request.host, port)) {
    return { allow: false, status: 403, reason: "this Host is not allowed (use localhost or the IP address pier printed)" };
  }
  if (request.isWebSocket) {
    if (!isSameOrigin(request.origin, request.host)) {
      return { allow: false, status: 403, reason: "a WebSocket must come from the page pier serves (Origin mismatch)" };
    }
  } else if (request.origin !== undefined && !isSameOrigin(request.origin, request.host)) {
    return { allow: false, status: 403, reason: "cross-origin requests are refused" };
  } else if (request.secFetchSite === "cross-site") {
    return { allow: false, status: 403, reason: "cross-site requests are refused" };
  }
  const grant = grantFor(readCookie(request.cookie, cookieName(port)));
  if (grant === null) {
    return { allow: false, status: 401, reason: "not authorized: open a link pier printed (press Enter in pier's terminal for a fresh one)" };
  }
  return { allow: true, grant };
}
