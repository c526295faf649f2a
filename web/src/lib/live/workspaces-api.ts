// The New agent form's calls for choosing a folder (WORKSPACES_API_PATHS):
// the workspace list (read, add, remove) and the folder chooser's listing.
// A refusal is the relay's own sentence ("… is not readable", "a folder
// given with --cwd stays listed while pier runs"), never a bare status.
import { WORKSPACES_API_PATHS, type FolderListing, type WorkspaceInfo } from "@pier/protocol";

export type Answer<T> = { ok: true; value: T } | { ok: false; error: string };

type Fetch = typeof fetch;

async function call<T>(fetcher: Fetch, path: string, body: Record<string, unknown> | null, read: (json: unknown) => T | null): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetcher(path, {
      method: body === null ? "GET" : "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: body === null ? { Accept: "application/json" } : { "Content-Type": "application/json", Accept: "application/json" },
      ...(body === null ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    return { ok: false, error: `Cannot reach pier: ${error instanceof Error ? error.message : String(error)}` };
  }
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) return { ok: false, error: sentence(json) ?? `pier answered ${response.status} ${response.statusText}`.trim() };
  const value = read(json);
  // A 200 whose body is not what pier sends (a proxy's page): say so rather than show nothing.
  return value === null ? { ok: false, error: "pier's answer was not understood" } : { ok: true, value };
}

function sentence(json: unknown): string | null {
  const error = typeof json === "object" && json !== null ? (json as { error?: unknown }).error : null;
  const message = typeof error === "object" && error !== null ? (error as { message?: unknown }).message : null;
  return typeof message === "string" ? message : null;
}

function workspacesOf(json: unknown): WorkspaceInfo[] | null {
  const list = typeof json === "object" && json !== null ? (json as { workspaces?: unknown }).workspaces : null;
  return Array.isArray(list) ? (list as WorkspaceInfo[]) : null;
}

function listingOf(json: unknown): FolderListing | null {
  return typeof json === "object" && json !== null && Array.isArray((json as { folders?: unknown }).folders) ? (json as FolderListing) : null;
}

/** The calls, bound to a fetch (the page's own by default; a test gives a real server's). */
export function workspacesApi(fetcher: Fetch = (...args) => fetch(...args)) {
  return {
    list: () => call(fetcher, WORKSPACES_API_PATHS.list, null, workspacesOf),
    /** Keeps `path` (absolute) in the list; answers the list after. */
    add: (path: string) => call(fetcher, WORKSPACES_API_PATHS.list, { path }, workspacesOf),
    /** Takes `path` off the list (its files are never touched); answers the list after. */
    remove: (path: string) => call(fetcher, WORKSPACES_API_PATHS.remove, { path }, workspacesOf),
    /** The folders inside `path`; null: the home folder. */
    folders: (path: string | null) => call(fetcher, path === null ? WORKSPACES_API_PATHS.folders : `${WORKSPACES_API_PATHS.folders}?path=${encodeURIComponent(path)}`, null, listingOf),
  };
}

export type WorkspacesApi = ReturnType<typeof workspacesApi>;

export const workspaces = workspacesApi();
