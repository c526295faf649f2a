// Pier's own host name for one launch: `pier-<10 random base32 chars>.localhost`.
//
// Why: browsers scope cookies by host name, not by port. A session cookie set
// for 127.0.0.1 (or localhost) went to every server on that address: a dev
// server the agent started on :3000 received it when the user opened its page
// and could replay it. Browsers (Chromium, Firefox) resolve `*.localhost` to
// loopback themselves, so a name of pier's own reaches pier and keeps its
// cookie away from other ports' servers, which do not know the name; and a
// page on 127.0.0.1:<other port> is another *site* to it (SameSite=Strict),
// which cannot set a cookie for it either ("localhost" is a top-level domain:
// `Domain=localhost` is refused).
//
// The name is not a credential (the link's secret is), but it must not be
// told to someone without a link: knowing it, a server on another local port
// could have the user's browser visit `http://<name>:<its port>/` and read
// the cookie there. Pier says it only in the links it prints and to a browser
// that brings a valid link.
//
// With `--host <network address>` other machines come in by IP address (they
// do not resolve the name to pier), so IP hosts are allowed there (see the
// warning in cli.ts). With `--host 0.0.0.0` pier also listens on loopback:
// the name is kept, and printed, for this machine's own browser.
import { randomBytes } from "node:crypto";
import { isLoopback } from "./cli-options.ts";

/** Where pier is reached: the port it listens on, its per-launch host name, and whether IP hosts are a way in too. */
export type Site = {
  readonly port: number;
  /** `pier-….localhost`, or null when pier does not listen on loopback (`--host <one network address>`). */
  readonly launchHost: string | null;
  /** True with `--host <not loopback>`: other machines name pier by IP address (or "localhost", as before). */
  readonly addressesOpen: boolean;
};

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
/** 10 base32 characters: 50 bits, far beyond what a page could try by navigating. */
const NAME_CHARS = 10;

export function newLaunchHostName(): string {
  const bytes = randomBytes(NAME_CHARS);
  let name = "";
  // 256 is a multiple of 32: `% 32` keeps every character equally likely.
  for (const byte of bytes) name += BASE32[byte % 32];
  return `pier-${name}.localhost`;
}

/** How a pier listening on `listenHost` is named: its own name (`name`, default a new one) wherever it listens on loopback, IP addresses off loopback. */
export function siteNamesFor(listenHost: string, name: string = newLaunchHostName()): Omit<Site, "port"> {
  const everyAddress = listenHost === "0.0.0.0" || listenHost === "::";
  const loopback = isLoopback(listenHost);
  return { launchHost: loopback || everyAddress ? name : null, addressesOpen: !loopback };
}

/** The host of the links pier prints: its own name where it has one, else the one address it listens on. */
export function printedHost(listenHost: string, launchHost: string | null): string {
  if (launchHost !== null) return launchHost;
  return listenHost.includes(":") ? `[${listenHost}]` : listenHost;
}
