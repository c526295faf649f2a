// Client of the relay's git actions (relay/src/workspace/git-*.ts): the
// repository's state for the commit box and branch menu, and the changes a
// driver makes from the page. A refusal is a FilesApiError whose body's
// `output` holds git's own words (gitOutput reads it).
import { WORKSPACE_API_PATHS as PATHS, type GitBranchResponse, type GitCommitResponse, type GitInitResponse, type GitRemoteResponse, type GitRepoResponse } from "@pier/protocol";
import { call, FilesApiError } from "./files-api.ts";

export function createGitActionsApi(base = "") {
  const post = <T>(route: keyof typeof PATHS, body: unknown = {}) => call<T>("POST", `${base}${PATHS[route]}`, body);
  return {
    repo: () => call<GitRepoResponse>("GET", `${base}${PATHS.gitRepo}`),
    commit: (message: string, amend: boolean) => post<GitCommitResponse>("gitCommit", amend ? { message, amend } : { message }),
    createBranch: (name: string) => post<GitBranchResponse>("gitBranchCreate", { name }),
    switchBranch: (name: string) => post<GitBranchResponse>("gitBranchSwitch", { name }),
    deleteBranch: (name: string, force: boolean) => post<GitBranchResponse>("gitBranchDelete", force ? { name, force } : { name }),
    pull: () => post<GitRemoteResponse>("gitPull"),
    push: () => post<GitRemoteResponse>("gitPush"),
    init: () => post<GitInitResponse>("gitInit"),
  };
}

export type GitActionsApi = ReturnType<typeof createGitActionsApi>;

/** git's own output carried by a refusal (empty when there is none). */
export function gitOutput(error: unknown): string {
  if (!(error instanceof FilesApiError)) return "";
  // Beside `error` in the body (GitFailedExtra), as the relay sends a refusal's extra fields.
  const output = (error.body as { output?: unknown } | null)?.output;
  return typeof output === "string" ? output : "";
}
