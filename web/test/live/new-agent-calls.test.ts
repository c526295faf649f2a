// The New agent form's calls against a real HTTP server that answers as the
// relay does: starting forced or on a branch, the workspace list, the folder
// chooser's listing; what is sent, and a refusal's sentence and code.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { LIVE_API_PATHS, WORKSPACES_API_PATHS, type FolderListing, type WorkspaceInfo } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveApi } from "../../src/lib/live/live-api.ts";
import { workspacesApi } from "../../src/lib/live/workspaces-api.ts";

type Seen = { method: string; path: string; body: unknown };

let server: Server;
let origin = "";
const seen: Seen[] = [];
let next: { status: number; body: string } = { status: 200, body: "{}" };

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const text = await readBody(request);
    seen.push({ method: request.method ?? "", path: request.url ?? "", body: text ? JSON.parse(text) : null });
    response.writeHead(next.status, { "Content-Type": "application/json" });
    response.end(next.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  origin = `http://127.0.0.1:${address.port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const bound = (input: RequestInfo | URL, init?: RequestInit) => fetch(new URL(String(input), origin), init);
const ws: WorkspaceInfo = { path: "/work/a", name: "a", lastUsedAt: 5, given: false };

describe("starting a new agent", () => {
  it("sends force only when asked, and a branch to the worktree route", async () => {
    next = { status: 201, body: JSON.stringify({ card: null }) };
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
    next = { status: 409, body: JSON.stringify({ error: { code: "folder_busy", message: "agent 1 works in /work/a" }, sessions: ["1"] }) };
    expect(await liveApi(bound).start("/work/a")).toEqual({ ok: false, error: "agent 1 works in /work/a", code: "folder_busy" });
  });
});

describe("the workspace list and the folder chooser", () => {
  it("reads, adds and removes, answering the list", async () => {
    next = { status: 200, body: JSON.stringify({ workspaces: [ws] }) };
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
    next = { status: 200, body: JSON.stringify(listing) };
    seen.length = 0;
    const api = workspacesApi(bound);
    expect(await api.folders("/a b")).toEqual({ ok: true, value: listing });
    await api.folders(null);
    expect(seen.map((s) => s.path)).toEqual([`${WORKSPACES_API_PATHS.folders}?path=%2Fa%20b`, WORKSPACES_API_PATHS.folders]);
  });

  it("says the relay's sentence when it refuses, and that an answer was not understood", async () => {
    next = { status: 403, body: JSON.stringify({ error: { code: "unreadable", message: "/root is not readable" } }) };
    expect(await workspacesApi(bound).folders("/root")).toEqual({ ok: false, error: "/root is not readable" });
    next = { status: 200, body: "<html></html>" };
    expect(await workspacesApi(bound).list()).toEqual({ ok: false, error: "pier's answer was not understood" });
  });
});
