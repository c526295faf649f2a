// The board's HTTP routes (LIVE_API_PATHS): the cards, and what drivers do
// to live sessions: start one in a folder, stop its pi, restart it, archive
// it. Viewers may read the board (a session-scoped viewer sees its own card
// only); everything else needs a driver. A refusal is a JSON error with a
// sentence, never a crash.
import { realpath } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { resolve } from "node:path";
import { LIVE_API_PATHS, MAX_COMMAND_BYTES, type LiveBoard } from "@pier/protocol";
import type { Grant } from "../access-links.ts";
import { readJsonObject, sendJson } from "../workspace/json-http.ts";
import { WorkspaceError } from "../workspace/workspace-error.ts";
import { checkFolder } from "./folder-check.ts";
import type { LiveSessions, StartRefusal } from "./live-sessions.ts";

const MAX_BODY = 16 * 1024;

/** The board as `grant` may see it. */
export function boardFor(sessions: LiveSessions, grant: Grant): LiveBoard {
  const cards = sessions.cards().filter((card) => grant.scope === null || card.id === grant.scope);
  return { cards, maxRunning: sessions.maxRunning, role: grant.role };
}

/** Answers a LIVE_API_PATHS request; false when `url` is not one. */
export async function handleLiveApi(sessions: LiveSessions, request: IncomingMessage, response: ServerResponse, url: URL, grant: Grant): Promise<boolean> {
  const path = url.pathname;
  const actions: Record<string, ((id: string) => Promise<unknown>) | undefined> = {
    [LIVE_API_PATHS.stop]: (id) => sessions.stop(id),
    [LIVE_API_PATHS.restart]: (id) => sessions.restart(id),
    [LIVE_API_PATHS.archive]: (id) => sessions.archive(id),
  };
  const commands: Record<string, ((id: string, body: Record<string, unknown>) => Promise<unknown>) | undefined> = {
    [LIVE_API_PATHS.prompt]: async (id, body) => {
      const message = body["message"];
      if (typeof message !== "string" || message.trim() === "") return badRequest("write the prompt (a non-empty message)");
      if (Buffer.byteLength(message) > MAX_COMMAND_BYTES) return badRequest("that prompt is too long to send");
      const working = sessions.card(id)?.state === "working" || sessions.card(id)?.state === "needs_you";
      return sessions.command(id, grant, { type: "prompt", message, ...(working ? { streamingBehavior: "followUp" } : {}) });
    },
    [LIVE_API_PATHS.abort]: (id) => sessions.command(id, grant, { type: "abort" }),
    [LIVE_API_PATHS.answer]: async (id, body) => {
      const requestId = body["requestId"];
      if (typeof requestId !== "string" || requestId === "" || requestId.length > 256) return badRequest("say which dialog (its requestId)");
      const answer = readAnswer(body);
      if (answer === null) return badRequest("answer with value (a string), confirmed (true or false) or cancelled: true");
      return sessions.command(id, grant, { type: "extension_ui_response", id: requestId, ...answer });
    },
  };
  if (path !== LIVE_API_PATHS.sessions && actions[path] === undefined && commands[path] === undefined) return false;
  if (path === LIVE_API_PATHS.sessions && (request.method === "GET" || request.method === "HEAD")) {
    sendJson(response, 200, boardFor(sessions, grant));
    return true;
  }
  if (request.method !== "POST") {
    request.resume();
    sendError(response, 405, "method_not_allowed", `use POST for ${path}`);
    return true;
  }
  if (grant.role !== "driver") {
    request.resume();
    sendError(response, 403, "forbidden", "only a driver can start, stop, restart or archive agents");
    return true;
  }
  let body: Record<string, unknown>;
  try {
    body = await readJsonObject(request, MAX_BODY);
  } catch (error) {
    if (error instanceof WorkspaceError) sendError(response, error.status, error.code, error.message);
    else throw error;
    return true;
  }
  if (path === LIVE_API_PATHS.sessions) {
    // Past the cap, start() says so; below it, a folder another agent works in is only shared when asked for.
    const busy = body["force"] === true || sessions.running >= sessions.maxRunning ? null : await agentsAlreadyIn(sessions, body["cwd"]);
    if (busy !== null) {
      sendJson(response, 409, { error: { code: "folder_busy", message: busy.message }, sessions: busy.ids });
      return true;
    }
    const started = await sessions.start(body["cwd"]);
    if (isRefusal(started)) sendError(response, started.status, started.code, started.message);
    else sendJson(response, 201, { card: sessions.card(started.id) });
    return true;
  }
  const id = body["id"];
  if (typeof id !== "string" || id.length > 32) {
    sendError(response, 400, "bad_request", "say which live session (its id)");
    return true;
  }
  const done = commands[path] !== undefined ? await commands[path](id, body) : await actions[path]!(id);
  if (isRefusal(done)) sendError(response, done.status, done.code, done.message);
  else sendJson(response, 200, { card: sessions.card(id) });
  return true;
}

/**
 * The live sessions whose pi runs (or starts) in `cwd` already, with a
 * warning sentence: two agents in one folder edit the same files. Null when
 * there are none (or `cwd` is not a folder: start() says why).
 */
async function agentsAlreadyIn(sessions: LiveSessions, cwd: unknown): Promise<{ ids: string[]; message: string } | null> {
  if (typeof cwd !== "string" || cwd.trim() === "" || cwd.includes("\0")) return null;
  const folder = await checkFolder(resolve(cwd));
  if (!folder.ok) return null;
  const ids: string[] = [];
  for (const card of sessions.cards()) {
    // A session whose pi sleeps (pier --idle-stop) wakes when used: it counts as running there.
    const asleep = "asleep" in card && card.asleep === true;
    if (card.child === "exited" && !asleep) continue;
    const theirs = await realpath(card.cwd).catch(() => card.cwd);
    if (theirs === folder.path) ids.push(card.id);
  }
  if (ids.length === 0) return null;
  const who = ids.length === 1 ? `an agent (live session ${ids[0]}) already works` : `${ids.length} agents (live sessions ${ids.join(", ")}) already work`;
  return { ids, message: `${who} in ${folder.path}: two agents in one folder edit the same files. Start it anyway with force: true, or give the new agent a branch and worktree of its own` };
}

function badRequest(message: string): StartRefusal {
  return { status: 400, code: "bad_request", message };
}

/** A dialog's answer as pi takes it: exactly one of value, confirmed, cancelled. */
function readAnswer(body: Record<string, unknown>): { value: string } | { confirmed: boolean } | { cancelled: true } | null {
  const { value, confirmed, cancelled } = body;
  const given = [value, confirmed, cancelled].filter((field) => field !== undefined).length;
  if (given !== 1) return null;
  if (typeof value === "string" && value.length <= 1024 * 1024) return { value };
  if (typeof confirmed === "boolean") return { confirmed };
  if (cancelled === true) return { cancelled: true };
  return null;
}

function isRefusal(value: unknown): value is StartRefusal {
  return typeof value === "object" && value !== null && "status" in value && "message" in value;
}

function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, { error: { code, message } });
}
