// The workspace list's HTTP routes (WORKSPACES_API_PATHS): drivers and
// board-wide viewers read the list; drivers add and remove folders and
// browse the machine's folders to choose one (a viewer never browses the
// machine; a viewer of one session never sees the others' folders).
import type { IncomingMessage, ServerResponse } from "node:http";
import { homedir } from "node:os";
import { isAbsolute } from "node:path";
import { WORKSPACES_API_PATHS } from "@pier/protocol";
import type { Grant } from "../access-links.ts";
import { readJsonObject, sendJson } from "../workspace/json-http.ts";
import { WorkspaceError } from "../workspace/workspace-error.ts";
import { checkFolder } from "./folder-check.ts";
import { listFolders } from "./folder-listing.ts";
import type { WorkspaceList } from "./workspace-list.ts";

const MAX_BODY = 16 * 1024;

export async function handleWorkspacesApi(workspaces: WorkspaceList, request: IncomingMessage, response: ServerResponse, url: URL, grant: Grant): Promise<boolean> {
  const path = url.pathname;
  if (path !== WORKSPACES_API_PATHS.list && path !== WORKSPACES_API_PATHS.remove && path !== WORKSPACES_API_PATHS.folders) return false;
  const reading = request.method === "GET" || request.method === "HEAD";
  if (grant.role !== "driver" && (grant.scope !== null || path === WORKSPACES_API_PATHS.folders || !reading)) {
    request.resume();
    sendError(
      response,
      403,
      "forbidden",
      path === WORKSPACES_API_PATHS.folders ? "only a driver can browse this machine's folders" : "only a driver (or a viewer of the whole board) can see the workspaces",
    );
    return true;
  }
  if (path === WORKSPACES_API_PATHS.folders) {
    if (!reading) return methodNotAllowed(request, response, "GET");
    const listing = await listFolders(url.searchParams.get("path") || homedir());
    if ("status" in listing) sendError(response, listing.status, listing.status === 404 ? "not_found" : listing.status === 403 ? "unreadable" : "bad_request", listing.message);
    else sendJson(response, 200, listing);
    return true;
  }
  if (path === WORKSPACES_API_PATHS.list && reading) {
    sendJson(response, 200, { workspaces: workspaces.list() });
    return true;
  }
  if (request.method !== "POST") return methodNotAllowed(request, response, path === WORKSPACES_API_PATHS.list ? "GET or POST" : "POST");
  let body: Record<string, unknown>;
  try {
    body = await readJsonObject(request, MAX_BODY);
  } catch (error) {
    if (!(error instanceof WorkspaceError)) throw error;
    sendError(response, error.status, error.code, error.message);
    return true;
  }
  const given = body["path"];
  if (typeof given !== "string" || !isAbsolute(given) || given.includes("\0")) {
    sendError(response, 400, "bad_request", "give the folder's absolute path (as /home/you/project)");
    return true;
  }
  if (path === WORKSPACES_API_PATHS.remove) {
    const removed = await workspaces.remove(given);
    if (!removed)
      sendError(
        response,
        workspaces.list().some((w) => w.path === given) ? 409 : 404,
        "not_removed",
        workspaces.list().some((w) => w.path === given) ? "a folder given with --cwd stays listed while pier runs" : "that folder is not in the list",
      );
    else sendJson(response, 200, { workspaces: workspaces.list() });
    return true;
  }
  const checked = await checkFolder(given);
  if (!checked.ok) {
    sendError(response, 400, "not_a_folder", checked.message);
    return true;
  }
  await workspaces.use(checked.path);
  sendJson(response, 200, { workspaces: workspaces.list() });
  return true;
}

function methodNotAllowed(request: IncomingMessage, response: ServerResponse, allowed: string): true {
  request.resume();
  sendError(response, 405, "method_not_allowed", `use ${allowed}`);
  return true;
}

function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, { error: { code, message } });
}
