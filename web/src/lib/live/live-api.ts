// What a driver does to live sessions from the board, over the relay's
// HTTP API (LIVE_API_PATHS): start, stop, restart, archive, prompt, abort,
// answer. Every call answers the card as the relay left it, or the relay's
// own sentence for why not ("… is a file, not a folder", "8 agents are
// running…"), never a bare status code.
import { LIVE_API_PATHS, type LiveBoard, type LiveCard } from "@pier/protocol";

/** A refusal carries the relay's code too (as folder_busy), so a page can offer what fits. */
export type LiveResult = { ok: true; card: LiveCard | null } | { ok: false; error: string; code?: string };

/** A dialog's answer, as pi takes it. */
export type DialogAnswer = { value: string } | { confirmed: boolean } | { cancelled: true };

type Fetch = typeof fetch;

/** POST `body` to `path`; the relay's error sentence when it refuses. */
async function post(path: string, body: Record<string, unknown>, fetcher: Fetch): Promise<LiveResult> {
  let response: Response;
  try {
    response = await fetcher(path, {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    return { ok: false, error: `Cannot reach pier: ${error instanceof Error ? error.message : String(error)}` };
  }
  let json: unknown = null;
  try {
    json = await response.json();
  } catch {
    // Not JSON (a proxy's page, an empty body): the status says what there is to say.
  }
  if (!response.ok) {
    const code = errorCode(json);
    const error = errorSentence(json) ?? `pier answered ${response.status} ${response.statusText}`.trim();
    return code === null ? { ok: false, error } : { ok: false, error, code };
  }
  const card = typeof json === "object" && json !== null && "card" in json ? ((json as { card: LiveCard | null }).card ?? null) : null;
  return { ok: true, card };
}

function errorSentence(json: unknown): string | null {
  if (typeof json !== "object" || json === null) return null;
  const error = (json as { error?: unknown }).error;
  if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") return (error as { message: string }).message;
  return null;
}

function errorCode(json: unknown): string | null {
  if (typeof json !== "object" || json === null) return null;
  const error = (json as { error?: unknown }).error;
  if (typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string") return (error as { code: string }).code;
  return null;
}

/** The API, bound to a fetch (the page's own by default; a test gives a real server's). */
export function liveApi(fetcher: Fetch = (...args) => fetch(...args)) {
  return {
    /** A new agent in `cwd` (an absolute folder path); `force` starts it even where another agent works (the relay's folder_busy). */
    start: (cwd: string, force = false) => post(LIVE_API_PATHS.sessions, force ? { cwd, force: true } : { cwd }, fetcher),
    /** A new agent on a new branch `branch` and git worktree made from `workspace`'s HEAD. */
    startOnBranch: (workspace: string, branch: string) => post(LIVE_API_PATHS.worktree, { workspace, branch }, fetcher),
    stop: (id: string) => post(LIVE_API_PATHS.stop, { id }, fetcher),
    restart: (id: string) => post(LIVE_API_PATHS.restart, { id }, fetcher),
    archive: (id: string) => post(LIVE_API_PATHS.archive, { id }, fetcher),
    /** A prompt (a follow-up while it works: the relay decides). */
    prompt: (id: string, message: string) => post(LIVE_API_PATHS.prompt, { id, message }, fetcher),
    abort: (id: string) => post(LIVE_API_PATHS.abort, { id }, fetcher),
    answer: (id: string, requestId: string, answer: DialogAnswer) => post(LIVE_API_PATHS.answer, { id, requestId, ...answer }, fetcher),
    /** The board once (the socket keeps it current; this is for a first look). */
    async board(): Promise<LiveBoard | { error: string }> {
      try {
        const response = await fetcher(LIVE_API_PATHS.sessions, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } });
        const json: unknown = await response.json().catch(() => null);
        if (!response.ok) return { error: errorSentence(json) ?? `pier answered ${response.status}` };
        return json as LiveBoard;
      } catch (error) {
        return { error: `Cannot reach pier: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

export type LiveApi = ReturnType<typeof liveApi>;

export const live = liveApi();
