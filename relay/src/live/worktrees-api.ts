// The worktree routes of the board (LIVE_API_PATHS.worktree, diff, diffFile,
// merge, discard): a new agent on a branch of its own, its diff, merging its
// work into the base branch, discarding it. Drivers do everything; a viewer
// only reads a diff, and a viewer made for one session only that session's.
// Every refusal is a JSON error with a sentence (and, for a merge conflict,
// the conflicting files with both sides).
import type { IncomingMessage, ServerResponse } from "node:http";
import { LIVE_API_PATHS } from "@pier/protocol";
import type { Grant } from "../access-links.ts";
import { readJsonObject, sendJson } from "../workspace/json-http.ts";
import { WorkspaceError } from "../workspace/workspace-error.ts";
import type { LiveSessions } from "./live-sessions.ts";
import { createWorktree } from "./worktree-create.ts";
import { worktreeDiff, worktreeFileText } from "./worktree-diff.ts";
import { discardPreview, discardWorktree } from "./worktree-discard.ts";
import { mergeWorktree } from "./worktree-merge.ts";
import { cardWorktree, folderTrusted, isRefusal, type WorktreeRecord, type WorktreeRefusal, type Worktrees } from "./worktrees.ts";

const MAX_BODY = 16 * 1024;

export async function handleWorktreesApi(worktrees: Worktrees, sessions: LiveSessions, request: IncomingMessage, response: ServerResponse, url: URL, grant: Grant): Promise<boolean> {
  const path = url.pathname;
  const reads = [LIVE_API_PATHS.diff, LIVE_API_PATHS.diffFile] as string[];
  const writes = [LIVE_API_PATHS.worktree, LIVE_API_PATHS.merge, LIVE_API_PATHS.discard] as string[];
  if (!reads.includes(path) && !writes.includes(path)) return false;
  const method = request.method ?? "GET";
  if (reads.includes(path)) {
    if (method !== "GET" && method !== "HEAD") return methodNotAllowed(request, response, "GET");
    const id = url.searchParams.get("id") ?? "";
    if (grant.role !== "driver" && grant.scope !== null && grant.scope !== id) {
      return answer(response, { status: 403, code: "forbidden", message: "the link this browser was opened with is for another live session" });
    }
    const record = worktrees.get(id);
    if (record === undefined) return answer(response, notWorktree(id));
    const viewer = grant.role !== "driver";
    const run = { guarded: viewer || !(await folderTrusted(record.repo)), viewer };
    const result = path === LIVE_API_PATHS.diff ? await worktreeDiff(id, record, run) : await worktreeFileText(id, record, url.searchParams.get("path"), run);
    return answer(response, result);
  }
  if (method !== "POST") return methodNotAllowed(request, response, "POST");
  if (grant.role !== "driver") {
    request.resume();
    return answer(response, { status: 403, code: "forbidden", message: "only a driver can start agents on branches, merge or discard their work" });
  }
  let body: Record<string, unknown>;
  try {
    body = await readJsonObject(request, MAX_BODY);
  } catch (error) {
    if (!(error instanceof WorkspaceError)) throw error;
    return answer(response, { status: error.status === 413 ? 413 : 400, code: error.code, message: error.message });
  }
  if (path === LIVE_API_PATHS.worktree) return answer(response, await startOnWorktree(worktrees, sessions, body), 201);

  const id = body["id"];
  if (typeof id !== "string" || id.length > 32) return answer(response, { status: 400, code: "bad_request", message: "say which live session (its id)" });
  const mode = body["mode"];
  if (path === LIVE_API_PATHS.merge && mode !== "ff" && mode !== "merge") {
    return answer(response, { status: 400, code: "bad_request", message: 'say how to merge: mode "ff" (fast-forward only) or "merge" (a merge commit)' });
  }
  // One merge or discard of a worktree at a time; the record is looked up in turn (a discard before may have removed it).
  const result = await worktrees.exclusive(id, async () => {
    const record = worktrees.get(id);
    if (record === undefined) return notWorktree(id);
    if (path === LIVE_API_PATHS.merge) {
      const merged = await mergeWorktree(record, mode as "ff" | "merge");
      return isRefusal(merged) ? merged : { merged, card: sessions.card(id) };
    }
    if (body["confirm"] !== true) return { preview: await discardPreview(record) };
    return discard(worktrees, sessions, id, record);
  });
  return answer(response, result);
}

/** A new branch and worktree, and an agent started in it; the worktree goes again if the agent cannot start. */
async function startOnWorktree(worktrees: Worktrees, sessions: LiveSessions, body: Record<string, unknown>): Promise<unknown> {
  // Refused before any branch is made (start() would refuse the same after).
  if (sessions.running >= sessions.maxRunning) {
    return {
      status: 503,
      code: "max_agents",
      message: `${sessions.maxRunning} agents are running, the most this pier runs at once: stop one on the board first (or start pier with a higher --max-agents)`,
    };
  }
  const made = await createWorktree(body["workspace"], body["branch"], worktrees.dir);
  if (isRefusal(made)) return made;
  const { start, ...record } = made;
  const started = await sessions.start(start);
  if ("status" in started) {
    await discardWorktree(record);
    return { status: started.status, code: started.code, message: `${started.message} (the branch and worktree were not kept)` };
  }
  worktrees.remember(started.id, record);
  started.setWorktree(cardWorktree(record));
  return { card: sessions.card(started.id) };
}

async function discard(worktrees: Worktrees, sessions: LiveSessions, id: string, record: WorktreeRecord): Promise<unknown> {
  // The agent stops first: its pi must not write into a folder being removed.
  if (sessions.get(id) !== undefined) {
    const archived = await sessions.archive(id);
    if (archived !== true) return { status: archived.status, code: archived.code, message: archived.message };
  }
  const done = await discardWorktree(record);
  if (isRefusal(done)) return done;
  worktrees.forget(id);
  return { discarded: done };
}

function notWorktree(id: string): WorktreeRefusal {
  return { status: 404, code: "not_a_worktree", message: `live session ${JSON.stringify(id)} is not an agent on a worktree pier made (or it was discarded)` };
}

/** Sends a refusal as `{error, …details}`, anything else as `ok` (200 unless said). */
function answer(response: ServerResponse, result: unknown, ok = 200): true {
  if (isRefusal(result)) sendJson(response, result.status, { error: { code: result.code, message: result.message }, ...result.details });
  else sendJson(response, ok, result);
  return true;
}

function methodNotAllowed(request: IncomingMessage, response: ServerResponse, allowed: string): true {
  request.resume();
  sendJson(response, 405, { error: { code: "method_not_allowed", message: `use ${allowed}` } });
  return true;
}
