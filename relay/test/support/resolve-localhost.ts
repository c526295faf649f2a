// Name resolution for `*.localhost` as browsers do it, for test clients in
// Node. Pier's links name a host of its own under `.localhost`
// (relay/src/launch-host.ts); Chromium and Firefox answer such names with
// loopback themselves, but Node's fetch, http and ws ask the system
// resolver, which here says ENOTFOUND. Wrapping dns.lookup (which net.connect
// calls for every host name) makes Node clients connect to loopback while
// still sending `Host: pier-….localhost:<port>`, exactly what a browser
// sends. Imported for its effect by pier-process.ts (contract tests, e2e,
// benchmarks) and listed in vitest.config.ts's setupFiles.
import dns, { type LookupAddress, type LookupOptions } from "node:dns";

const LOOPBACK: LookupAddress[] = [
  { address: "127.0.0.1", family: 4 },
  { address: "::1", family: 6 },
];

/** `localhost` itself and every name under it (RFC 6761 §6.3), with or without a trailing dot. */
export function isLocalhostName(hostname: string): boolean {
  return /(^|\.)localhost\.?$/i.test(hostname);
}

const MARK = Symbol.for("pier.test.resolve-localhost");
type Lookup = typeof dns.lookup & { [MARK]?: true };

if (!(dns.lookup as Lookup)[MARK]) {
  const systemLookup = dns.lookup;
  const lookup = function (hostname: string, options: unknown, callback?: unknown): void {
    const done = (typeof options === "function" ? options : callback) as (error: Error | null, address: string | LookupAddress[], family?: number) => void;
    const settings: LookupOptions = typeof options === "number" ? { family: options } : typeof options === "object" && options !== null ? (options as LookupOptions) : {};
    if (typeof hostname !== "string" || !isLocalhostName(hostname) || hostname.toLowerCase() === "localhost") {
      return void (systemLookup as (...args: unknown[]) => void).call(dns, hostname, options, callback);
    }
    const family = settings.family === "IPv4" ? 4 : settings.family === "IPv6" ? 6 : settings.family;
    const answers = LOOPBACK.filter((answer) => !family || answer.family === family);
    process.nextTick(() => (settings.all ? done(null, answers) : done(null, answers[0]!.address, answers[0]!.family)));
  } as Lookup;
  lookup[MARK] = true;
  dns.lookup = lookup;
}
