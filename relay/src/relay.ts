// The relay: one pi child, any number of browsers. HTTP serves the SPA behind
// the access rules; the WebSocket carries pi's stdout bytes out (binary
// frames, unchanged, in order) and single command lines in.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { MAX_COMMAND_BYTES, RELAY_SOCKET_PATH, type DemoInfo } from "@pier/protocol";
import { checkAccess, cookieName, isAllowedHost, readCookie, sessionCookieHeader } from "./access-control.ts";
import { AccessLinks, LINK_TTL_MS, type Grant, type RedeemFailure } from "./access-links.ts";
import type { BrowserHub } from "./browser-hub.ts";
import { sendStatusPage } from "./http-pages.ts";
import { PiBridge } from "./pi-bridge.ts";
import { PiProcess, type PiLaunch } from "./pi-process.ts";
import { SessionService } from "./sessions/session-service.ts";
import { sendText, serveStatic } from "./static-files.ts";
import { GitDirWatcher, locateGitDir } from "./workspace/git-dir-watcher.ts";
import { GitFacts } from "./workspace/git-facts.ts";
import { sendApiError } from "./workspace/json-http.ts";
import { createWorkspaceApi } from "./workspace/workspace-api.ts";
import { WorkspaceFiles } from "./workspace/workspace-files.ts";
import { WorkspaceWatcher } from "./workspace/workspace-watcher.ts";

export type RelayOptions = {
  host: string;
  /** 0 picks a free port. */
  port: number;
  launch: PiLaunch;
  demo: DemoInfo | null;
  /** The built SPA. */
  webRoot: string;
  /** Bound of the stdout replay kept for late browsers. */
  replayBytes: number;
  /** The session file pier was told to open (`--session FILE`), if any. */
  explicitSessionFile?: string | null;
  /** Diagnostics (stderr in the CLI). Never receives the secret. */
  log: (line: string) => void;
};

export type RunningRelay = {
  /** The first link to open, secret included (single use): print it, nowhere else. */
  url: string;
  /** Another single-use link, for another browser or after the last one was spent or expired. */
  freshUrl(): string;
  port: number;
  links: AccessLinks;
  pi: PiProcess;
  /** Tells every browser something (e.g. that the demo model is in use). */
  notice(level: "info" | "warning", message: string): void;
  close(): Promise<void>;
};

const CLOSE_GOING_AWAY = 1001;

export async function startRelay(options: RelayOptions): Promise<RunningRelay> {
  const links = new AccessLinks();
  const pi = new PiProcess(options.launch);
  // Late-bound: the service reports list changes through the hub the bridge creates.
  let announceSessions = () => {};
  const sessions = await SessionService.create({
    launch: options.launch,
    explicitSessionFile: options.explicitSessionFile ?? null,
    log: options.log,
    onListChanged: () => announceSessions(),
  });
  const bridge = new PiBridge({ pi, demo: options.demo, replayBytes: options.replayBytes, sessions, links, log: options.log });
  const hub = bridge.hub;
  announceSessions = () => hub.broadcastFrame({ type: "sessions_changed" });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_COMMAND_BYTES * 2 });
  let port = options.port;
  const workspace = new WorkspaceFiles(options.launch.cwd);
  const git = new GitFacts(workspace.paths);
  // Who made each HTTP change, to say so to everyone ("Ada saved src/app.ts").
  const grants = new WeakMap<IncomingMessage, Grant>();
  const workspaceApi = createWorkspaceApi({
    files: workspace,
    git,
    log: options.log,
    onChanged: (request, change) => bridge.room.announceActivity(grants.get(request) ?? null, change),
  });
  const announceGitMoved = () => hub.broadcastFrame({ type: "workspace_changed", paths: [], git: true });
  const gitWatcher = new GitDirWatcher({
    locate: async () => locateGitDir(() => git.gitDir(), await workspace.paths.rootReal()),
    onChange: announceGitMoved,
  });
  const watcher = new WorkspaceWatcher({
    root: options.launch.cwd,
    log: options.log,
    onChange: (paths) => hub.broadcastFrame({ type: "workspace_changed", paths }),
    onGitFolder: () => {
      announceGitMoved();
      void gitWatcher.refresh();
    },
  });

  const server = createServer((request, response) => {
    handleHttp(request, response).catch((error: unknown) => {
      options.log(`HTTP error: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) sendText(response, 500, "Internal error.");
      else response.destroy();
    });
  });

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://relay.invalid");
    const token = url.searchParams.get("token");
    if (token !== null) return exchangeToken(request, response, url, token);
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
    if (!decision.allow) {
      if (url.pathname.startsWith("/api/")) {
        return sendApiError(response, decision.status, decision.status === 401 ? "unauthorized" : "forbidden", capitalize(decision.reason));
      }
      return sendStatusPage(response, decision.status, decision.status === 401 ? "Not authorized" : "Refused", capitalize(decision.reason));
    }
    // Viewers look: anything that changes the workspace needs a driver.
    if (decision.grant.role !== "driver" && request.method !== "GET" && request.method !== "HEAD") {
      request.resume();
      return sendApiError(response, 403, "forbidden", "Viewers can look, not change: only a driver can save, create, rename or delete files.");
    }
    grants.set(request, decision.grant);
    if (await sessions.handleHttp(request, response, url)) return;
    if (await workspaceApi(request, response, url)) return;
    if (request.method !== "GET" && request.method !== "HEAD") return sendText(response, 405, "Method not allowed.");
    await serveStatic(options.webRoot, url.pathname, response, request.method === "HEAD", header(request, "accept-encoding"));
  }

  function exchangeToken(request: IncomingMessage, response: ServerResponse, url: URL, token: string): void {
    if (!isAllowedHost(request.headers.host, port)) {
      return sendStatusPage(response, 403, "Refused", "This Host is not allowed (use localhost or the IP address pier printed).");
    }
    url.searchParams.delete("token");
    // Redirect so the secret leaves the address bar and the history entry.
    const redirect = (cookieValue: string | null) => {
      response.writeHead(303, {
        ...(cookieValue !== null ? { "Set-Cookie": sessionCookieHeader(port, cookieValue) } : {}),
        Location: url.pathname + url.search,
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer",
      });
      response.end();
    };
    const redemption = links.redeem(token);
    if (redemption.ok) return redirect(redemption.cookieValue);
    // This browser is signed in already (e.g. it reopened its own spent link): just go in.
    if (links.grantFor(readCookie(request.headers.cookie, cookieName(port))) !== null) return redirect(null);
    return sendStatusPage(response, 401, "This link does not open Pier", refusedLinkText(redemption.reason));
  }

  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const path = new URL(request.url ?? "/", "http://relay.invalid").pathname;
    const decision =
      path !== RELAY_SOCKET_PATH
        ? ({ allow: false, status: 400, reason: "unknown WebSocket path" } as const)
        : checkAccess(
            {
              host: request.headers.host,
              origin: request.headers.origin,
              secFetchSite: header(request, "sec-fetch-site"),
              cookie: request.headers.cookie,
              isWebSocket: true,
            },
            port,
            (cookie) => links.grantFor(cookie),
          );
    if (!decision.allow) {
      const reason = decision.reason.replace(/[\r\n]/g, " ");
      socket.end(`HTTP/1.1 ${decision.status} ${statusText(decision.status)}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason}\n`);
      return;
    }
    const grant = decision.grant;
    wss.handleUpgrade(request, socket, head, (ws) => bridge.addBrowser(ws, grant));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  port = typeof address === "object" && address ? address.port : options.port;
  pi.start();
  // Not awaited: a large workspace's walk must not delay the URL.
  void watcher.start();
  void gitWatcher.refresh();

  const urlHost = options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host.includes(":") ? `[${options.host}]` : options.host;
  const freshUrl = () => `http://${urlHost}:${port}/?token=${links.issue("driver").token}`;
  return {
    url: freshUrl(),
    freshUrl,
    port,
    links,
    pi,
    notice: (level, message) => hub.broadcastFrame({ type: "notice", level, message }),
    close: async () => {
      watcher.close();
      gitWatcher.close();
      await closeRelay(server, wss, hub, pi);
      await sessions.close();
    },
  };
}

async function closeRelay(server: Server, wss: WebSocketServer, hub: BrowserHub, pi: PiProcess): Promise<void> {
  hub.closeAll(CLOSE_GOING_AWAY, "pier is shutting down");
  const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  wss.close();
  await pi.stop();
  await serverClosed;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
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

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1) + ".";
}

function statusText(status: number): string {
  return status === 401 ? "Unauthorized" : status === 403 ? "Forbidden" : "Bad Request";
}
