// The hunk review's store: loads a diff, sends an action naming what was
// shown (the hunk id, the diff's base), and after any answer shows the file
// as it is now; a stale or conflicting answer becomes a sentence.
import type { GitDiffResponse, GitReviewRequest } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { FilesApiError } from "../../src/lib/workspace/files-api.ts";
import { ReviewStore, type ReviewApi } from "../../src/lib/workspace/review-store.svelte.ts";
import { settle } from "./support/memory-files-api.ts";

function diffOf(base: string, hunkIds: string[]): GitDiffResponse {
  return {
    path: "f.txt",
    side: "unstaged",
    kind: "modified",
    base,
    binary: false,
    modeChange: null,
    hunks: hunkIds.map((id, i) => ({ id, header: `@@ -${i * 10 + 1} +${i * 10 + 1} @@`, oldStart: i * 10 + 1, oldCount: 1, newStart: i * 10 + 1, newCount: 1, lines: ["-a", "+b"] })),
  };
}

function fakeApi() {
  const sent: [string, GitReviewRequest][] = [];
  const state = { diff: diffOf("b1", ["h1", "h2"]), fail: null as FilesApiError | null, diffCalls: 0 };
  const act = (name: string) => async (request: GitReviewRequest) => {
    sent.push([name, request]);
    if (state.fail) throw state.fail;
    return { paths: [request.path ?? ""] };
  };
  const api: ReviewApi = {
    gitDiff: async () => {
      state.diffCalls++;
      return state.diff;
    },
    gitStage: act("stage"),
    gitUnstage: act("unstage"),
    gitRevert: act("revert"),
  };
  return { api, sent, state };
}

describe("review store", () => {
  it("loads a diff, stages a hunk by its id with the diff's base, reloads, and tells the workbench", async () => {
    const { api, sent, state } = fakeApi();
    let changed = 0;
    const store = new ReviewStore(api, () => changed++);
    const review = store.ensure("git:f.txt", "f.txt", "unstaged", null, "hunks");
    await settle();
    expect(review.diff?.hunks.map((h) => h.id)).toEqual(["h1", "h2"]);
    state.diff = diffOf("b2", ["h2b"]);
    expect(await store.act("git:f.txt", "stage", { hunk: "h1" })).toBe(true);
    expect(sent).toEqual([["stage", { path: "f.txt", base: "b1", hunk: "h1" }]]);
    expect(changed).toBe(1);
    expect(store.reviews["git:f.txt"]!.diff?.base).toBe("b2");
    expect(store.reviews["git:f.txt"]!.busy).toBeNull();
  });

  it("a stale hunk or a revert's conflict: a sentence, and the diff as it is now", async () => {
    const { api, state } = fakeApi();
    const store = new ReviewStore(api, () => {});
    store.ensure("git:f.txt", "f.txt", "unstaged", null, "hunks");
    await settle();
    state.fail = new FilesApiError(409, "stale_change", '"f.txt" changed since its diff was shown; nothing was done.', null);
    state.diff = diffOf("b3", ["h9"]);
    expect(await store.act("git:f.txt", "stage", { hunk: "h1" })).toBe(false);
    expect(store.reviews["git:f.txt"]!.message).toEqual({ tone: "error", text: expect.stringMatching(/changed since its diff was shown/) });
    expect(store.reviews["git:f.txt"]!.diff?.base).toBe("b3");
    state.fail = new FilesApiError(409, "conflict", "changed on disk", { current: { content: "x", version: "v" } });
    expect(await store.act("git:f.txt", "revert", { hunk: "h9" })).toBe(false);
    expect(store.reviews["git:f.txt"]!.message?.text).toMatch(/changed on disk since this diff was shown, so nothing was reverted/);
  });

  it("a hunk's revert sends the hunk as shown; a refusal with the revert's offer goes to the editor, which alone says it", async () => {
    const { api, sent, state } = fakeApi();
    const offers: [string, unknown, string][] = [];
    let outcome: "opened" | "unsaved" | "failed" = "opened";
    const reverted: string[] = [];
    const store = new ReviewStore(
      api,
      () => {},
      () => true,
      {
        revertConflict: async (path, offer, scope) => {
          offers.push([path, offer, scope]);
          return outcome;
        },
        reverted: (path) => reverted.push(path),
      },
    );
    store.ensure("git:f.txt", "f.txt", "unstaged", null, "hunks");
    await settle();
    expect(await store.act("git:f.txt", "revert", { hunk: "h2" })).toBe(true);
    expect(sent.at(-1)).toEqual(["revert", { path: "f.txt", base: "b1", hunk: "h2", shown: { header: "@@ -11 +11 @@", lines: ["-a", "+b"] } }]);
    expect(reverted).toEqual(["f.txt"]);

    const offer = { current: { content: "now", version: "v2" }, reverted: "then" };
    state.fail = new FilesApiError(409, "stale_change", "moved", { error: { code: "stale_change" }, revert: offer });
    expect(await store.act("git:f.txt", "revert", { hunk: "h1" })).toBe(false);
    expect(offers).toEqual([["f.txt", offer, "hunk"]]);
    // The conflict view, now in front, says it: no sentence is left behind it in the review.
    expect(store.reviews["git:f.txt"]!.message).toBeNull();
    // The whole file's revert, refused the same way, opens it as a file's.
    expect(await store.act("git:f.txt", "revert", {})).toBe(false);
    expect(offers.at(-1)).toEqual(["f.txt", offer, "file"]);
    expect(store.reviews["git:f.txt"]!.message).toBeNull();
    outcome = "unsaved";
    expect(await store.act("git:f.txt", "revert", { hunk: "h1" })).toBe(false);
    expect(store.reviews["git:f.txt"]!.message).toEqual({ tone: "error", text: expect.stringMatching(/unsaved edits in the editor, so nothing was reverted/) });
    expect(reverted).toEqual(["f.txt"]);
    // Staging never sends the hunk's lines, nor asks the editor.
    state.fail = null;
    await store.act("git:f.txt", "stage", { hunk: "h1" });
    expect(sent.at(-1)).toEqual(["stage", { path: "f.txt", base: "b1", hunk: "h1" }]);
  });

  it("follows git and its file; a review whose tab closed is dropped", async () => {
    const { api, state } = fakeApi();
    const open = new Set(["git:f.txt"]);
    const store = new ReviewStore(
      api,
      () => {},
      (key) => open.has(key),
    );
    store.ensure("git:f.txt", "f.txt", "unstaged", null, "side");
    await settle();
    const before = state.diffCalls;
    store.diskChanged((path) => path === "other.txt", false);
    await settle();
    expect(state.diffCalls).toBe(before);
    store.diskChanged(() => false, true);
    await settle();
    expect(state.diffCalls).toBe(before + 1);
    open.clear();
    store.diskChanged(() => true, true);
    expect(store.reviews["git:f.txt"]).toBeUndefined();
  });

  it("reverts files only at the bases read before asking, and says which changed meanwhile", async () => {
    const { api, sent, state } = fakeApi();
    const store = new ReviewStore(api, () => {});
    const bases = await store.revertBases(["f.txt"]);
    expect(bases.get("f.txt")).toBe("b1");
    state.fail = new FilesApiError(409, "stale_change", '"f.txt" changed since its diff was shown; nothing was done.', null);
    expect(await store.revertFiles(bases)).toBe(false);
    expect(sent).toEqual([["revert", { path: "f.txt", base: "b1" }]]);
    expect(store.listMessage?.text).toMatch(/^f\.txt: .*changed since/);
  });

  it("reverting several files: each that changed meanwhile opens its conflict view and is named, the others still revert", async () => {
    const offers: [string, string][] = [];
    const reverted: string[] = [];
    const outcomes: Record<string, "opened" | "unsaved"> = { "a.txt": "opened", "c.txt": "opened", "d.txt": "unsaved" };
    const sent: string[] = [];
    const api: ReviewApi = {
      // Answered out of order: the files are still reverted (and named) in the list's order.
      gitDiff: async (path) => {
        if (path === "a.txt") await settle();
        return { ...diffOf(`base-${path}`, []), path };
      },
      gitStage: async () => ({ paths: [] }),
      gitUnstage: async () => ({ paths: [] }),
      gitRevert: async (request) => {
        sent.push(request.path!);
        if (request.path === "b.txt") return { paths: ["b.txt"] };
        if (request.path === "e.txt") throw new FilesApiError(409, "stale_change", '"e.txt" changed since its diff was shown, so it was not deleted.', null);
        const offer = { current: { content: `${request.path} now`, version: "v" }, reverted: `${request.path} staged` };
        throw new FilesApiError(409, "stale_change", "moved", { error: { code: "stale_change" }, revert: offer });
      },
    };
    const store = new ReviewStore(
      api,
      () => {},
      () => true,
      {
        revertConflict: async (path, offer, scope) => {
          offers.push([path, `${offer.reverted} (${scope})`]);
          return outcomes[path]!;
        },
        reverted: (path) => reverted.push(path),
      },
    );
    const bases = await store.revertBases(["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"]);
    expect(await store.revertFiles(bases)).toBe(false);
    expect(sent).toEqual(["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"]);
    expect(reverted).toEqual(["b.txt"]);
    expect(offers).toEqual([
      ["a.txt", "a.txt staged (file)"],
      ["c.txt", "c.txt staged (file)"],
      ["d.txt", "d.txt staged (file)"],
    ]);
    const text = store.listMessage!.text;
    expect(text).toMatch(/^2 files changed since you asked, so they were not reverted: a\.txt, c\.txt\. Each is open in the editor/);
    expect(text).toMatch(/d\.txt: .*unsaved edits/);
    expect(text).toMatch(/e\.txt: .*was not deleted/);
    expect(store.listMessage!.tone).toBe("error");

    // Only offers opened: the sentence is information, naming the file.
    outcomes["d.txt"] = "opened";
    expect(await store.revertFiles(new Map([["d.txt", "base-d.txt"]]))).toBe(false);
    expect(store.listMessage).toEqual({ tone: "info", text: expect.stringMatching(/^d\.txt changed since you asked, so it was not reverted/) });
  });
});
