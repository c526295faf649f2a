// The search routes of one live session (the relay strips `/live/<id>` and has
// checked Host, Origin and the session cookie; types in @pier/protocol's
// search-api.ts). Who may use them:
// - GET /api/search: drivers and viewers. A viewer never gets a line of a
//   file a viewer may not read (viewer-reads.ts: secrets by name, files
//   .gitignore ignores), and may not ask for ignored files.
// - POST /api/search/preview and /api/search/replace: drivers only (a
//   replace writes files), with the page's own Origin like every change.
import type { IncomingMessage, ServerResponse } from "node:http";
import { SEARCH_API_PATHS, SEARCH_LIMITS, type SearchMatchRecord, type SearchRecord } from "@pier/protocol";
import type { Grant } from "../access-links.ts";
import { isSameOrigin } from "../access-control.ts";
import { SECURITY_HEADERS } from "../static-files.ts";
import { runGitGrep } from "./content-search.ts";
import { GitignoreRules } from "./gitignore-rules.ts";
import type { GrepLine } from "./grep-output.ts";
import { readJsonObject, sendApiError, sendJson } from "./json-http.ts";
import { buildLineRegExp, cutLine, matchRanges, parseSearchQuery } from "./search-pattern.ts";
import { previewReplace, replaceInFiles } from "./search-replace.ts";
import { isSecretByName } from "./viewer-reads.ts";
import { WorkspaceError } from "./workspace-error.ts";
import type { WorkspaceFiles } from "./workspace-files.ts";

const BODY_LIMIT = 4 * 1024 * 1024;
const DRIVERS_ONLY = "Only a driver can replace across files: a replace writes the workspace's files.";

export type SearchApiDeps = {
  files: WorkspaceFiles;
  log: (line: string) => void;
  /** Told after a replace wrote a file, with the request that did it. */
  onReplaced?: (request: IncomingMessage, path: string) => void;
  /** The git to run (tests put a wrapper here). */
  gitCommand?: string;
};

/** Answers the search routes; false when `url` is none of them. */
export async function handleSearchHttp(deps: SearchApiDeps, request: IncomingMessage, response: ServerResponse, url: URL, grant: Grant): Promise<boolean> {
  const path = url.pathname;
  if (path !== SEARCH_API_PATHS.search && path !== SEARCH_API_PATHS.preview && path !== SEARCH_API_PATHS.replace) return false;
  const method = request.method ?? "GET";
  try {
    if (path === SEARCH_API_PATHS.search) {
      if (method !== "GET") throw new WorkspaceError(405, "method_not_allowed", `${path} accepts GET only.`);
      await streamSearch(deps, request, response, url, grant.role === "driver");
      return true;
    }
    if (method !== "POST") throw new WorkspaceError(405, "method_not_allowed", `${path} accepts POST only.`);
    if (grant.role !== "driver") throw new WorkspaceError(403, "forbidden", DRIVERS_ONLY);
    if (!isSameOrigin(header(request, "origin"), header(request, "host"))) {
      throw new WorkspaceError(403, "origin_required", "Changes must come from the page pier serves (its Origin header is missing or foreign).");
    }
    const body = await readJsonObject(request, BODY_LIMIT);
    const query = parseSearchQuery(body.query);
    if (typeof body.replacement !== "string") throw new WorkspaceError(400, "bad_request", '"replacement" must be a string (it may be empty).');
    if (path === SEARCH_API_PATHS.preview) {
      sendJson(response, 200, await previewReplace(deps.files, query, body.replacement, deps.gitCommand));
    } else {
      const result = await replaceInFiles(deps.files, query, body.replacement, body.files);
      sendJson(response, 200, result);
      for (const file of result.replaced) deps.onReplaced?.(request, file.path);
    }
  } catch (error) {
    if (!request.complete) request.resume();
    if (response.headersSent) {
      response.destroy();
      return true;
    }
    if (error instanceof WorkspaceError) sendApiError(response, error.status, error.code, error.message, error.extra);
    else {
      deps.log(`search ${method} ${path} failed: ${error instanceof Error ? error.message : String(error)}`);
      sendApiError(response, 500, "internal", "The search failed unexpectedly.");
    }
  }
  return true;
}

/** GET /api/search: NDJSON, a line per matching line as git finds it, then `done` (or `error`). */
async function streamSearch(deps: SearchApiDeps, request: IncomingMessage, response: ServerResponse, url: URL, driver: boolean): Promise<void> {
  const started = performance.now();
  const query = parseSearchQuery(url.searchParams);
  if (!driver && query.ignored) throw new WorkspaceError(403, "viewer_secret", "Files .gitignore ignores are kept from viewers; only a driver can search them.");
  const rootReal = await deps.files.paths.rootReal();
  const regExp = buildLineRegExp(query);
  const abort = new AbortController();
  // The page started another search, or closed: git is killed at once.
  response.once("close", () => abort.abort());
  response.writeHead(200, { ...SECURITY_HEADERS, "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" });
  response.flushHeaders();
  const mayShow = driver ? null : viewerFilter(rootReal);
  let lines = 0;
  let matches = 0;
  let truncated = false;
  const files = new Set<string>();
  const send = (records: SearchRecord[]): boolean | Promise<boolean> => {
    if (records.length === 0 || response.destroyed) return !response.destroyed;
    const fits = response.write(records.map((record) => JSON.stringify(record)).join("\n") + "\n");
    return fits ? true : new Promise<boolean>((resolve) => response.once("drain", () => resolve(true)).once("close", () => resolve(false)));
  };
  const take = (found: GrepLine[]): SearchRecord[] => {
    const records: SearchRecord[] = [];
    for (const line of found) {
      if (lines >= SEARCH_LIMITS.maxMatches) {
        truncated = true;
        break;
      }
      records.push(toRecord(line, regExp));
      files.add(line.path);
      lines++;
      const record = records.at(-1) as SearchMatchRecord;
      matches += record.matchCount ?? Math.max(1, record.ranges.length);
    }
    return records;
  };
  const outcome = await runGitGrep(rootReal, query, {
    signal: abort.signal,
    command: deps.gitCommand,
    onLines: (found) => {
      if (mayShow === null) {
        const sent = send(take(found));
        return truncated ? false : sent;
      }
      return (async () => {
        const shown: GrepLine[] = [];
        for (const line of found) if (await mayShow(line.path)) shown.push(line);
        const sent = await send(take(shown));
        return truncated ? false : sent;
      })();
    },
  });
  if (response.destroyed) return;
  const elapsedMs = Math.round(performance.now() - started);
  const last: SearchRecord = outcome.ok ? { type: "done", files: files.size, lines, matches, truncated, notRepo: outcome.notRepo, elapsedMs } : { type: "error", message: outcome.message };
  response.end(JSON.stringify(last) + "\n");
}

function toRecord(found: GrepLine, regExp: RegExp): SearchMatchRecord {
  const ranges = matchRanges(regExp, found.text);
  const [focusStart, focusEnd] = ranges[0] ?? [0, 0];
  const cut = cutLine(found.text, focusStart, focusEnd);
  const record: SearchMatchRecord = { type: "match", path: found.path, line: found.line, text: cut.text, ranges: ranges };
  if (cut.cutBefore > 0 || cut.cutAfter) {
    const end = cut.cutBefore + cut.text.length;
    record.ranges = ranges.filter(([start]) => start >= cut.cutBefore && start < end).map(([start, stop]) => [start - cut.cutBefore, Math.min(stop, end) - cut.cutBefore]);
    if (cut.cutBefore > 0) record.cutBefore = cut.cutBefore;
    if (cut.cutAfter) record.cutAfter = true;
    if (record.ranges.length !== ranges.length) record.matchCount = ranges.length;
  }
  return record;
}

/** Whether a viewer may see lines of a file (viewer-reads.ts), asked once per file of a search. */
function viewerFilter(rootReal: string): (path: string) => Promise<boolean> {
  const rules = new GitignoreRules(rootReal);
  const known = new Map<string, boolean>();
  return async (path) => {
    let allowed = known.get(path);
    if (allowed === undefined) {
      allowed = !isSecretByName(path) && !(await rules.isIgnored(path, false));
      known.set(path, allowed);
    }
    return allowed;
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
