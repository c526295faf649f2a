// What the board does with an agent's worktree, over the relay's worktree
// routes (LIVE_API_PATHS diff, diffFile, merge, discard): read its diff and
// one file's two sides, merge its branch into the base, preview and confirm
// a discard. Every call answers what the relay said, or its own sentence for
// why not (a merge conflict keeps the files and both sides), never a bare
// status code.
import { LIVE_API_PATHS, type LiveDiff, type LiveDiffText, type LiveDiscardPreview, type LiveMergeConflict, type LiveMergeDone } from "@pier/protocol";

type Fetch = typeof fetch;

export type Answer<T> = { ok: true; value: T } | { ok: false; error: string; conflicts?: LiveMergeConflict[] };

/** What POST discard with confirm answers. */
export type DiscardDone = { path: string; branch: string; missing: boolean; message?: string };

async function call(
  fetcher: Fetch,
  path: string,
  body?: Record<string, unknown>,
): Promise<{ ok: true; json: Record<string, unknown> } | { ok: false; error: string; conflicts?: LiveMergeConflict[] }> {
  let response: Response;
  try {
    response = await fetcher(path, {
      method: body === undefined ? "GET" : "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: body === undefined ? { Accept: "application/json" } : { "Content-Type": "application/json", Accept: "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    return { ok: false, error: `Cannot reach pier: ${error instanceof Error ? error.message : String(error)}` };
  }
  const json: unknown = await response.json().catch(() => null);
  const object = typeof json === "object" && json !== null ? (json as Record<string, unknown>) : null;
  if (!response.ok) {
    const error = object?.["error"];
    const message =
      typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string"
        ? (error as { message: string }).message
        : `pier answered ${response.status} ${response.statusText}`.trim();
    const conflicts = Array.isArray(object?.["conflicts"]) ? (object["conflicts"] as LiveMergeConflict[]) : undefined;
    return conflicts === undefined ? { ok: false, error: message } : { ok: false, error: message, conflicts };
  }
  if (object === null) return { ok: false, error: `pier answered ${response.status} without a JSON body` };
  return { ok: true, json: object };
}

/** The field `key` of a successful answer, or the failure as it was. */
async function field<T>(answer: ReturnType<typeof call>, key: string | null): Promise<Answer<T>> {
  const result = await answer;
  if (!result.ok) return result;
  const value = key === null ? result.json : result.json[key];
  if (value === undefined || value === null) return { ok: false, error: `pier's answer has no ${key}` };
  return { ok: true, value: value as T };
}

/** The API, bound to a fetch (the page's own by default; a test gives a real server's). */
export function worktreeApi(fetcher: Fetch = (...args) => fetch(...args)) {
  return {
    diff: (id: string) => field<LiveDiff>(call(fetcher, `${LIVE_API_PATHS.diff}?${new URLSearchParams({ id })}`), null),
    diffFile: (id: string, path: string) => field<LiveDiffText>(call(fetcher, `${LIVE_API_PATHS.diffFile}?${new URLSearchParams({ id, path })}`), null),
    merge: (id: string, mode: "ff" | "merge") => field<LiveMergeDone>(call(fetcher, LIVE_API_PATHS.merge, { id, mode }), "merged"),
    /** What discarding would lose; nothing is removed. */
    discardPreview: (id: string) => field<LiveDiscardPreview>(call(fetcher, LIVE_API_PATHS.discard, { id }), "preview"),
    /** Stops the agent and removes its worktree and branch. */
    discard: (id: string) => field<DiscardDone>(call(fetcher, LIVE_API_PATHS.discard, { id, confirm: true }), "discarded"),
  };
}

export type WorktreeApi = ReturnType<typeof worktreeApi>;

export const worktrees = worktreeApi();
