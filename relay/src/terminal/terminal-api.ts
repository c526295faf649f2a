// The terminal's HTTP routes and WebSocket upgrade within one live session
// (the relay strips `/live/<id>` first). Who: drivers only, on every route
// and the upgrade — a shell runs anything as the user who started pier, so a
// viewer is refused with a sentence even where a GET would do (the relay's
// door has already checked Host, Origin and the session cookie).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { WebSocket } from "ws";
import { TERMINAL_API_PATHS, type TerminalCreateResponse } from "@pier/protocol";
import type { Grant } from "../access-links.ts";
import { readJsonObject, sendApiError, sendJson } from "../workspace/json-http.ts";
import { WorkspaceError } from "../workspace/workspace-error.ts";
import type { Shells } from "./shells.ts";

const VIEWER_REFUSAL = "Only a driver can open, list or type into a shell: a shell runs commands as the user who started pier.";
const BODY_LIMIT = 4096;

/** Answers the terminal routes; false when `url` is none of them. */
export async function handleTerminalHttp(shells: Shells, request: IncomingMessage, response: ServerResponse, url: URL, grant: Grant): Promise<boolean> {
  const path = url.pathname;
  if (path !== TERMINAL_API_PATHS.terminals && path !== TERMINAL_API_PATHS.close) return false;
  if (grant.role !== "driver") {
    request.resume();
    sendApiError(response, 403, "forbidden", VIEWER_REFUSAL);
    return true;
  }
  const method = request.method ?? "GET";
  try {
    if (path === TERMINAL_API_PATHS.terminals && (method === "GET" || method === "HEAD")) {
      sendJson(response, 200, await shells.list());
    } else if (path === TERMINAL_API_PATHS.terminals && method === "POST") {
      const body = await readJsonObject(request, BODY_LIMIT);
      const made = await shells.create(body.cols, body.rows);
      if ("status" in made) sendApiError(response, made.status, made.code, made.message);
      else sendJson(response, 201, { terminal: made } satisfies TerminalCreateResponse);
    } else if (path === TERMINAL_API_PATHS.close && method === "POST") {
      const body = await readJsonObject(request, BODY_LIMIT);
      if (typeof body.id !== "string") sendApiError(response, 400, "bad_request", 'Say which shell to close: {"id": "<terminal id>"}.');
      else if (await shells.close(body.id)) sendJson(response, 200, { closed: body.id });
      else sendApiError(response, 404, "not_found", `There is no shell ${JSON.stringify(body.id)} in this live session (it may have been closed).`);
    } else {
      request.resume();
      sendApiError(response, 405, "method_not_allowed", `${method} is not used on ${path}.`);
    }
  } catch (error) {
    if (error instanceof WorkspaceError) sendApiError(response, error.status, error.code, error.message);
    else throw error;
  }
  return true;
}

/** Whether a terminal socket may open (checked before the upgrade completes): how to accept it, or why not. */
export function admitTerminalSocket(shells: Shells, url: URL, grant: Grant): { accept: (ws: WebSocket) => void } | { status: 400 | 403 | 404; reason: string } {
  if (grant.role !== "driver") return { status: 403, reason: VIEWER_REFUSAL };
  const id = url.searchParams.get("id");
  if (id === null || id === "") return { status: 400, reason: "say which shell to attach to: /terminal?id=<terminal id>" };
  const shell = shells.get(id);
  if (shell === undefined) return { status: 404, reason: `there is no shell ${JSON.stringify(id).slice(0, 80)} in this live session (it may have been closed)` };
  return { accept: (ws) => shell.attach(ws, grant) };
}
