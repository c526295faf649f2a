import type { GitRepoResponse } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { FilesApiError } from "../../src/lib/workspace/files-api.ts";
import type { GitActionsApi } from "../../src/lib/workspace/git-actions-api.ts";
import { GitRepoStore } from "../../src/lib/workspace/git-repo-store.svelte.ts";

const REPO: GitRepoResponse = {
  isRepo: true,
  head: { branch: "main", commit: "abc1234" },
  branches: [{ name: "main", current: true, upstream: null, ahead: 0, behind: 0 }],
  remotes: [],
  operation: null,
  conflicted: 0,
  staged: 1,
  lastCommit: { commit: "abc1234", message: "first" },
  locked: false,
};

/** An API whose answers the test sets; every call is recorded. */
function fakeApi(overrides: Partial<GitActionsApi> = {}) {
  const calls: string[] = [];
  const ok = (name: string) => async () => {
    calls.push(name);
    return { output: "", commit: "def5678", subject: "Two", name: "x", branch: "main" };
  };
  const api = {
    repo: async () => {
      calls.push("repo");
      return REPO;
    },
    commit: ok("commit"),
    createBranch: ok("create"),
    switchBranch: ok("switch"),
    deleteBranch: ok("delete"),
    pull: ok("pull"),
    push: ok("push"),
    init: ok("init"),
    ...overrides,
  } as GitActionsApi;
  return { api, calls };
}

describe("git repo store", () => {
  it("loads the repository's state", async () => {
    const { api } = fakeApi();
    const store = new GitRepoStore(api);
    expect(store.status).toBe("idle");
    await store.load();
    expect(store.status).toBe("ready");
    expect(store.repo).toEqual(REPO);
  });

  it("a commit says what it made, reloads the state and tells the workbench", async () => {
    const { api, calls } = fakeApi();
    let reloaded = 0;
    const store = new GitRepoStore(api, () => reloaded++);
    const result = await store.commit("Two", false);
    expect(result).toEqual({ ok: true, output: "" });
    expect(store.done).toBe("Committed def5678: Two");
    expect(store.busy).toBeNull();
    expect(reloaded).toBe(1);
    expect(calls).toEqual(["commit", "repo"]);
  });

  it("a refusal keeps git's output until the next action or a dismissal", async () => {
    const refusal = new FilesApiError(409, "git_failed", "git could not commit: lint failed", {
      output: "lint: a.txt has a TODO",
      error: { code: "git_failed", message: "git could not commit: lint failed" },
    });
    const { api } = fakeApi({
      commit: async () => {
        throw refusal;
      },
    });
    const store = new GitRepoStore(api);
    const result = await store.commit("Try", false);
    expect(result.ok).toBe(false);
    expect(store.failure).toEqual({ action: "commit", code: "git_failed", message: "git could not commit: lint failed", output: "lint: a.txt has a TODO" });
    store.dismissFailure();
    expect(store.failure).toBeNull();
  });

  it("one action at a time: a second while one runs is refused without calling the relay", async () => {
    let finish: () => void = () => {};
    const { api, calls } = fakeApi({
      push: () =>
        new Promise((resolve) => {
          finish = () => resolve({ branch: "main", output: "" });
        }),
    });
    const store = new GitRepoStore(api);
    const pushing = store.push();
    expect(store.busy).toBe("push");
    const second = await store.pull();
    expect(second.ok).toBe(false);
    expect(calls).not.toContain("pull");
    finish();
    await pushing;
    expect(store.busy).toBeNull();
    expect(store.done).toBe("Pushed main");
  });
});
