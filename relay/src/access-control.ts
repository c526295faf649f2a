// Who may talk to the relay. The relay can run shell commands through pi, so
// it is guarded like an SSH server:
// - a browser gets in only through a single-use link secret (access-links.ts),
//   traded on first load for an HttpOnly, SameSite=Strict session cookie, so
//   the secret never has to appear in a WebSocket URL, a log or the browser
//   history after that;
// - on loopback, pier is named by a host name of its own for this launch
//   (launch-host.ts): cookies are scoped by host name, not port, so a cookie
//   on 127.0.0.1 would reach every other local server. Requests naming
//   127.0.0.1 or localhost are refused there (a valid link is sent on to the
//   name first), and the cookie is only ever set under that name;
// - every request needs an allowed Host (defeats DNS rebinding: a rebound
//   name is neither pier's own name nor an IP literal), and a same-origin
//   Origin where one is sent; a WebSocket upgrade must send one.
import { isIP } from "node:net";
import type { Grant } from "./access-links.ts";
import type { Site } from "./launch-host.ts";

/** Cookies are not isolated by port, so two pier instances need two names. */
export function cookieName(port: number): string {
  return `pier_${port}`;
}

export function sessionCookieHeader(port: number, value: string): string {
  return `${cookieName(port)}=${value}; HttpOnly; SameSite=Strict; Path=/`;
}

/**
 * Every value of one cookie in a Cookie header, in the order sent. All of
 * them, not the first: a page on another port of the same host name may set
 * a cookie of our name with a longer Path, which the browser then sends
 * first; reading only that one would lock the real user out. The caller
 * takes the first value that is a valid grant, so such a shadow can never
 * win (and it cannot make a grant up: grants are random secrets).
 */
export function readCookies(header: string | undefined, name: string): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/** The grant of the first value of our cookie that carries one (see readCookies), or null. */
export function grantFromCookies(header: string | undefined, port: number, grantFor: (cookieValue: string | undefined) => Grant | null): Grant | null {
  for (const value of readCookies(header, cookieName(port))) {
    const grant = grantFor(value);
    if (grant !== null) return grant;
  }
  return null;
}

/**
 * What a Host header names:
 * - "pier": pier's own name for this launch (any port: through an SSH tunnel,
 *   `ssh -L 8080:127.0.0.1:<port>`, the browser names the tunnel's port, and
 *   `*.localhost` resolves on the guest's machine too); with `--host <not
 *   loopback>` also "localhost" and IP literals (any, so `--host 0.0.0.0` can
 *   be reached by the machine's addresses);
 * - "address": "localhost" or an IP literal on a pier that has its own name:
 *   pier's machine, but a name whose cookies every local port shares;
 * - "foreign": anything else, such as a rebound attacker's name.
 * A port says nothing a rebinding attack could use (the name gives it away).
 */
export type HostKind = "pier" | "address" | "foreign";

export function hostKind(hostHeader: string | undefined, site: Site): HostKind {
  const parsed = parseHost(hostHeader);
  if (!parsed) return "foreign";
  if (site.launchHost !== null && parsed.host === site.launchHost) return "pier";
  if (parsed.host !== "localhost" && isIP(parsed.host) === 0) return "foreign";
  return site.addressesOpen ? "pier" : "address";
}

export function isAllowedHost(hostHeader: string | undefined, site: Site): boolean {
  return hostKind(hostHeader, site) === "pier";
}

/** The host (lower case, IPv6 without brackets) and port (80 when left out) a Host header names, or null. */
export function parseHost(hostHeader: string | undefined): { host: string; port: number } | null {
  if (!hostHeader) return null;
  const parsed = splitHostPort(hostHeader) ?? splitHostPort(`${hostHeader}:80`);
  return parsed && { host: parsed.host.toLowerCase(), port: parsed.port };
}

/** Said for "address" Hosts. It does not name pier's host (see launch-host.ts: only a link's holder learns it). */
export const ADDRESS_REFUSAL = "this address is not Pier's on this machine: open the link pier printed (it starts with http://pier-), or press Enter in pier's terminal for a fresh one";

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

export type AccessDecision = { allow: true; grant: Grant } | { allow: false; status: 400 | 401 | 403; reason: string };

export type AccessRequest = {
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  cookie: string | undefined;
  isWebSocket: boolean;
};

/** The rule for every request other than the link exchange; `grantFor` reads a session cookie value. */
export function checkAccess(request: AccessRequest, site: Site, grantFor: (cookieValue: string | undefined) => Grant | null): AccessDecision {
  const kind = hostKind(request.host, site);
  if (kind === "address") return { allow: false, status: 403, reason: ADDRESS_REFUSAL };
  if (kind === "foreign") {
    return { allow: false, status: 403, reason: "this Host is not allowed (open the link pier printed, with its host name or IP address)" };
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
  const grant = grantFromCookies(request.cookie, site.port, grantFor);
  if (grant === null) {
    return { allow: false, status: 401, reason: "not authorized: open a link pier printed (press Enter in pier's terminal for a fresh one)" };
  }
  return { allow: true, grant };
}
