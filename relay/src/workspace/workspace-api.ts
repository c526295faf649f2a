// The HTTP routes of the workspace service (types in @pier/protocol's
// workspace-api.ts). Called after the relay's access check, so every request
// here carries the session cookie, an allowed Host and no foreign Origin; a
// change (PUT/POST) must in addition carry the page's own Origin, which
// browsers send and other local programs or old-style forms would not.
import type { IncomingMessage, ServerResponse } from "node:http";
import { WORKSPACE_API_PATHS, WORKSPACE_LIMITS, type GitReviewRequest } from "@pier/protocol";
import { isSameOrigin } from "../access-control.ts";
import { createBranch, deleteBranch, switchBranch } from "./git-branches.ts";
import { commitStaged } from "./git-commit.ts";
import type { GitFacts } from "./git-facts.ts";
import { GitReview } from "./git-review.ts";
import { initRepository, pull, push } from "./git-remote.ts";
import { readRepoState } from "./git-repo-state.ts";
import { GitRunner } from "./git-run.ts";
import { readJsonObject, sendApiError, sendJson } from "./json-http.ts";
import { WorkspaceError } from "./workspace-error.ts";
import type { WorkspaceFiles } from "./workspace-files.ts";

/** Beyond this, a refused request body is not drained: the connection is closed. */
const MAX_DRAINED_BYTES = 64 * 1024 * 1024;

export type WorkspaceApiHandler = (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<boolean>;

/** A change the service made, for telling people who did what. */
export type WorkspaceChange = { action: "saved" | "created" | "renamed" | "deleted"; path: string; to?: string };

type Route = {
  method: "GET" | "PUT" | "POST";
  bodyLimit?: number;
  run: (url: URL, body: Record<string, unknown>, request: IncomingMessage) => Promise<unknown>;
  /** What a successful run changed (routes that change nothing have none). */
  changed?: (body: Record<string, unknown>) => WorkspaceChange;
  /**
   * Who may, beyond the session cookie: "driver" (a viewer gets 403
   * driver_only), "trusted" (a driver, in a folder whose own hooks may run,
   * else 403 not_trusted). Absent: everyone the relay let in.
   */
  access?: "driver" | "trusted";
  /** A success moved the repository (refs the git-dir watcher does not see): every page is told. */
  movesGit?: true;
};

export function createWorkspaceApi(deps: {
  files: WorkspaceFiles;
  git: GitFacts;
  log: (line: string) => void;
  /**
   * May git run the repository's own commands (filters, diff drivers…) for
   * this request? Only a driver's, in a trusted workspace; absent: never.
   */
  repoCommands?: (request: IncomingMessage) => Promise<boolean>;
  /**
   * Is this request a driver's? A viewer's reads of files that may hold
   * secrets are refused (viewer-reads.ts). Absent: everyone is a viewer.
   */
  isDriver?: (request: IncomingMessage) => boolean;
  /** Told after each successful change, with the request that made it. */
  onChanged?: (request: IncomingMessage, change: WorkspaceChange) => void;
  /** Told after a git action succeeded (a commit, a branch made or deleted, a push): every page reloads what git says. */
  onGitChanged?: () => void;
}): WorkspaceApiHandler {
  const { files, git, log } = deps;
  const isDriver = (request: IncomingMessage) => deps.isDriver?.(request) === true;
  const repoCommands = async (request: IncomingMessage) => (await deps.repoCommands?.(request)) === true;
  const small = WORKSPACE_LIMITS.maxBodyBytes;
  const review = new GitReview(files);
  /** Stage, unstage, revert: a driver's only (checked before anything is read); an edited hunk's text may be as large as a save. */
  const reviewAction = (run: (body: GitReviewRequest, options: { repoCommands: boolean }) => Promise<unknown>): Route[] => [
    {
      method: "POST",
      bodyLimit: WORKSPACE_LIMITS.maxSaveBodyBytes,
      run: async (_url, body, request) => {
        if (!isDriver(request)) throw new WorkspaceError(403, "driver_only", "Only a driver can stage, unstage or revert changes: you joined this session as a viewer.");
        return run(body as GitReviewRequest, { repoCommands: await repoCommands(request) });
      },
    },
  ];
  const gitRunner = async () => new GitRunner(await files.paths.rootReal());
  /** A git action (git-commit.ts, git-branches.ts, git-remote.ts): a driver's, in a trusted folder unless it runs no hook. */
  const gitAction = (run: (git: GitRunner, body: Record<string, unknown>) => Promise<unknown>, access: "driver" | "trusted" = "trusted"): Route[] => [
    { method: "POST", bodyLimit: small, access, movesGit: true, run: async (_url, body) => run(await gitRunner(), body) },
  ];
  const routes = new Map<string, Route[]>([
    [WORKSPACE_API_PATHS.tree, [{ method: "GET", run: () => files.tree() }]],
    [
      WORKSPACE_API_PATHS.content,
      [
        { method: "GET", run: (url, _body, request) => files.read(url.searchParams.get("path"), { viewer: !isDriver(request) }) },
        {
          method: "PUT",
          bodyLimit: WORKSPACE_LIMITS.maxSaveBodyBytes,
          run: (_url, body) => files.save(body.path, body.content, body.baseVersion),
          changed: (body) => ({ action: "saved", path: String(body.path) }),
        },
      ],
    ],
    [WORKSPACE_API_PATHS.create, [{ method: "POST", bodyLimit: small, run: (_url, body) => files.create(body.path, body.type), changed: (body) => ({ action: "created", path: String(body.path) }) }]],
    [
      WORKSPACE_API_PATHS.rename,
      [
        {
          method: "POST",
          bodyLimit: small,
          run: (_url, body) => files.rename(body.from, body.to),
          changed: (body) => ({ action: "renamed", path: String(body.from), to: String(body.to) }),
        },
      ],
    ],
    [
      WORKSPACE_API_PATHS.delete,
      [{ method: "POST", bodyLimit: small, run: (_url, body) => files.delete(body.path, body.recursive), changed: (body) => ({ action: "deleted", path: String(body.path) }) }],
    ],
    [WORKSPACE_API_PATHS.gitStatus, [{ method: "GET", run: async (_url, _body, request) => git.status({ repoCommands: await repoCommands(request) }) }]],
    // The hunk review (git-review.ts): a viewer reads a diff where it may read the file; only a driver changes the index or the file.
    [
      WORKSPACE_API_PATHS.gitDiff,
      [
        {
          method: "GET",
          run: async (url, _body, request) => {
            const path = url.searchParams.get("path");
            const from = url.searchParams.get("from");
            if (!isDriver(request)) for (const each of from === null ? [path] : [path, from]) await files.checkViewerMayReadHead(each);
            return review.diff(path, url.searchParams.get("staged") === "1", from, { repoCommands: await repoCommands(request) });
          },
        },
      ],
    ],
    [WORKSPACE_API_PATHS.gitStage, reviewAction((body, options) => review.stage(body, options))],
    [WORKSPACE_API_PATHS.gitUnstage, reviewAction((body, options) => review.unstage(body, options))],
    [WORKSPACE_API_PATHS.gitRevert, reviewAction((body, options) => review.revert(body, options))],
    [
      WORKSPACE_API_PATHS.gitHead,
      [
        {
          method: "GET",
          run: async (url, _body, request) => {
            if (!isDriver(request)) await files.checkViewerMayReadHead(url.searchParams.get("path"));
            return git.head(url.searchParams.get("path"), { repoCommands: await repoCommands(request) });
          },
        },
      ],
    ],
    // Branches and ahead/behind hold no file contents: viewers read them too (hooks stay off for everyone here).
    [WORKSPACE_API_PATHS.gitRepo, [{ method: "GET", run: async () => readRepoState(await gitRunner()) }]],
    [WORKSPACE_API_PATHS.gitCommit, gitAction(commitStaged)],
    [WORKSPACE_API_PATHS.gitBranchCreate, gitAction(createBranch)],
    [WORKSPACE_API_PATHS.gitBranchSwitch, gitAction(switchBranch)],
    [WORKSPACE_API_PATHS.gitBranchDelete, gitAction(deleteBranch)],
    [WORKSPACE_API_PATHS.gitPull, gitAction((git) => pull(git))],
    [WORKSPACE_API_PATHS.gitPush, gitAction((git) => push(git))],
    // A folder with no repository has no hooks of its own to distrust.
    [WORKSPACE_API_PATHS.gitInit, gitAction((git) => initRepository(git), "driver")],
  ]);

  const checkAccess = async (access: "driver" | "trusted", request: IncomingMessage) => {
    if (!isDriver(request)) refusedAccess();
    if (access === "trusted" && !(await repoCommands(request))) {
      throw new WorkspaceError(
        403,
        "not_trusted",
        "Committing, changing branches, pulling and pushing run this repository's own hooks, which pier runs only in a trusted folder: trust this folder first (the banner above the chat).",
      );
    }
  };

  return async (request, response, url) => {
    if (!url.pathname.startsWith("/api/")) return false;
    const candidates = routes.get(url.pathname);
    if (!candidates) {
      request.resume();
      sendApiError(response, 404, "not_found", `There is no API at ${url.pathname}.`);
      return true;
    }
    const route = candidates.find((candidate) => candidate.method === request.method);
    if (!route) {
      request.resume();
      const allow = candidates.map((candidate) => candidate.method).join(", ");
      sendApiError(response, 405, "method_not_allowed", `${url.pathname} accepts ${allow} only.`, {}, { Allow: allow });
      return true;
    }
    try {
      let body: Record<string, unknown> = {};
      if (route.method !== "GET") {
        if (!isSameOrigin(header(request, "origin"), header(request, "host"))) {
          request.resume();
          throw new WorkspaceError(403, "origin_required", "Changes must come from the page pier serves (its Origin header is missing or foreign).");
        }
        body = await readJsonObject(request, route.bodyLimit ?? small);
      }
      if (route.access !== undefined) await checkAccess(route.access, request);
      const result = await route.run(url, body, request);
      sendJson(response, 200, result);
      if (route.changed) deps.onChanged?.(request, route.changed(body));
      if (route.movesGit) deps.onGitChanged?.();
    } catch (error) {
      if (!(error instanceof WorkspaceError)) {
        log(`workspace API ${request.method} ${url.pathname} failed: ${error instanceof Error ? error.message : String(error)}`);
      } else if (error.status === 500) {
        log(`workspace API ${request.method} ${url.pathname}: ${error.message}`);
      }
      if (response.headersSent) {
        response.destroy();
        return true;
      }
      const known = error instanceof WorkspaceError ? error : new WorkspaceError(500, "internal", "The workspace operation failed unexpectedly.");
      // The rest of a refused body is read and dropped (Node does that after
      // the answer), so the client sees the answer rather than a reset; an
      // absurdly large one is cut off instead.
      const declared = Number(request.headers["content-length"]);
      const headers: Record<string, string> = !request.complete && !(declared <= MAX_DRAINED_BYTES) ? { Connection: "close" } : {};
      sendApiError(response, known.status, known.code, known.message, known.extra, headers);
    }
    return true;
  };
}

function refusedAccess(): never {
  throw new WorkspaceError(403, "driver_only", "Only a driver can commit, change branches, pull, push or make a repository: you joined this session as a viewer.");
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
