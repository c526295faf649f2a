// Several workspaces in one pier, against the real pier: the folders given
// with --cwd, folders added from the page (checked), the folder chooser's
// listing, recent workspaces remembered across restarts in pier's own state
// folder (never the repository), a state file pier did not write set aside,
// removing never touching files, and who may do what.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LIVE_API_PATHS, WORKSPACES_API_PATHS, type FolderListing, type WorkspaceInfo } from "@pier/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { connectBrowser, exchangeToken, startPier, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";

const hello = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));
const temp = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));

describe("workspaces", () => {
  const piers: RunningPier[] = [];
  afterEach(async () => {
    for (const pier of piers.splice(0)) await pier.stop();
  });
  const start = async (args: string[], stateHome: string) => {
    const pier = await startPier(["--no-demo-fallback", ...args, "--", "--no-session"], { env: { ...process.env, XDG_STATE_HOME: stateHome } });
    piers.push(pier);
    return pier;
  };
  const list = async (pier: RunningPier, cookie?: string) => (await httpJson(pier, "GET", WORKSPACES_API_PATHS.list, cookie ? { cookie } : {})).json.workspaces as WorkspaceInfo[];

  it("lists every --cwd, adds checked folders, remembers them across restarts in the XDG state folder, and removing touches no file", async () => {
    const [a, b, c] = [temp("pier-ws-a-"), temp("pier-ws-b-"), temp("pier-ws-c-")];
    writeFileSync(join(c, "keep.txt"), "mine\n");
    const stateHome = temp("pier-state-");
    const pier = await start(["--cwd", a, "--cwd", b], stateHome);
    expect((await list(pier)).map((w) => [w.path, w.given])).toEqual([
      [a, true],
      [b, true],
    ]);

    expect((await httpJson(pier, "POST", WORKSPACES_API_PATHS.list, { body: { path: join(c, "nope") } })).json.error.message).toContain("does not exist");
    expect((await httpJson(pier, "POST", WORKSPACES_API_PATHS.list, { body: { path: join(c, "keep.txt") } })).json.error.message).toContain("is a file");
    expect((await httpJson(pier, "POST", WORKSPACES_API_PATHS.list, { body: { path: "relative/path" } })).status).toBe(400);
    const added = await httpJson(pier, "POST", WORKSPACES_API_PATHS.list, { body: { path: c } });
    expect(added.status).toBe(200);
    expect(added.json.workspaces.map((w: WorkspaceInfo) => w.path)).toEqual([a, b, c]);
    // Remembered in pier's own state folder, not in any workspace.
    const stateFile = join(stateHome, "pier", "workspaces.json");
    expect(
      JSON.parse(readFileSync(stateFile, "utf8"))
        .workspaces.map((w: { path: string }) => w.path)
        .sort(),
    ).toEqual([a, b, c].sort());
    for (const dir of [a, b, c]) expect(readdirSync(dir).filter((name) => name !== "keep.txt")).toEqual([]);

    await pier.stop();
    const again = await start(["--cwd", b], stateHome);
    const listed = await list(again);
    expect(listed[0]).toMatchObject({ path: b, given: true });
    expect(listed.map((w) => w.path).sort()).toEqual([a, b, c].sort());
    // A folder given this run stays; a remembered one is forgotten, its files untouched.
    expect((await httpJson(again, "POST", WORKSPACES_API_PATHS.remove, { body: { path: b } })).status).toBe(409);
    const removed = await httpJson(again, "POST", WORKSPACES_API_PATHS.remove, { body: { path: c } });
    expect(removed.json.workspaces.map((w: WorkspaceInfo) => w.path)).not.toContain(c);
    expect(readFileSync(join(c, "keep.txt"), "utf8")).toBe("mine\n");
  });

  it("sets aside a state file pier did not write, says so, and starts with an empty list", async () => {
    const stateHome = temp("pier-state-");
    mkdirSync(join(stateHome, "pier"));
    writeFileSync(join(stateHome, "pier", "workspaces.json"), '{"version":1,"workspaces":[{"path":"relative"}]}');
    const a = temp("pier-ws-a-");
    const pier = await start(["--cwd", a], stateHome);
    expect((await list(pier)).map((w) => w.path)).toEqual([a]);
    expect(pier.stderr.join("\n")).toMatch(/set aside as .*workspaces\.json\.unreadable-/);
    const aside = readdirSync(join(stateHome, "pier")).find((name) => name.startsWith("workspaces.json.unreadable-"));
    expect(readFileSync(join(stateHome, "pier", aside!), "utf8")).toContain('"relative"');
  });

  it("lists the folders inside a folder for the chooser (repositories marked), with a sentence for a file, and only for drivers", async () => {
    const root = temp("pier-browse-");
    mkdirSync(join(root, "plain"));
    mkdirSync(join(root, ".hidden"));
    mkdirSync(join(root, "repo"));
    execFileSync("git", ["init", "-q"], { cwd: join(root, "repo") });
    writeFileSync(join(root, "file.txt"), "x");
    const pier = await start(["--demo", "--demo-scenario", hello], temp("pier-state-"));
    const listing = (await httpJson(pier, "GET", `${WORKSPACES_API_PATHS.folders}?path=${encodeURIComponent(root)}`)).json as FolderListing;
    expect(listing.folders.map((f) => [f.name, f.hidden, f.repository])).toEqual([
      ["plain", false, false],
      ["repo", false, true],
      [".hidden", true, false],
    ]);
    expect(listing.parent).toBe(join(root, ".."));
    const file = await httpJson(pier, "GET", `${WORKSPACES_API_PATHS.folders}?path=${encodeURIComponent(join(root, "file.txt"))}`);
    expect(file.status).toBe(400);
    expect(file.json.error.message).toContain("is a file");

    // The demo's scratch copy is listed, never remembered.
    const driver = await connectBrowser(pier);
    expect((await list(pier)).map((w) => w.path)).toEqual([driver.hello.cwd]);
    // A viewer of one session neither browses the machine nor sees the workspaces; an agent started in a folder is remembered.
    driver.send({ type: "pier.create_link", role: "viewer" });
    const created = await driver.waitForFrame("link_created");
    const viewer = await exchangeToken(`http://${pier.host}/?token=${created.token}`, pier.port);
    expect((await httpJson(pier, "GET", `${WORKSPACES_API_PATHS.folders}?path=${encodeURIComponent(root)}`, { cookie: viewer })).status).toBe(403);
    expect((await httpJson(pier, "GET", WORKSPACES_API_PATHS.list, { cookie: viewer })).status).toBe(403);
    expect((await httpJson(pier, "POST", WORKSPACES_API_PATHS.list, { cookie: viewer, body: { path: root } })).status).toBe(403);
    const started = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: join(root, "plain") } });
    expect(started.status).toBe(201);
    expect((await list(pier)).map((w) => w.path)).toContain(join(root, "plain"));
    expect(existsSync(join(root, "plain", ".pier"))).toBe(false);
    await driver.close();
  });
});
