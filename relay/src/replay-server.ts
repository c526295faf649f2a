// `pier replay FILE [OTHER]`: the same page behind the same door as a live
// Pier (loopback by default, a single-use secret link traded for an HttpOnly
// cookie, Host and Origin checks, the same Content-Security-Policy), but
// behind it only the app and one capture file, or two to compare. No pi is
// started and no WebSocket is accepted: the page plays the capture by itself.
//
// The link redirects to `/?replay`, which tells the page to ask:
//   GET /api/replay          {"name": "<file name>", "size": <bytes>,
//                             "compare"?: {"name", "size"}}  (only with OTHER)
//   GET /api/replay/capture  the capture, as it is on disk
//   GET /api/replay/compare  OTHER, as it is on disk (404 without one)
// Who may use them: whoever holds the replay's link (its cookie), the same
// for both files; there is no viewer in a replay.
import type { FileHandle } from "node:fs/promises";
import { type IncomingMessage, type ServerResponse } from "node:http";
import { pipeline, type Duplex } from "node:stream";
import { AccessLinks } from "./access-links.ts";
import { admitHttp, header, redeemLink, serveHttp } from "./http-door.ts";
import { printedHost, siteNamesFor, type Site } from "./launch-host.ts";
import { listen } from "./listen.ts";
import { SECURITY_HEADERS, sendText, serveStatic } from "./static-files.ts";
import { sendApiError, sendJson } from "./workspace/json-http.ts";

export const REPLAY_PROBE_PATH = "/api/replay";
export const REPLAY_CAPTURE_PATH = "/api/replay/capture";
export const REPLAY_COMPARE_PATH = "/api/replay/compare";

/** A capture opened and checked by checkCaptureFile: served from this descriptor, never by name again (the server closes it). */
export type ServedCapture = {
  /** Its path, for messages. */
  file: string;
  handle: FileHandle;
  name: string;
  size: number;
};

export type ReplayServerOptions = {
  host: string;
  port: number;
  capture: ServedCapture;
  /** A second capture the page opens compared with the first, or null. */
  compare: ServedCapture | null;
  webRoot: string;
  log: (line: string) => void;
};

export type RunningReplayServer = {
  url: string;
  freshUrl(): string;
  port: number;
  close(): Promise<void>;
};

export async function startReplayServer(options: ReplayServerOptions): Promise<RunningReplayServer> {
  const links = new AccessLinks();
  let port = options.port;
  const names = siteNamesFor(options.host);
  const site: Site = {
    ...names,
    get port() {
      return port;
    },
  };

  const { compare } = options;
  const server = serveHttp(handleHttp, options.log);

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://relay.invalid");
    const token = url.searchParams.get("token");
    // `?replay` tells the page to play the capture instead of connecting (a live page never waits to ask).
    if (token !== null) return redeemLink(request, response, url, links, site, "?replay");
    if (admitHttp(request, response, url, links, site) === null) return;
    request.resume();
    if (request.method !== "GET" && request.method !== "HEAD") return sendText(response, 405, "Method not allowed: a replay changes nothing.");
    if (url.pathname === REPLAY_PROBE_PATH) return sendJson(response, 200, probeAnswer(), { "Cache-Control": "no-store" });
    if (url.pathname === REPLAY_CAPTURE_PATH) return sendCapture(options.capture, response, request.method === "HEAD");
    if (url.pathname === REPLAY_COMPARE_PATH) {
      if (compare === null) return sendApiError(response, 404, "not_found", "pier replay was given one capture: there is none to compare with.");
      return sendCapture(compare, response, request.method === "HEAD");
    }
    if (url.pathname.startsWith("/api/")) return sendApiError(response, 404, "not_found", "pier replay serves a capture only: no workspace, no sessions.");
    await serveStatic(options.webRoot, url.pathname, response, request.method === "HEAD", header(request, "accept-encoding"));
  }

  function probeAnswer(): { name: string; size: number; compare?: { name: string; size: number } } {
    const { name, size } = options.capture;
    return compare === null ? { name, size } : { name, size, compare: { name: compare.name, size: compare.size } };
  }

  function sendCapture(capture: ServedCapture, response: ServerResponse, headOnly: boolean): void {
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Content-Length": String(capture.size),
      "Cache-Control": "no-store",
    });
    if (headOnly) return void response.end();
    // Positioned reads from the one descriptor: several downloads at once do not disturb each other.
    const stream = capture.handle.createReadStream({ start: 0, end: capture.size - 1, autoClose: false });
    stream.on("error", (error) => options.log(`cannot read ${capture.file}: ${error.message}`));
    // pipeline: the reading stops when the browser goes away mid-download (the descriptor stays for the next one).
    pipeline(stream, response, () => {});
  }

  // A replay has no relay socket: say so to anything that tries.
  server.on("upgrade", (_request: IncomingMessage, socket: Duplex) => {
    socket.on("error", () => socket.destroy());
    socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\npier replay has no relay: nothing to connect to.\n");
  });

  await listen(server, options.port, options.host);
  const address = server.address();
  port = typeof address === "object" && address ? address.port : options.port;
  const urlHost = printedHost(options.host, names.launchHost);
  const freshUrl = () => `http://${urlHost}:${port}/?token=${links.issue("driver").token}`;
  return {
    url: freshUrl(),
    freshUrl,
    port,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await options.capture.handle.close().catch(() => {});
      await compare?.handle.close().catch(() => {});
    },
  };
}
