// Everything the relay does for pi's sessions: where they live (resolved
// like pi does), the list a browser shows (SessionCatalog), the checks on
// commands that name a file (switch_session, export_html), downloads, and
// which session a restarted pi reopens.
import { existsSync, lstatSync, realpathSync, type Stats } from "node:fs";
import { pipeline } from "node:stream";
import { readlink } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { basename, isAbsolute, resolve } from "node:path";
import { SESSIONS_API_PATHS, SESSIONS_LIMITS, type SessionsInfo } from "@pier/protocol";
import type { PiLaunch } from "../pi-process.ts";
import { kindOf, openRegularFile } from "../regular-file.ts";
import { SECURITY_HEADERS } from "../static-files.ts";
import { sendApiError, sendJson } from "../workspace/json-http.ts";
import { attachmentDisposition } from "./download-name.ts";
import { piArgsFor, sessionFileIn } from "./session-args.ts";
import { SessionCatalog } from "./session-catalog.ts";
import { resolveSessionDir } from "./session-dir.ts";
import { SessionExports } from "./session-exports.ts";

export type SessionServiceOptions = {
  launch: PiLaunch;
  /** The session file pier was told to open (`pier --session FILE`): allowed even outside the session folder (so is pi's own `-- --session FILE`). */
  explicitSessionFile: string | null;
  log: (line: string) => void;
  /** Session files appeared, grew or went away. */
  onListChanged: () => void;
};

/** `path` as pi should be given it; `real`: where that file is, no link in it. */
type Check = { ok: true; path: string; real: string } | { ok: false; error: string };

const PROC_FD = existsSync("/proc/self/fd");

export class SessionService {
  readonly info: SessionsInfo;
  readonly catalog: SessionCatalog;
  readonly #exports: SessionExports;
  readonly #explicitFile: string | null;
  /** The explicit file's real path when first seen (pinned: see #checkExplicitFile). */
  #explicitReal: string | undefined;
  readonly #cwd: string;
  #searchPrepared = false;
  readonly #stopWatching: () => void;

  private constructor(catalog: SessionCatalog, exports: SessionExports, options: SessionServiceOptions, dir: string, persisted: boolean) {
    this.catalog = catalog;
    this.#exports = exports;
    // The file pier or pi itself was told to open may lie outside the session folder.
    this.#explicitFile = options.explicitSessionFile ?? sessionFileIn(options.launch.args, options.launch.cwd);
    if (this.#explicitFile !== null) this.#checkExplicitFile(this.#explicitFile);
    this.#cwd = options.launch.cwd;
    this.info = { dir, persisted, exportDir: exports.dir };
    this.#stopWatching = catalog.watch(options.onListChanged);
  }

  static async create(options: SessionServiceOptions): Promise<SessionService> {
    const { launch } = options;
    const resolution = await resolveSessionDir({ cwd: launch.cwd, env: launch.env, piArgs: launch.args });
    const catalog = new SessionCatalog({ ...resolution, log: options.log });
    const exports = await SessionExports.create();
    return new SessionService(catalog, exports, options, resolution.dir, resolution.persisted);
  }

  /** Why a browser's command (from the browser with `grantId`) must not reach pi, or null. Synchronous: command order is kept. */
  refuseCommand(type: string, command: Readonly<Record<string, unknown>>, grantId: string): string | null {
    if (type === "switch_session" && typeof command["sessionPath"] === "string") {
      const check = this.#checkSessionFile(command["sessionPath"]);
      return check.ok ? null : `switch_session refused: ${check.error}`;
    }
    if (type === "export_html" && typeof command["outputPath"] === "string") {
      return this.#exports.refuseOutputPath(command["outputPath"], grantId);
    }
    return null;
  }

  /**
   * How to start pi again so it reopens `sessionFile` (the session a browser
   * was on when pi died). A file pi never wrote (it writes after the first
   * answer) means a new, empty session; no file given keeps the original launch.
   */
  restartLaunch(original: PiLaunch, sessionFile: string | undefined): { launch: PiLaunch } | { error: string } {
    if (sessionFile === undefined) return { launch: original };
    const check = this.#checkSessionFile(sessionFile);
    if (!check.ok) {
      if (/^no session file at/.test(check.error)) return { launch: { ...original, args: piArgsFor({ kind: "new" }, original.args, true) } };
      return { error: `pi was not restarted: ${check.error}` };
    }
    return { launch: { ...original, args: piArgsFor({ kind: "file", path: check.path }, original.args, true) } };
  }

  /** The /api/sessions routes, for a browser with `grantId`; false when the URL is not one of them. */
  async handleHttp(request: IncomingMessage, response: ServerResponse, url: URL, grantId: string): Promise<boolean> {
    const path = url.pathname;
    const isList = path === SESSIONS_API_PATHS.list;
    const isDownload = path === SESSIONS_API_PATHS.download;
    const isExport = path.startsWith(SESSIONS_API_PATHS.exportPrefix);
    if (!isList && !isDownload && !isExport) return false;
    request.resume();
    if (request.method !== "GET") {
      sendApiError(response, 405, "method_not_allowed", `${path} accepts GET only.`, {}, { Allow: "GET" });
      return true;
    }
    if (isList) {
      const query = url.searchParams;
      const q = (query.get("q") ?? "").slice(0, SESSIONS_LIMITS.maxQueryLength);
      const offset = boundedInteger(query.get("offset"), 0, 0, Number.MAX_SAFE_INTEGER);
      const limit = boundedInteger(query.get("limit"), SESSIONS_LIMITS.defaultPageSize, 1, SESSIONS_LIMITS.maxPageSize);
      sendJson(response, 200, await this.catalog.list({ offset, limit, query: q }));
      // Someone is looking at the list: a search may follow.
      if (!this.#searchPrepared) {
        this.#searchPrepared = true;
        setTimeout(() => void this.catalog.prepareSearch().catch(() => {}), 50).unref();
      }
      return true;
    }
    if (isExport) {
      await this.#exports.serve(response, path.slice(SESSIONS_API_PATHS.exportPrefix.length), url.searchParams.get("name"), grantId);
      return true;
    }
    await this.#download(response, url.searchParams.get("path") ?? "", url.searchParams.get("name"));
    return true;
  }

  async close(): Promise<void> {
    this.#stopWatching();
    await this.#exports.close();
  }

  /**
   * GET /api/sessions/download: the file is opened once (O_NOFOLLOW, never
   * blocking), its descriptor is checked to be the very file the check
   * approved (where it really is, per /proc/self/fd), and the bytes are sent
   * from that descriptor. Checking a path and then opening it again served a
   * file outside the session folder when a link was swapped in between.
   */
  async #download(response: ServerResponse, path: string, name: string | null): Promise<void> {
    const check = this.#checkSessionFile(path);
    if (!check.ok) return sendApiError(response, check.error.startsWith("no session file") ? 404 : 403, "forbidden_path", check.error);
    const opened = await openRegularFile(check.path, { what: "a session file", noFollow: true });
    if (!opened.ok) {
      if (opened.code === "ENOENT") return sendApiError(response, 404, "not_found", `no session file at ${check.path}`);
      return sendApiError(response, 403, "forbidden_path", opened.message);
    }
    const { handle, stats } = opened;
    const where = await openedFileIs(handle.fd, stats, check.real);
    if (where !== null) {
      await handle.close().catch(() => {});
      return sendApiError(response, 403, "forbidden_path", `${check.path} changed while it was being opened (${where}); nothing was sent`);
    }
    const size = stats.size;
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Content-Disposition": attachmentDisposition(name ?? basename(check.path, ".jsonl"), ".jsonl"),
      "Content-Length": String(size),
      "Cache-Control": "no-store",
    });
    if (size === 0) {
      response.end();
      return void handle.close().catch(() => {});
    }
    // pi may append while we read: send exactly the bytes the size announced.
    // pipeline: the descriptor is closed when the browser goes away mid-download (see static-files.ts).
    pipeline(handle.createReadStream({ start: 0, end: size - 1 }), response, () => {});
  }

  #checkSessionFile(path: string): Check {
    // pi reports a relative sessionFile when its --session-dir was relative (to its cwd).
    const absolute = isAbsolute(path) ? path : resolve(this.#cwd, path);
    if (this.#explicitFile !== null && absolute === this.#explicitFile) return this.#checkExplicitFile(absolute);
    return this.catalog.checkSwitchTarget(absolute);
  }

  /**
   * The file pier was told to open may be anywhere (the user named it) and
   * may even be reached through a link the user chose; but it must still be
   * the file it was when first seen: its real path is pinned then, and a
   * later link or swap that makes the name lead elsewhere is refused.
   */
  #checkExplicitFile(absolute: string): Check {
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch {
      return { ok: false, error: `no session file at ${absolute}` };
    }
    this.#explicitReal ??= real;
    if (real !== this.#explicitReal) return { ok: false, error: `${absolute} now leads to ${real}, not to ${this.#explicitReal} as when pier started` };
    const info = lstatSync(real, { throwIfNoEntry: false });
    if (info === undefined) return { ok: false, error: `no session file at ${absolute}` };
    if (!info.isFile()) return { ok: false, error: `${absolute} is ${kindOf(info)}, not a session file` };
    return { ok: true, path: absolute, real };
  }
}

/** Why the open descriptor is not the file at `real` (a message), or null when it is. */
async function openedFileIs(fd: number, stats: Stats, real: string): Promise<string | null> {
  if (stats.nlink > 1) return "it has other hard links";
  if (PROC_FD) {
    const actual = await readlink(`/proc/self/fd/${fd}`).catch(() => null);
    return actual === real ? null : `it is ${actual ?? "somewhere unknown"}, not ${real}`;
  }
  // Without /proc: the same file as the name now (a narrower window, not none).
  const named = lstatSync(real, { throwIfNoEntry: false });
  return named !== undefined && named.dev === stats.dev && named.ino === stats.ino ? null : `it is not ${real}`;
}

function boundedInteger(text: string | null, fallback: number, min: number, max: number): number {
  if (text === null || !/^\d{1,16}$/.test(text)) return fallback;
  return Math.min(max, Math.max(min, Number(text)));
}
