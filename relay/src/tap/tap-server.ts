// The browser side of `pier tap`: the page and its relay socket behind the
// same door as pier (loopback by default, a per-launch secret link traded
// for an HttpOnly cookie, Host and Origin checks: http-door.ts), showing the
// tapped conversation read-only.
//
// Who may use what: every link is a viewer link (there is no driver: pi is
// the tapped client's). A viewer gets the page, and on its socket pi's
// stdout bytes (binary frames, the replay first: browser-hub.ts), pi's
// stderr lines, and each line the client wrote to pi as a `command_sent`
// frame. Whatever a browser sends is refused (`forbidden`): a command, a
// read like get_state included (its answer would land in the client's
// stream, a response it never asked for), or a pier.* request. No HTTP
// route changes anything; /api/* answers 404 (no workspace, no sessions).
//
// Browsers never slow the client: pi's stdout is never paused for them
// (`holds: false`); a browser that falls behind catches up from the replay,
// or is closed (4008) and reloads, as on pier.
import { type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { MAX_COMMAND_BYTES, RELAY_PROTOCOL_VERSION, RELAY_SOCKET_PATH, type ChildStatus, type Person, type RelayFrame } from "@pier/protocol";
import { checkAccess } from "../access-control.ts";
import { AccessLinks } from "../access-links.ts";
import { BrowserHub, MAX_BACKLOG, type BrowserClient } from "../browser-hub.ts";
import { classifyBrowserFrame } from "../browser-frame.ts";
import { Heartbeat } from "../heartbeat.ts";
import { admitHttp, header, redeemLink, serveHttp } from "../http-door.ts";
import { printedHost, siteNamesFor, type Site } from "../launch-host.ts";
import { listen } from "../listen.ts";
import { sendText, serveStatic } from "../static-files.ts";
import { StdoutReplay } from "../stdout-replay.ts";
import { SentLog, type SenderLookup } from "../sent-log.ts";
import { RELAY_VERSION } from "../version.ts";
import { sendApiError } from "../workspace/json-http.ts";

/** Who the tapped client is on the page: the sender of its commands. */
export const TAP_CLIENT: Person = { clientId: "tap-client", name: "RPC client (tap)", role: "driver", colour: "#6b7280" };
export const TAP_READ_ONLY_MESSAGE =
  "pier tap is a read-only view of another client's session: nothing a browser sends reaches pi (not even a read such as get_state, whose answer would land in that client's stream)";
const RECENT_STDERR_LINES = 200;
/** Every command comes from the one client. */
const CLIENT_ONLY: SenderLookup = { get: () => TAP_CLIENT, grantOf: () => ({ id: TAP_CLIENT.clientId }) };
const CLOSE_GOING_AWAY = 1001;

export type TapServerOptions = {
  host: string;
  port: number;
  webRoot: string;
  replayBytes: number;
  /** The command the tap runs, as shown on the page (secrets already scrubbed). */
  command: string[];
  cwd: string;
  heartbeatMs?: number;
  log: (line: string) => void;
};

export class TapServer {
  readonly links = new AccessLinks();
  readonly #options: TapServerOptions;
  readonly #replay: StdoutReplay;
  readonly #hub: BrowserHub;
  readonly #heartbeat: Heartbeat;
  readonly #recentStderr: string[] = [];
  /** The client's recent prompts, so that a page opening later still says who sent them (sent-log.ts). */
  readonly #sentLog = new SentLog();
  #child: ChildStatus = { state: "starting", epoch: 1 };
  #server: ReturnType<typeof serveHttp> | null = null;
  #wss: WebSocketServer | null = null;
  #site: Site | null = null;

  constructor(options: TapServerOptions) {
    this.#options = options;
    this.#replay = new StdoutReplay(options.replayBytes);
    // The client alone paces pi: a browser is never waited for.
    this.#hub = new BrowserHub(this.#replay, { pause: () => {}, resume: () => {}, holds: false });
    this.#heartbeat = new Heartbeat(options.heartbeatMs);
  }

  /** A piece of pi's stdout, after it was handed to the client's stream: copied at once, left to the caller (that stream may still hold it). */
  stdout(bytes: Buffer): void {
    this.#hub.copyStdout(bytes);
  }

  stderrLine(line: string): void {
    this.#recentStderr.push(line);
    if (this.#recentStderr.length > RECENT_STDERR_LINES) this.#recentStderr.shift();
    this.#hub.broadcastFrame({ type: "stderr", line });
  }

  /** One line the client wrote to pi: after the stdout pi wrote before it, as the tap saw them. */
  clientLine(line: string): void {
    this.#hub.flushStdout();
    this.#hub.broadcastFrame({ type: "command_sent", sender: TAP_CLIENT, line, at: Date.now() });
    // Only a prompt, steer or follow-up is kept (it has a message): the others are not parsed at all.
    const command = line.includes('"message"') ? parseCommand(line) : null;
    if (command !== null) this.#sentLog.note(CLIENT_ONLY, TAP_CLIENT.clientId, String(command["type"]), command, line, this.#hub.streamEnd);
  }

  childStatus(child: ChildStatus): void {
    this.#child = child;
    if (child.state === "starting") return;
    this.#hub.broadcastAfterStdout({ type: child.state === "running" ? "child_started" : "child_exited", child });
  }

  /** Listens; resolves with the first viewer link (the secret is in it: print it nowhere but where asked). */
  async listen(): Promise<{ url: string; port: number }> {
    const options = this.#options;
    let port = options.port;
    const names = siteNamesFor(options.host);
    const site: Site = {
      ...names,
      get port() {
        return port;
      },
    };
    this.#site = site;
    const links = this.links;
    const server = serveHttp(async (request, response) => {
      const url = new URL(request.url ?? "/", "http://relay.invalid");
      if (url.searchParams.has("token")) return redeemLink(request, response, url, links, site);
      if (admitHttp(request, response, url, links, site) === null) return;
      request.resume();
      if (request.method !== "GET" && request.method !== "HEAD") return sendText(response, 405, "Method not allowed: pier tap is read-only.");
      if (url.pathname.startsWith("/api/")) return sendApiError(response, 404, "not_found", "pier tap shows one RPC conversation: no workspace, no sessions.");
      await serveStatic(options.webRoot, url.pathname, response, request.method === "HEAD", header(request, "accept-encoding"));
    }, options.log);
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_COMMAND_BYTES * 2 });
    server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on("error", () => socket.destroy());
      const refuse = (status: number, reason: string) =>
        socket.end(
          `HTTP/1.1 ${status} ${status === 401 ? "Unauthorized" : status === 404 ? "Not Found" : "Forbidden"}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason.replace(/[\r\n]/g, " ")}\n`,
        );
      const decision = checkAccess(
        { host: request.headers.host, origin: request.headers.origin, secFetchSite: header(request, "sec-fetch-site"), cookie: request.headers.cookie, isWebSocket: true },
        site,
        (cookie) => links.grantFor(cookie),
      );
      if (!decision.allow) return void refuse(decision.status, decision.reason);
      if (new URL(request.url ?? "/", "http://relay.invalid").pathname !== RELAY_SOCKET_PATH) return void refuse(404, "pier tap has one socket: /ws");
      wss.handleUpgrade(request, socket, head, (ws) => this.#addBrowser(ws));
    });
    await listen(server, options.port, options.host);
    const address = server.address();
    port = typeof address === "object" && address ? address.port : options.port;
    this.#server = server;
    this.#wss = wss;
    return { url: this.freshUrl(), port };
  }

  /** A viewer link (many browsers may open it, for VIEWER_LINK_TTL_MS). */
  freshUrl(): string {
    const site = this.#site!;
    return `http://${printedHost(this.#options.host, site.launchHost)}:${site.port}/?token=${this.links.issue("viewer").token}`;
  }

  async close(): Promise<void> {
    this.#heartbeat.stop();
    this.#hub.closeAll(CLOSE_GOING_AWAY, "pier tap ended: the client's pi exited");
    const server = this.#server;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    this.#wss?.close();
    await closed;
  }

  #addBrowser(ws: WebSocket): void {
    const hub = this.#hub;
    const client = hub.add(ws, (client) => this.#hello(client));
    this.#heartbeat.watch(client);
    hub.broadcastFrame({ type: "peers", count: hub.size });
    ws.on("message", (data, isBinary) => this.#onBrowserFrame(client, data, isBinary));
    ws.on("error", () => ws.terminate());
    ws.on("close", () => {
      this.#heartbeat.forget(client);
      hub.remove(client);
      hub.broadcastFrame({ type: "peers", count: hub.size });
    });
  }

  #hello(client: BrowserClient): RelayFrame {
    const you: Person = { clientId: client.id, name: "Viewer", role: "viewer", colour: "#1971c2" };
    return {
      type: "hello",
      protocolVersion: RELAY_PROTOCOL_VERSION,
      clientId: client.id,
      relayVersion: RELAY_VERSION,
      cwd: this.#options.cwd,
      piCommand: this.#options.command,
      demo: null,
      child: this.#child,
      replay: { bytes: this.#replay.bytes, truncated: this.#replay.truncated },
      recentStderr: [...this.#recentStderr],
      peers: this.#hub.size,
      limits: { maxCommandBytes: MAX_COMMAND_BYTES },
      sessions: null,
      you,
      people: [you, TAP_CLIENT],
      heartbeatMs: this.#heartbeat.intervalMs,
      sent: this.#sentLog.forJoiner("", this.#replay.start),
      tap: { client: TAP_CLIENT.name },
    };
  }

  /** Everything a browser sends is refused: pi is the tapped client's. */
  #onBrowserFrame(client: BrowserClient, data: RawData, isBinary: boolean): void {
    // A browser sending faster than it reads its refusals gets no more of them.
    if (!client.open || client.inFlight > MAX_BACKLOG) return;
    if (isBinary) return client.sendFrame({ type: "error", code: "binary_frame", message: "send commands as text frames (JSON), not binary" });
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    const frame = classifyBrowserFrame(bytes);
    if (frame.kind === "refused") return client.sendFrame({ type: "error", code: frame.code, message: frame.message, ...(frame.command ? { command: frame.command } : {}) });
    const command = frame.kind === "request" ? { type: frame.request.type } : { type: frame.type, ...(frame.id !== undefined ? { id: frame.id } : {}) };
    client.sendFrame({ type: "error", code: "forbidden", message: TAP_READ_ONLY_MESSAGE, command });
  }
}

function parseCommand(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
