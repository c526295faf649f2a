// Agents on their own git worktrees, against the real pier (real pi children
// on the scripted model) and real git repositories in temp dirs: a new agent
// on a branch gets a worktree git lists and a card that says so; its diff
// counts committed, uncommitted and untracked work; merging fast-forwards
// the base branch (its work committed first); a conflict changes nothing
// anywhere and shows both sides; discarding says what would be lost, then
// removes worktree and branch, also after the folder was deleted behind
// pier's back; bad input is refused with a sentence; a second agent in a
// busy folder needs force; no git identity is a 409 that says how to set it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LIVE_API_PATHS, WORKSPACES_API_PATHS, type LiveCard, type LiveDiff, type RelayFrame } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, exchangeToken, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";

const hello = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));
const IDENTITY = { GIT_AUTHOR_NAME: "Ada Tester", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_COMMITTER_NAME: "Ada Tester", GIT_COMMITTER_EMAIL: "ada@example.com" };
const IDENTITY_VARS = [...Object.keys(IDENTITY), "EMAIL"];
const made: string[] = [];

/** git in `cwd`, with the test's own identity (never the machine's config). */
function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, stdio: "pipe", env: { ...process.env, ...IDENTITY } })
    .toString("utf8")
    .trim();
}

function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** A repository (in a folder of its own, so its `<name>.worktrees` sibling is ours too) with one commit on `main`. */
function repository(): string {
  const repo = join(tempDir("pier-wt-"), "app");
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, "README.md"), "# app\n");
  writeFileSync(join(repo, "f.txt"), "one\ntwo\nthree\n");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "first");
  return repo;
}

/** Everything that says a repository or worktree changed: its HEAD, its branches, and git status. */
function snapshot(dir: string): string {
  return [git(dir, "rev-parse", "HEAD"), git(dir, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads"), git(dir, "status", "--porcelain=v1", "--untracked-files=all")].join("\n---\n");
}

function worktreeList(repo: string): string {
  return git(repo, "worktree", "list", "--porcelain");
}

async function until<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function boardCard(pier: RunningPier, id: string): Promise<LiveCard | undefined> {
  return ((await httpJson(pier, "GET", LIVE_API_PATHS.sessions)).json.cards as LiveCard[]).find((card) => card.id === id);
}

async function makeLink(driver: Browser, scope?: "board"): Promise<string> {
  const before = driver.frames.filter((f) => f.type === "link_created").length;
  driver.send({ type: "pier.create_link", role: "viewer", ...(scope ? { scope } : {}) });
  const frame = await driver.waitUntil(() => driver.frames.filter((f): f is Extract<RelayFrame, { type: "link_created" }> => f.type === "link_created")[before], "link_created");
  return `http://${new URL(driver.ws.url).host}/?token=${frame.token}`;
}

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe("agents on worktrees", () => {
  let pier: RunningPier;
  let primary: Browser;
  let repo: string;

  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", hello, "--max-agents", "4"], { env: { ...process.env, ...IDENTITY } });
    primary = await connectBrowser(pier);
    repo = repository();
  });
  afterAll(async () => {
    await primary?.close();
    await pier?.stop();
  });

  const create = (workspace: string, branch: string) => httpJson(pier, "POST", LIVE_API_PATHS.worktree, { body: { workspace, branch } });
  const discard = (id: string, confirm?: boolean) => httpJson(pier, "POST", LIVE_API_PATHS.discard, { body: { id, ...(confirm ? { confirm } : {}) } });

  it("makes a branch and a worktree from HEAD, starts an agent there, and merges its work with a fast-forward", async () => {
    const head = git(repo, "rev-parse", "HEAD");
    const started = await create(repo, "agent/one");
    expect(started.status, started.text).toBe(201);
    const card = started.json.card as LiveCard;
    const path = join(dirname(repo), "app.worktrees", "agent-one");
    expect(card.worktree).toEqual({ branch: "agent/one", base: { branch: "main", commit: head }, path });
    expect(card.cwd).toBe(path);
    expect(worktreeList(repo)).toContain(`worktree ${path}\nHEAD ${head}\nbranch refs/heads/agent/one`);
    // The board keeps it, with the worktree's branch once its watcher read it.
    const onBoard = await until(async () => {
      const c = await boardCard(pier, card.id);
      return c?.branch === "agent/one" ? c : undefined;
    }, "the card's branch");
    expect(onBoard.worktree).toEqual(card.worktree);
    // The worktree is the agent's, not a workspace of the list (the repository it came from may be).
    const listed = (await httpJson(pier, "GET", WORKSPACES_API_PATHS.list)).json.workspaces as { path: string }[];
    expect(listed.map((w) => w.path)).not.toContain(path);

    // The agent's work, as an agent leaves it: a commit, an edit, a new file nobody added.
    writeFileSync(join(path, "c.txt"), "committed\n");
    git(path, "add", "c.txt");
    git(path, "commit", "-qm", "agent commit");
    writeFileSync(join(path, "f.txt"), "one\nTWO\nthree\n");
    writeFileSync(join(path, "notes.txt"), "first\nsecond\n");
    const diff = await httpJson(pier, "GET", `${LIVE_API_PATHS.diff}?id=${card.id}`);
    expect(diff.status, diff.text).toBe(200);
    const body = diff.json as LiveDiff;
    expect(body.mergeBase).toBe(head);
    expect(body.files).toEqual([
      { path: "c.txt", status: "added", added: 1, deleted: 0, binary: false, untracked: false },
      { path: "f.txt", status: "modified", added: 1, deleted: 1, binary: false, untracked: false },
      { path: "notes.txt", status: "added", added: 2, deleted: 0, binary: false, untracked: true },
    ]);
    expect(body.totals).toEqual({ files: 3, added: 4, deleted: 1 });
    const file = await httpJson(pier, "GET", `${LIVE_API_PATHS.diffFile}?id=${card.id}&path=f.txt`);
    expect(file.json).toMatchObject({ path: "f.txt", base: { content: "one\ntwo\nthree\n" }, current: { content: "one\nTWO\nthree\n" } });
    const added = await httpJson(pier, "GET", `${LIVE_API_PATHS.diffFile}?id=${card.id}&path=notes.txt`);
    expect(added.json).toMatchObject({ base: { content: null, reason: "absent" }, current: { content: "first\nsecond\n" } });
    const escape = await httpJson(pier, "GET", `${LIVE_API_PATHS.diffFile}?id=${card.id}&path=../app/f.txt`);
    expect(escape.status).toBe(400);

    // Viewers: a board viewer reads the diff, a viewer of the primary session does not; neither merges.
    const boardViewer = await exchangeToken(await makeLink(primary, "board"), pier.port);
    const sessionViewer = await exchangeToken(await makeLink(primary), pier.port);
    expect((await httpJson(pier, "GET", `${LIVE_API_PATHS.diff}?id=${card.id}`, { cookie: boardViewer })).status).toBe(200);
    expect((await httpJson(pier, "GET", `${LIVE_API_PATHS.diff}?id=${card.id}`, { cookie: sessionViewer })).status).toBe(403);
    // A viewer link made in the agent's own session reads its diff.
    const onAgent = await connectBrowser(pier, { path: `/live/${card.id}/ws` });
    const ownViewer = await exchangeToken(await makeLink(onAgent), pier.port);
    await onAgent.close();
    const own = await httpJson(pier, "GET", `${LIVE_API_PATHS.diff}?id=${card.id}`, { cookie: ownViewer });
    expect(own.status).toBe(200);
    expect(own.json.totals).toEqual(body.totals);
    expect((await httpJson(pier, "POST", LIVE_API_PATHS.merge, { cookie: boardViewer, body: { id: card.id, mode: "ff" } })).status).toBe(403);
    expect((await httpJson(pier, "POST", LIVE_API_PATHS.discard, { cookie: boardViewer, body: { id: card.id, confirm: true } })).status).toBe(403);

    const merged = await httpJson(pier, "POST", LIVE_API_PATHS.merge, { body: { id: card.id, mode: "ff" } });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.json.merged).toMatchObject({ mode: "ff", into: "main" });
    const committed = merged.json.merged.committed as string;
    expect(merged.json.merged.head).toBe(committed);
    // The base has all of it, committed by the person's identity; both trees are clean.
    expect(git(repo, "rev-parse", "HEAD")).toBe(committed);
    expect(readFileSync(join(repo, "f.txt"), "utf8")).toBe("one\nTWO\nthree\n");
    expect(readFileSync(join(repo, "notes.txt"), "utf8")).toBe("first\nsecond\n");
    expect(git(repo, "log", "-1", "--format=%s|%an <%ae>")).toBe("Work of agent on agent/one|Ada Tester <ada@example.com>");
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(git(path, "status", "--porcelain")).toBe("");

    // Discard: first what would be lost (a new uncommitted file; nothing unmerged), then gone for good.
    writeFileSync(join(path, "scratch.txt"), "unsaved\n");
    const preview = await discard(card.id);
    expect(preview.json.preview).toEqual({ uncommitted: ["scratch.txt"], unmerged: [], missing: false });
    expect(existsSync(join(path, "scratch.txt"))).toBe(true);
    const gone = await discard(card.id, true);
    expect(gone.status, gone.text).toBe(200);
    expect(gone.json.discarded).toMatchObject({ path, branch: "agent/one", missing: false });
    expect(existsSync(path)).toBe(false);
    expect(worktreeList(repo)).not.toContain(path);
    expect(git(repo, "branch", "--list", "agent/one")).toBe("");
    expect(await boardCard(pier, card.id)).toBeUndefined();
    expect((await httpJson(pier, "GET", `${LIVE_API_PATHS.diff}?id=${card.id}`)).status).toBe(404);
  });

  it("stops a conflicting merge before anything changes and shows both sides; refuses a dirty base, a base on another branch, a non-fast-forward", async () => {
    const started = await create(repo, "agent/two");
    expect(started.status, started.text).toBe(201);
    const { id, worktree } = started.json.card as LiveCard;
    const path = worktree!.path;
    // Both sides change line two: the agent (uncommitted) and the person on main (committed).
    writeFileSync(join(path, "f.txt"), "one\nagent's two\nthree\n");
    writeFileSync(join(repo, "f.txt"), "one\nperson's two\nthree\n");
    git(repo, "commit", "-qam", "person edits");

    const before = { base: snapshot(repo), tree: snapshot(path) };
    const conflict = await httpJson(pier, "POST", LIVE_API_PATHS.merge, { body: { id, mode: "merge" } });
    expect(conflict.status, conflict.text).toBe(409);
    expect(conflict.json.error.code).toBe("conflict");
    expect(conflict.json.error.message).toContain("f.txt");
    expect(conflict.json.conflicts).toEqual([{ path: "f.txt", base: { content: "one\nperson's two\nthree\n", reason: null }, worktree: { content: "one\nagent's two\nthree\n", reason: null } }]);
    expect({ base: snapshot(repo), tree: snapshot(path) }).toEqual(before);

    const notFast = await httpJson(pier, "POST", LIVE_API_PATHS.merge, { body: { id, mode: "ff" } });
    expect(notFast.status).toBe(409);
    expect(notFast.json.error.code).toBe("not_fast_forward");

    writeFileSync(join(repo, "README.md"), "# app, edited\n");
    const dirty = await httpJson(pier, "POST", LIVE_API_PATHS.merge, { body: { id, mode: "merge" } });
    expect(dirty.status).toBe(409);
    expect(dirty.json.error.message).toContain("uncommitted changes (README.md)");
    git(repo, "checkout", "-q", "README.md");
    git(repo, "switch", "-q", "-c", "elsewhere");
    const moved = await httpJson(pier, "POST", LIVE_API_PATHS.merge, { body: { id, mode: "merge" } });
    expect(moved.status).toBe(409);
    expect(moved.json.error.message).toContain("is on branch elsewhere, not on main");
    git(repo, "switch", "-q", "main");
    git(repo, "branch", "-q", "-D", "elsewhere");
    expect({ base: snapshot(repo), tree: snapshot(path) }).toEqual(before);

    // The agent's uncommitted edit is named before it is thrown away; so is a commit main does not have.
    git(path, "commit", "-qam", "agent's line two");
    writeFileSync(join(path, "wip.txt"), "half done\n");
    const preview = await discard(id);
    expect(preview.json.preview.uncommitted).toEqual(["wip.txt"]);
    expect(preview.json.preview.unmerged).toEqual([{ commit: git(path, "rev-parse", "HEAD"), subject: "agent's line two" }]);
    expect((await discard(id, true)).status).toBe(200);
    expect(git(repo, "branch", "--list", "agent/two")).toBe("");
  });

  it("merges with a merge commit when the base moved on without touching the agent's files", async () => {
    const started = await create(repo, "agent/three");
    expect(started.status, started.text).toBe(201);
    const { id, worktree } = started.json.card as LiveCard;
    writeFileSync(join(worktree!.path, "g.txt"), "from the agent\n");
    writeFileSync(join(repo, "README.md"), "# app, by the person\n");
    git(repo, "commit", "-qam", "person's readme");
    const baseTip = git(repo, "rev-parse", "HEAD");
    const merged = await httpJson(pier, "POST", LIVE_API_PATHS.merge, { body: { id, mode: "merge" } });
    expect(merged.status, merged.text).toBe(200);
    const { head, committed } = merged.json.merged as { head: string; committed: string };
    expect(git(repo, "rev-parse", "HEAD")).toBe(head);
    expect(git(repo, "log", "-1", "--format=%P|%s")).toBe(`${baseTip} ${committed}|Merge branch 'agent/three'`);
    expect(readFileSync(join(repo, "g.txt"), "utf8")).toBe("from the agent\n");
    expect(git(repo, "status", "--porcelain")).toBe("");
    // Merged: discarding loses nothing.
    expect((await discard(id)).json.preview).toEqual({ uncommitted: [], unmerged: [], missing: false });
    expect((await discard(id, true)).status).toBe(200);
  });

  it("refuses bad input with a sentence: not a repository, no commits, a name git refuses, an existing branch, a folder in the way", async () => {
    const plain = tempDir("pier-plain-");
    const notRepo = await create(plain, "x");
    expect(notRepo.status).toBe(400);
    expect(notRepo.json.error.message).toContain("is not in a git repository");
    const empty = tempDir("pier-empty-");
    git(empty, "init", "-q", "-b", "main");
    const noCommits = await create(empty, "x");
    expect(noCommits.status).toBe(409);
    expect(noCommits.json.error.message).toContain("has no commits yet");
    for (const name of ["has space", "a..b", "-x", "ends.lock", "@{-1}", "HEAD"]) {
      const bad = await create(repo, name);
      expect(bad.status, name).toBe(400);
      expect(bad.json.error.message).toContain("git refuses the branch name");
    }
    const exists = await create(repo, "main");
    expect(exists.status).toBe(409);
    expect(exists.json.error.message).toContain("a branch named main exists already");
    mkdirSync(join(dirname(repo), "app.worktrees", "taken"), { recursive: true });
    const inTheWay = await create(repo, "taken");
    expect(inTheWay.status).toBe(409);
    expect(inTheWay.json.error.message).toContain("a folder already exists at");
    expect(git(repo, "branch", "--list", "taken")).toBe("");
    expect((await httpJson(pier, "POST", LIVE_API_PATHS.worktree, { body: { workspace: "relative/path", branch: "x" } })).status).toBe(400);
    expect((await httpJson(pier, "POST", LIVE_API_PATHS.merge, { body: { id: "1", mode: "ff" } })).status).toBe(404);
    // Nothing was made on the way.
    expect(worktreeList(repo).match(/^worktree /gm)).toHaveLength(1);
  });

  it("branches from a detached HEAD (the card says there is no base branch; merging says why not)", async () => {
    git(repo, "switch", "-q", "--detach", "HEAD");
    try {
      const started = await create(repo, "agent/detached");
      expect(started.status, started.text).toBe(201);
      const card = started.json.card as LiveCard;
      expect(card.worktree!.base).toEqual({ branch: null, commit: git(repo, "rev-parse", "HEAD") });
      const merge = await httpJson(pier, "POST", LIVE_API_PATHS.merge, { body: { id: card.id, mode: "ff" } });
      expect(merge.status).toBe(409);
      expect(merge.json.error.message).toContain("detached HEAD");
      expect((await discard(card.id, true)).status).toBe(200);
    } finally {
      git(repo, "switch", "-q", "main");
    }
  });

  it("cleans up a worktree deleted behind pier's back, and says so", async () => {
    const started = await create(repo, "agent/vanish");
    const { id, worktree } = started.json.card as LiveCard;
    rmSync(worktree!.path, { recursive: true, force: true });
    const diff = await httpJson(pier, "GET", `${LIVE_API_PATHS.diff}?id=${id}`);
    expect(diff.status).toBe(410);
    expect(diff.json.error.message).toContain("is gone");
    expect((await discard(id)).json.preview).toMatchObject({ uncommitted: [], missing: true });
    const gone = await discard(id, true);
    expect(gone.status, gone.text).toBe(200);
    expect(gone.json.discarded.missing).toBe(true);
    expect(gone.json.discarded.message).toContain("git worktree prune");
    expect(worktreeList(repo)).not.toContain(worktree!.path);
    expect(git(repo, "branch", "--list", "agent/vanish")).toBe("");
  });

  it("keeps a renamed secret from a viewer; two discards at once take turns (one removes, the other finds nothing)", async () => {
    writeFileSync(join(repo, ".env"), "TOKEN=hunter2\n");
    git(repo, "add", ".env");
    git(repo, "commit", "-qm", "env");
    const started = await create(repo, "agent/rename");
    const { id, worktree } = started.json.card as LiveCard;
    git(worktree!.path, "mv", ".env", "settings.txt");
    const driver = await httpJson(pier, "GET", `${LIVE_API_PATHS.diffFile}?id=${id}&path=settings.txt`);
    expect(driver.json).toMatchObject({ path: "settings.txt", from: ".env", base: { content: "TOKEN=hunter2\n" } });
    const viewer = await exchangeToken(await makeLink(primary, "board"), pier.port);
    const refused = await httpJson(pier, "GET", `${LIVE_API_PATHS.diffFile}?id=${id}&path=settings.txt`, { cookie: viewer });
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain("hunter2");

    const both = await Promise.all([discard(id, true), discard(id, true)]);
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 404]);
    expect(existsSync(worktree!.path)).toBe(false);
    git(repo, "rm", "-q", ".env");
    git(repo, "commit", "-qm", "no env");
  });

  it("warns before a second agent starts in a folder where one runs, unless forced", async () => {
    const folder = tempDir("pier-busy-");
    const first = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: folder } });
    expect(first.status, first.text).toBe(201);
    const second = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: folder } });
    expect(second.status).toBe(409);
    expect(second.json.error.code).toBe("folder_busy");
    expect(second.json.error.message).toContain("two agents in one folder edit the same files");
    expect(second.json.sessions).toEqual([first.json.card.id]);
    const forced = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: folder, force: true } });
    expect(forced.status).toBe(201);
    for (const id of [first.json.card.id, forced.json.card.id]) expect((await httpJson(pier, "POST", LIVE_API_PATHS.archive, { body: { id } })).status).toBe(200);
  });
});

describe("a merge without a git identity", () => {
  let pier: RunningPier;
  afterAll(async () => {
    await pier?.stop();
  });

  it("is refused with how to set one, and nothing changes", async () => {
    const home = tempDir("pier-home-");
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: "1" };
    for (const name of IDENTITY_VARS) delete env[name];
    pier = await startPier(["--demo", "--demo-scenario", hello, "--max-agents", "2"], { env });
    const repo = repository();
    const started = await httpJson(pier, "POST", LIVE_API_PATHS.worktree, { body: { workspace: repo, branch: "agent/anon" } });
    expect(started.status, started.text).toBe(201);
    const { id, worktree } = started.json.card as LiveCard;
    writeFileSync(join(worktree!.path, "new.txt"), "work\n");
    const before = { base: snapshot(repo), tree: snapshot(worktree!.path) };
    const merge = await httpJson(pier, "POST", LIVE_API_PATHS.merge, { body: { id, mode: "ff" } });
    expect(merge.status).toBe(409);
    expect(merge.json.error.code).toBe("no_identity");
    expect(merge.json.error.message).toContain("git config --global user.name");
    expect({ base: snapshot(repo), tree: snapshot(worktree!.path) }).toEqual(before);
    expect(basename(worktree!.path)).toBe("agent-anon");
  });
});
