// Thin client for the relay's workspace file service. Same origin, so the
// session cookie rides along and fetch sends the Origin header the relay
// checks on mutating requests. Failures become `FilesApiError` values with
// the relay's error code, so callers can branch on `conflict`, `not_found`…
// Each workspace's store makes its own client: `base` prefixes every route
// (a live session will be served under its own path, e.g. `/live/<id>`).

import { WORKSPACE_API_PATHS as PATHS, type GitDiffResponse, type GitReviewRequest, type GitReviewResponse } from "@pier/protocol";
import type { ContentResponse, GitHeadResponse, GitStatusResponse, SaveResponse, TreeResponse, WorkspaceEntryType } from "./workspace-api-types.ts";

export class FilesApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The whole error body (a 409 carries `current`). */
  readonly body: unknown;

  constructor(status: number, code: string, message: string, body: unknown) {
    super(message);
    this.name = "FilesApiError";
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/** A save refused because the file changed on disk since `baseVersion`. */
export interface SaveConflict {
  kind: "conflict";
  /** content/version are null when the file is gone (or no longer editable text). */
  current: { content: string | null; version: string | null };
}

/** One JSON request to the workspace service; a refusal throws FilesApiError (also used by git-actions-api.ts). */
export async function call<T>(method: "GET" | "PUT" | "POST", url: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: "same-origin",
      cache: "no-store",
      headers: body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new FilesApiError(0, "network", `Cannot reach the relay: ${String(error)}`, null);
  }
  let parsed: unknown = null;
  const text = await response.text();
  if (text !== "") {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    const code = typeof error?.code === "string" ? error.code : response.status === 404 ? "not_found" : `http_${response.status}`;
    const message = typeof error?.message === "string" ? error.message : `${method} ${url} answered ${response.status}`;
    throw new FilesApiError(response.status, code, message, parsed);
  }
  if (parsed === null) throw new FilesApiError(response.status, "bad_response", `${method} ${url} answered no JSON`, null);
  return parsed as T;
}

const q = (path: string) => encodeURIComponent(path);

export interface FilesApiOptions {
  /** Prefix of every route, without a trailing slash ("" = the relay's own paths, `/live/<id>` …). */
  base?: string;
}

/** The workspace file service of one workspace. */
export function createFilesApi(options: FilesApiOptions = {}) {
  const base = options.base ?? "";
  if (base !== "" && ((!base.startsWith("/") && !/^https?:\/\//.test(base)) || base.endsWith("/"))) {
    throw new Error(`files API base must start with "/" (or be an http URL) and not end with "/": ${JSON.stringify(base)}`);
  }
  const url = (route: keyof typeof PATHS) => `${base}${PATHS[route]}`;
  return {
    tree: () => call<TreeResponse>("GET", url("tree")),
    read: (path: string) => call<ContentResponse>("GET", `${url("content")}?path=${q(path)}`),
    /** Resolves to the new version, or to a conflict (409) carrying what is on disk now. */
    async save(path: string, content: string, baseVersion: string | null): Promise<SaveResponse | SaveConflict> {
      try {
        return await call<SaveResponse>("PUT", url("content"), { path, content, baseVersion });
      } catch (error) {
        if (error instanceof FilesApiError && error.status === 409) {
          const current = (error.body as { current?: { content?: unknown; version?: unknown } } | null)?.current;
          if (current && typeof current === "object") {
            return {
              kind: "conflict",
              current: {
                content: typeof current.content === "string" ? current.content : null,
                version: typeof current.version === "string" ? current.version : null,
              },
            };
          }
        }
        throw error;
      }
    },
    create: (path: string, type: "file" | "dir") => call<unknown>("POST", url("create"), { path, type }),
    rename: (from: string, to: string) => call<unknown>("POST", url("rename"), { from, to }),
    /** Folders go with everything in them (the UI asks first). */
    remove: (path: string, recursive = false) => call<unknown>("POST", url("delete"), recursive ? { path, recursive } : { path }),
    gitStatus: () => call<GitStatusResponse>("GET", url("gitStatus")),
    gitHead: (path: string) => call<GitHeadResponse>("GET", `${url("gitHead")}?path=${q(path)}`),
    /** One file's diff as hunks: staged (HEAD → index) or not (index → working tree); `from`: a staged rename's old path. */
    gitDiff: (path: string, staged: boolean, from?: string) => call<GitDiffResponse>("GET", `${url("gitDiff")}?path=${q(path)}${staged ? "&staged=1" : ""}${from ? `&from=${q(from)}` : ""}`),
    gitStage: (request: GitReviewRequest) => call<GitReviewResponse>("POST", url("gitStage"), request),
    gitUnstage: (request: GitReviewRequest) => call<GitReviewResponse>("POST", url("gitUnstage"), request),
    gitRevert: (request: GitReviewRequest) => call<GitReviewResponse>("POST", url("gitRevert"), request),
  };
}

export type FilesApi = ReturnType<typeof createFilesApi>;

export type { WorkspaceEntryType };
