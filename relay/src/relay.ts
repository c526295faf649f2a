// The relay: live sessions (each a pi child) and any number of browsers.
// HTTP serves the SPA behind the access rules; a live session's WebSocket
// carries its pi's stdout bytes out (binary frames, unchanged, in order) and
// single command lines in. `/live/<id>/…` names a session; an unprefixed
// path is for the browser's default one (live-route.ts). The board has its
// own routes and socket (live/live-api.ts, live/board-sockets.ts).
import { stat } from "node:fs/promises";
import { type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { LIVE_API_PATHS, MAX_COMMAND_BYTES, RELAY_SOCKET_PATH, TERMINAL_API_PATHS, type DemoInfo } from "@pier/protocol";
import { checkAccess, isAllowedHost } from "./access-control.ts";
import { AccessLinks, type Grant } from "./access-links.ts";
import { ConnectionLimits } from "./connection-limits.ts";
import { admitHttp, header, redeemLink, serveHttp } from "./http-door.ts";
import { sendStatusPage } from "./http-pages.ts";
import { keptHostName } from "./kept-host-name.ts";
import { printedHost, siteNamesFor, type Site } from "./launch-host.ts";
import { listen } from "./listen.ts";
import { BoardMemory, boardToRemember, restoreBoard } from "./live/board-memory.ts";
import { BoardSockets } from "./live/board-sockets.ts";
import { handleLiveApi } from "./live/live-api.ts";
import { liveRoute } from "./live/live-route.ts";
import type { LiveSession } from "./live/live-session.ts";
import { DEFAULT_MAX_RUNNING, LiveSessions } from "./live/live-sessions.ts";
import { pierStateDir } from "./live/state-dir.ts";
import { WorkspaceList } from "./live/workspace-list.ts";
import { handleWorkspacesApi } from "./live/workspaces-api.ts";
import { Worktrees } from "./live/worktrees.ts";
import { handleWorktreesApi } from "./live/worktrees-api.ts";
import type { PiLaunch, PiProcess } from "./pi-process.ts";
import { sendText, serveStatic } from "./static-files.ts";
import { admitTerminalSocket } from "./terminal/terminal-api.ts";
import { sendApiError } from "./workspace/json-http.ts";

export type RelayOptions = {
  host: string;
  /** 0 picks a free port. */
  port: number;
  launch: PiLaunch;
  demo: DemoInfo | null;
  /** The built SPA. */
  webRoot: string;
  /** Bound of the stdout replay kept for late browsers (per live session). */
  replayBytes: number;
  /** How often browsers are pinged and pages hear from the relay (default: heartbeat.ts). */
  heartbeatMs?: number;
  /** The session file pier was told to open (`--session FILE`), if any. */
  explicitSessionFile?: string | null;
  /** More workspace folders given with --cwd (listed for new agents; pi starts in launch.cwd only). */
  workspaces?: string[];
  /** Where agents' git worktrees go (--worktrees); null or absent: beside each repository. */
  worktreesDir?: string | null;
  /** Where pier remembers recent workspaces (default: state-dir.ts). */
  stateDir?: string;
  /** Pi children that may run at once (default: DEFAULT_MAX_RUNNING). */
  maxRunning?: number;
  /** A session idle this long with nobody watching has its pi stopped until it is used again; 0 or absent: never. */
  idleStopMs?: number;
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
  /** The primary live session's pi (the one pier started with). */
  pi: PiProcess;
  live: LiveSessions;
  /** Tells every browser of the primary session something (e.g. that the demo model is in use). */
  notice(level: "info" | "warning", message: string): void;
  close(): Promise<void>;
};

const CLOSE_GOING_AWAY = 1001;

export async function startRelay(options: RelayOptions): Promise<RunningRelay> {
  const links = new AccessLinks();
  let board: BoardSockets | null = null;
  // The demo's scratch copy is listed, never remembered: it is gone once pier stops.
  const stateDir = options.stateDir ?? pierStateDir();
  const workspaces = await WorkspaceList.open({
    stateDir,
    given: options.demo ? (options.workspaces ?? []) : [options.launch.cwd, ...(options.workspaces ?? [])],
    transient: options.demo ? [options.launch.cwd] : [],
    log: options.log,
  });
  const worktrees = new Worktrees(options.worktreesDir ?? null);
  // The agents of the last run in this folder come back asleep (board-memory.ts). Not the demo's:
  // its scratch project and pi's session files (demo/agent-dir.ts) are gone once pier stops.
  const memory = options.demo ? null : await BoardMemory.open({ stateDir, folder: options.launch.cwd, log: options.log });
  const live = new LiveSessions({
    launch: options.launch,
    explicitSessionFile: options.explicitSessionFile ?? null,
    demo: options.demo,
    replayBytes: options.replayBytes,
    heartbeatMs: options.heartbeatMs,
    links,
    maxRunning: options.maxRunning ?? DEFAULT_MAX_RUNNING,
    idleStopMs: options.idleStopMs ?? 0,
    onBoardChange: () => {
      board?.changed();
      void memory?.note(boardToRemember(live, worktrees));
    },
    // A git worktree pier made for an agent is the agent's, not a workspace to list (its `.git` is a file, not a folder).
    onStarted: async (cwd) => {
      if (!(await isLinkedWorktree(cwd))) await workspaces.use(cwd);
    },
    log: options.log,
  });
  const primary = await live.createPrimary();
  if (memory) await restoreBoard(memory.remembered, live, worktrees, options.log);
  board = new BoardSockets(links, live);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_COMMAND_BYTES * 2 });
  const connections = new ConnectionLimits();
  let port = options.port;
  // pier's own host name for this launch (launch-host.ts): what its links and cookies name.
  // Kept across runs in pier's state folder, so an installed app finds pier again (kept-host-name.ts).
  const names = siteNamesFor(options.host, await keptHostName(stateDir, options.log));
  const site: Site = {
    ...names,
    get port() {
      return port;
    },
  };

  /** The live session a request goes to, or why none: a scoped grant reaches its own session only. */
  function target(pathname: string, grant: Grant): { session: LiveSession; rest: string } | { status: 403 | 404; message: string } {
    const route = liveRoute(pathname);
    if (route !== null && "invalid" in route) return { status: 404, message: "There is no such live session." };
    const id = route?.id ?? grant.scope ?? primary.id;
    const session = live.get(id);
    if (session === undefined) return { status: 404, message: `Live session ${id} is not running in this pier any more (it was archived).` };
    if (grant.scope !== null && grant.scope !== id) return { status: 403, message: "The link this browser was opened with is for another live session." };
    return { session, rest: route?.rest ?? pathname };
  }

  const server = serveHttp(handleHttp, options.log);

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://relay.invalid");
    if (url.searchParams.has("token")) return redeemLink(request, response, url, links, site);
    // The app's manifest and icons: the browser fetches them without the session cookie (to install Pier as an app); nothing in them is private.
    if (isInstallFile(url.pathname) && (request.method === "GET" || request.method === "HEAD") && isAllowedHost(request.headers.host, site)) {
      return serveStatic(options.webRoot, url.pathname, response, request.method === "HEAD", header(request, "accept-encoding"));
    }
    const grant = admitHttp(request, response, url, links, site);
    if (grant === null) return;
    // Viewers look: anything that changes the workspace needs a driver.
    if (grant.role !== "driver" && request.method !== "GET" && request.method !== "HEAD") {
      request.resume();
      return sendApiError(
        response,
        403,
        "forbidden",
        "Viewers can look, not change: only a driver can save, create, rename or delete files, commit, change branches, pull or push, or start and stop agents.",
      );
    }
    if (await handleWorktreesApi(worktrees, live, request, response, url, grant)) return;
    if (await handleLiveApi(live, request, response, url, grant)) return;
    if (await handleWorkspacesApi(workspaces, request, response, url, grant)) return;
    const to = target(url.pathname, grant);
    if ("status" in to) {
      request.resume();
      // A page asked for gets a page that says why; an API call, JSON.
      if (liveRoute(url.pathname) !== null && !url.pathname.includes("/api/")) return sendStatusPage(response, to.status, to.status === 403 ? "Not for this link" : "No such agent", to.message);
      return sendApiError(response, to.status, to.status === 403 ? "forbidden" : "not_found", to.message);
    }
    const inner = new URL(to.rest + url.search, url);
    if (await to.session.handleHttp(request, response, inner, grant)) return;
    if (request.method !== "GET" && request.method !== "HEAD") return sendText(response, 405, "Method not allowed.");
    await serveStatic(options.webRoot, inner.pathname, response, request.method === "HEAD", header(request, "accept-encoding"));
  }

  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const refuse = (status: number, reason: string) =>
      socket.end(`HTTP/1.1 ${status} ${statusText(status)}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason.replace(/[\r\n]/g, " ")}\n`);
    const url = new URL(request.url ?? "/", "http://relay.invalid");
    const path = url.pathname;
    const decision = checkAccess(
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
    if (!decision.allow) return void refuse(decision.status, decision.reason);
    const grant = decision.grant;
    let accept: ((ws: import("ws").WebSocket) => void) | null = null;
    if (path === LIVE_API_PATHS.boardSocket) {
      accept = (ws) => board!.add(ws, grant);
    } else {
      const to = target(path, grant);
      if ("status" in to) return void refuse(to.status, to.message);
      if (to.rest === TERMINAL_API_PATHS.socket) {
        // A shell's socket (terminal/terminal-api.ts): a driver's, or a viewer's to a shared shell (watch-only); refused before it opens.
        const admitted = admitTerminalSocket(to.session.terminals, url, grant);
        if ("status" in admitted) return void refuse(admitted.status, admitted.reason);
        accept = admitted.accept;
      } else if (to.rest === RELAY_SOCKET_PATH) {
        accept = (ws) => to.session.addBrowser(ws, grant, !to.session.asleep || live.capReached() === null);
      } else {
        return void refuse(400, "unknown WebSocket path");
      }
    }
    const claim = connections.claim(grant);
    if (!claim.ok) return void refuse(claim.status, claim.reason);
    // The TCP socket's close, not the WebSocket's: it comes whether or not the upgrade completes.
    socket.once("close", claim.release);
    wss.handleUpgrade(request, socket, head, accept);
  });

  try {
    await listen(server, options.port, options.host);
  } catch (error) {
    await live.closeAll(CLOSE_GOING_AWAY, "pier could not start");
    throw error;
  }
  const address = server.address();
  port = typeof address === "object" && address ? address.port : options.port;
  primary.start();

  const urlHost = printedHost(options.host, names.launchHost);
  const freshUrl = () => `http://${urlHost}:${port}/?token=${links.issue("driver").token}`;
  return {
    url: freshUrl(),
    freshUrl,
    port,
    links,
    pi: primary.pi,
    live,
    notice: (level, message) => primary.notice(level, message),
    close: async () => {
      // The board as it is now, whatever change was still waiting to be written (board-memory.ts).
      await memory?.note(boardToRemember(live, worktrees));
      await closeRelay(server, wss, live, board!);
    },
  };
}

async function closeRelay(server: Server, wss: WebSocketServer, live: LiveSessions, board: BoardSockets): Promise<void> {
  board.closeAll(CLOSE_GOING_AWAY, "pier is shutting down");
  const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  wss.close();
  await live.closeAll(CLOSE_GOING_AWAY, "pier is shutting down");
  await serverClosed;
}

async function isLinkedWorktree(folder: string): Promise<boolean> {
  return stat(join(folder, ".git")).then(
    (info) => info.isFile(),
    () => false,
  );
}

/** The web manifest and its icons (web/public): public, so a browser can install Pier as an app. */
function isInstallFile(pathname: string): boolean {
  return pathname === "/manifest.webmanifest" || /^\/icons\/pier(-\d+)?\.(png|svg)$/.test(pathname);
}

function statusText(status: number): string {
  return status === 401 ? "Unauthorized" : status === 403 ? "Forbidden" : status === 404 ? "Not Found" : status === 429 ? "Too Many Requests" : status === 503 ? "Service Unavailable" : "Bad Request";
}
