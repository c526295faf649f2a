// The terminal's HTTP routes and WebSocket upgrade within one live session
// (the relay strips `/live/<id>` first). A shell runs anything as the user
// who started pier, so who may do what:
// - list (GET /api/terminals): drivers see every shell, viewers the shared
//   ones only;
// - open, close, share (POST): drivers only, from the page pier serves (its
//   Origin, as for every change); a viewer is refused with a sentence;
// - the socket: a driver's to any shell; a viewer's to a shared shell only,
//   watch-only (shell-session.ts). Refused before the upgrade completes.
// The relay's door has already checked Host, Origin and the session cookie.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { WebSocket } from "ws";
import { TERMINAL_API_PATHS, type TerminalCreateResponse, type TerminalShareResponse } from "@pier/protocol";
import type { Grant } from "../access-links.ts";
import { isSameOrigin } from "../access-control.ts";
import { readJsonObject, sendApiError, sendJson } from "../workspace/json-http.ts";
import { WorkspaceError } from "../workspace/workspace-error.ts";
import type { Shells } from "./shells.ts";

const VIEWER_REFUSAL = "Only a driver can open, close, share or type into a shell: a shell runs commands as the user who started pier.";
const NOT_SHARED = "A viewer can watch a shell only while a driver shares it, and this one is not shared (or no longer exists).";
const BODY_LIMIT = 4096;

/** Answers the terminal routes; false when `url` is none of them. */
export async function handleTerminalHttp(shells: Shells, request: IncomingMessage, response: ServerResponse, url: URL, grant: Grant): Promise<boolean> {
  const path = url.pathname;
  if (path !== TERMINAL_API_PATHS.terminals && path !== TERMINAL_API_PATHS.close && path !== TERMINAL_API_PATHS.share) return false;
  const method = request.method ?? "GET";
  try {
    if (path === TERMINAL_API_PATHS.terminals && (method === "GET" || method === "HEAD")) {
      sendJson(response, 200, await shells.list(grant));
      return true;
    }
    if (method !== "POST") {
      request.resume();
      throw new WorkspaceError(405, "method_not_allowed", `${method} is not used on ${path}.`);
    }
    if (grant.role !== "driver") {
      request.resume();
      throw new WorkspaceError(403, "forbidden", VIEWER_REFUSAL);
    }
    if (!isSameOrigin(header(request, "origin"), header(request, "host"))) {
      request.resume();
      throw new WorkspaceError(403, "origin_required", "Changes must come from the page pier serves (its Origin header is missing or foreign).");
    }
    const body = await readJsonObject(request, BODY_LIMIT);
    if (path === TERMINAL_API_PATHS.terminals) {
      const made = await shells.create(body.cols, body.rows);
      if ("status" in made) sendApiError(response, made.status, made.code, made.message);
      else sendJson(response, 201, { terminal: made } satisfies TerminalCreateResponse);
    } else if (path === TERMINAL_API_PATHS.close) {
      if (typeof body.id !== "string") sendApiError(response, 400, "bad_request", 'Say which shell to close: {"id": "<terminal id>"}.');
      else if (await shells.close(body.id)) sendJson(response, 200, { closed: body.id });
      else sendApiError(response, 404, "not_found", noShell(body.id));
    } else {
      if (typeof body.id !== "string" || typeof body.shared !== "boolean") {
        sendApiError(response, 400, "bad_request", 'Say which shell to share and whether: {"id": "<terminal id>", "shared": true or false}.');
      } else {
        const shared = shells.share(body.id, body.shared);
        if (shared === null) sendApiError(response, 404, "not_found", noShell(body.id));
        else sendJson(response, 200, { terminal: shared } satisfies TerminalShareResponse);
      }
    }
  } catch (error) {
    if (error instanceof WorkspaceError) sendApiError(response, error.status, error.code, error.message);
    else throw error;
  }
  return true;
}

/** Whether a terminal socket may open (checked before the upgrade completes): how to accept it, or why not. */
export function admitTerminalSocket(shells: Shells, url: URL, grant: Grant): { accept: (ws: WebSocket) => void } | { status: 400 | 403 | 404; reason: string } {
  const id = url.searchParams.get("id");
  if (id === null || id === "") return { status: 400, reason: "say which shell to attach to: /terminal?id=<terminal id>" };
  const shell = shells.get(id);
  if (grant.role !== "driver") {
    // Unknown and unshared alike: a viewer learns nothing of the shells it may not watch.
    if (shell === undefined || !shell.shared) return { status: 403, reason: NOT_SHARED };
  } else if (shell === undefined) {
    return { status: 404, reason: `there is no shell ${JSON.stringify(id).slice(0, 80)} in this live session (it may have been closed)` };
  }
  return { accept: (ws) => shell.attach(ws, grant) };
}

function noShell(id: string): string {
  return `There is no shell ${JSON.stringify(id).slice(0, 80)} in this live session (it may have been closed).`;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
