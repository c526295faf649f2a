// The New agent form's calls against a real HTTP server that answers as the
// relay does: starting forced or on a branch, the workspace list, the folder
// chooser's listing; what is sent, and a refusal's sentence and code.
import { LIVE_API_PATHS, WORKSPACES_API_PATHS, type FolderListing, type WorkspaceInfo } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { standInRelay } from "./stand-in-relay.ts";
import { liveApi } from "../../src/lib/live/live-api.ts";
import { workspacesApi } from "../../src/lib/live/workspaces-api.ts";

const relay = standInRelay();
const seen = relay.seen;

const bound = (input: RequestInfo | URL, init?: RequestInit) => relay.fetch(input, init);
const ws: WorkspaceInfo = { path: "/work/a", name: "a", lastUsedAt: 5, given: false };

describe("starting a new agent", () => {
  it("sends force only when asked, and a branch to the worktree route", async () => {
    relay.next = { status: 201, body: JSON.stringify({ card: null }) };
    seen.length = 0;
    const api = liveApi(bound);
    await api.start("/work/a");
    await api.start("/work/a", true);
    await api.startOnBranch("/work/a", "fix-login");
    expect(seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ["POST", LIVE_API_PATHS.sessions, { cwd: "/work/a" }],
      ["POST", LIVE_API_PATHS.sessions, { cwd: "/work/a", force: true }],
      ["POST", LIVE_API_PATHS.worktree, { workspace: "/work/a", branch: "fix-login" }],
    ]);
  });

  it("answers folder_busy with the relay's sentence and its code", async () => {
    relay.next = { status: 409, body: JSON.stringify({ error: { code: "folder_busy", message: "agent 1 works in /work/a" }, sessions: ["1"] }) };
    expect(await liveApi(bound).start("/work/a")).toEqual({ ok: false, error: "agent 1 works in /work/a", code: "folder_busy" });
  });
});

describe("the workspace list and the folder chooser", () => {
  it("reads, adds and removes, answering the list", async () => {
    relay.next = { status: 200, body: JSON.stringify({ workspaces: [ws] }) };
    seen.length = 0;
    const api = workspacesApi(bound);
    expect(await api.list()).toEqual({ ok: true, value: [ws] });
    expect(await api.add("/work/a")).toEqual({ ok: true, value: [ws] });
    expect(await api.remove("/work/a")).toEqual({ ok: true, value: [ws] });
    expect(seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ["GET", WORKSPACES_API_PATHS.list, null],
      ["POST", WORKSPACES_API_PATHS.list, { path: "/work/a" }],
      ["POST", WORKSPACES_API_PATHS.remove, { path: "/work/a" }],
    ]);
  });

  it("lists a folder (home when none is given), its path encoded", async () => {
    const listing: FolderListing = { path: "/a b", parent: "/", folders: [{ name: "c", path: "/a b/c", hidden: false, repository: true }], truncated: false };
    relay.next = { status: 200, body: JSON.stringify(listing) };
    seen.length = 0;
    const api = workspacesApi(bound);
    expect(await api.folders("/a b")).toEqual({ ok: true, value: listing });
    await api.folders(null);
    expect(seen.map((s) => s.path)).toEqual([`${WORKSPACES_API_PATHS.folders}?path=%2Fa%20b`, WORKSPACES_API_PATHS.folders]);
  });

  it("says the relay's sentence when it refuses, and that an answer was not understood", async () => {
    relay.next = { status: 403, body: JSON.stringify({ error: { code: "unreadable", message: "/root is not readable" } }) };
    expect(await workspacesApi(bound).folders("/root")).toEqual({ ok: false, error: "/root is not readable" });
    relay.next = { status: 200, body: "<html></html>" };
    expect(await workspacesApi(bound).list()).toEqual({ ok: false, error: "pier's answer was not understood" });
  });
});
