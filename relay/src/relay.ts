// The relay: one pi child, any number of browsers. HTTP serves the SPA behind
// the access rules; the WebSocket carries pi's stdout bytes out (binary
// frames, unchanged, in order) and single command lines in.
import { type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { MAX_COMMAND_BYTES, RELAY_SOCKET_PATH, type DemoInfo, type WorkspaceTrustInfo } from "@pier/protocol";
import { checkAccess } from "./access-control.ts";
import { AccessLinks, type Grant } from "./access-links.ts";
import type { BrowserHub } from "./browser-hub.ts";
import { ConnectionLimits } from "./connection-limits.ts";
import { admitHttp, header, redeemLink, serveHttp } from "./http-door.ts";
import { printedHost, siteNamesFor, type Site } from "./launch-host.ts";
import { listen } from "./listen.ts";
import { PiBridge } from "./pi-bridge.ts";
import { PiProcess, type PiLaunch } from "./pi-process.ts";
import { WorkspaceTrustService } from "./workspace-trust-service.ts";
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
  /** How often browsers are pinged and pages hear from the relay (default: heartbeat.ts). */
  heartbeatMs?: number;
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
  // One trust decision for pi and git (workspace-trust-service.ts); the pages hear of changes through the bridge's hub.
  let announceTrust = (_info: WorkspaceTrustInfo) => {};
  const trust = await WorkspaceTrustService.create({
    cwd: options.launch.cwd,
    env: options.launch.env,
    piArgs: options.launch.args,
    log: options.log,
    onChange: (info) => {
      pi.launch = { ...pi.launch, args: trust.piArgs(pi.launch.args) };
      announceTrust(info);
    },
  });
  const pi = new PiProcess({ ...options.launch, args: trust.piArgs(options.launch.args) });
  // Late-bound: the service reports list changes through the hub the bridge creates.
  let announceSessions = () => {};
  const sessions = await SessionService.create({
    launch: options.launch,
    explicitSessionFile: options.explicitSessionFile ?? null,
    log: options.log,
    onListChanged: () => announceSessions(),
  });
  const bridge = new PiBridge({
    pi,
    demo: options.demo,
    replayBytes: options.replayBytes,
    heartbeatMs: options.heartbeatMs,
    sessions,
    links,
    trust,
    log: options.log,
  });
  const hub = bridge.hub;
  announceTrust = (info) => {
    hub.broadcastFrame({ type: "workspace_trust", trust: info });
    // A driver's git status may differ now (filters on or off): pages load it again.
    hub.broadcastFrame({ type: "workspace_changed", paths: [], git: true });
  };
  announceSessions = () => hub.broadcastFrame({ type: "sessions_changed" });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_COMMAND_BYTES * 2 });
  const connections = new ConnectionLimits();
  let port = options.port;
  // pier's own host name for this launch (launch-host.ts): what its links and cookies name.
  const names = siteNamesFor(options.host);
  const site: Site = {
    ...names,
    get port() {
      return port;
    },
  };
  const workspace = new WorkspaceFiles(options.launch.cwd);
  const git = new GitFacts(workspace.paths);
  // Who made each HTTP change, to say so to everyone ("Ada saved src/app.ts").
  const grants = new WeakMap<IncomingMessage, Grant>();
  const workspaceApi = createWorkspaceApi({
    files: workspace,
    git,
    log: options.log,
    // The repository's own commands (git filters…) run for a driver in a trusted workspace only, read afresh each time.
    repoCommands: async (request) => grants.get(request)?.role === "driver" && (await trust.refresh()).trusted,
    // Viewers do not read files that may hold secrets (workspace/viewer-reads.ts).
    isDriver: (request) => grants.get(request)?.role === "driver",
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

  const server = serveHttp(handleHttp, options.log);

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://relay.invalid");
    if (url.searchParams.has("token")) return redeemLink(request, response, url, links, site);
    const grant = admitHttp(request, response, url, links, site);
    if (grant === null) return;
    // Viewers look: anything that changes the workspace needs a driver.
    if (grant.role !== "driver" && request.method !== "GET" && request.method !== "HEAD") {
      request.resume();
      return sendApiError(response, 403, "forbidden", "Viewers can look, not change: only a driver can save, create, rename or delete files.");
    }
    grants.set(request, grant);
    if (await sessions.handleHttp(request, response, url, grant.id)) return;
    if (await workspaceApi(request, response, url)) return;
    if (request.method !== "GET" && request.method !== "HEAD") return sendText(response, 405, "Method not allowed.");
    await serveStatic(options.webRoot, url.pathname, response, request.method === "HEAD", header(request, "accept-encoding"));
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
            site,
            (cookie) => links.grantFor(cookie),
          );
    if (!decision.allow) {
      const reason = decision.reason.replace(/[\r\n]/g, " ");
      socket.end(`HTTP/1.1 ${decision.status} ${statusText(decision.status)}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason}\n`);
      return;
    }
    const grant = decision.grant;
    const claim = connections.claim(grant);
    if (!claim.ok) {
      socket.end(`HTTP/1.1 ${claim.status} ${statusText(claim.status)}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${claim.reason}\n`);
      return;
    }
    // The TCP socket's close, not the WebSocket's: it comes whether or not the upgrade completes.
    socket.once("close", claim.release);
    wss.handleUpgrade(request, socket, head, (ws) => bridge.addBrowser(ws, grant));
  });

  try {
    await listen(server, options.port, options.host);
  } catch (error) {
    await sessions.close();
    throw error;
  }
  const address = server.address();
  port = typeof address === "object" && address ? address.port : options.port;
  pi.start();
  // Not awaited: a large workspace's walk must not delay the URL.
  void watcher.start();
  void gitWatcher.refresh();
  trust.watch();

  const urlHost = printedHost(options.host, names.launchHost);
  const freshUrl = () => `http://${urlHost}:${port}/?token=${links.issue("driver").token}`;
  return {
    url: freshUrl(),
    freshUrl,
    port,
    links,
    pi,
    notice: (level, message) => hub.broadcastFrame({ type: "notice", level, message }),
    close: async () => {
      trust.close();
      watcher.close();
      gitWatcher.close();
      bridge.heartbeat.stop();
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

function statusText(status: number): string {
  return status === 401 ? "Unauthorized" : status === 403 ? "Forbidden" : status === 429 ? "Too Many Requests" : status === 503 ? "Service Unavailable" : "Bad Request";
}
