// The git actions' routes (POST /api/git/commit, branch/*, pull, push, init;
// GET /api/git/repo) behind the real `pier --demo`: who may use them — a
// viewer's hand-made request is refused with 403 on every change (by the
// relay's door, and the routes' own check behind it) and reads
// the branch list; an untrusted folder commits nothing and runs no hook —
// and that every page hears of a change at once (workspace_changed git:true).
// HOME is a temp folder with a known git identity.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, exchangeToken, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "./workspace-http.ts";

describe("git actions over HTTP", () => {
  let pier: RunningPier;
  let driver: Browser;
  let ws: string;
  let home: string;
  const env = () => ({ ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), GIT_CONFIG_NOSYSTEM: "1" });
  const git = (...args: string[]) => execFileSync("git", ["-C", ws, ...args], { encoding: "utf8", env: env(), stdio: ["ignore", "pipe", "pipe"] });
  const post = (path: string, body: unknown, cookie?: string) => httpJson(pier, "POST", path, cookie === undefined ? { body } : { body, cookie });

  async function viewerCookie(): Promise<string> {
    driver.send({ type: "pier.create_link", role: "viewer" });
    const created = await driver.waitForFrame("link_created");
    return exchangeToken(`http://${new URL(driver.ws.url).host}/?token=${created.token}`, pier.port);
  }

  async function setTrust(trusted: boolean): Promise<void> {
    driver.send({ type: "pier.trust_workspace", trusted });
    await driver.waitForFrame("workspace_trust", (frame) => frame.trust.trusted === trusted);
  }

  beforeAll(async () => {
    home = await realpath(await mkdtemp(join(tmpdir(), "pier-git-home-")));
    await writeFile(join(home, ".gitconfig"), "[user]\n\tname = Ada Tester\n\temail = ada@pier.invalid\n[commit]\n\tgpgsign = false\n[init]\n\tdefaultBranch = main\n");
    pier = await startPier(["--demo"], { env: env() });
    driver = await connectBrowser(pier);
    ws = driver.hello.demo?.projectDir ?? driver.hello.cwd;
    expect(ws).toMatch(/pier-demo-project-/);
  });
  afterAll(async () => {
    await driver?.close();
    await pier?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("not a repository: the state says so, a commit is refused, a driver's git init makes one", async () => {
    expect((await httpJson(pier, "GET", "/api/git/repo")).json).toEqual({ isRepo: false });
    const refused = await post("/api/git/commit", { message: "x" });
    expect([refused.status, refused.json.error.code]).toEqual([409, "not_a_repo"]);
    expect(refused.json.error.message).toMatch(/git init/);
    const made = await post("/api/git/init", {});
    expect(made.status, made.text).toBe(200);
    expect(existsSync(join(ws, ".git"))).toBe(true);
    expect((await httpJson(pier, "GET", "/api/git/repo")).json).toMatchObject({ isRepo: true, head: { branch: "main", commit: null } });
  });

  it("a driver commits what is staged, as the person's identity", async () => {
    git("add", "README.md");
    const made = await post("/api/git/commit", { message: "Add the README" });
    expect(made.status, made.text).toBe(200);
    expect(made.json.subject).toBe("Add the README");
    expect(git("log", "--format=%s|%an").trim()).toBe("Add the README|Ada Tester");
    const state = (await httpJson(pier, "GET", "/api/git/repo")).json;
    expect(state.lastCommit.message).toBe("Add the README");
    expect(state.branches).toEqual([{ name: "main", current: true, upstream: null, ahead: 0, behind: 0 }]);
  });

  it("a viewer's hand-made requests: every change 403 with a sentence, nothing changed; the branch list is readable", async () => {
    const cookie = await viewerCookie();
    git("add", "-A");
    const before = git("rev-parse", "HEAD");
    for (const [path, body] of [
      ["/api/git/commit", { message: "viewer's commit" }],
      ["/api/git/branch/create", { name: "from-viewer" }],
      ["/api/git/branch/switch", { name: "main" }],
      ["/api/git/branch/delete", { name: "main", force: true }],
      ["/api/git/pull", {}],
      ["/api/git/push", {}],
      ["/api/git/init", {}],
    ] as const) {
      const answer = await post(path, body, cookie);
      // The relay's door refuses a viewer's every change (relay.ts); the git routes would too (driver_only).
      expect(answer.status, path).toBe(403);
      expect(answer.json.error.message).toMatch(/only a driver can .*commit, change branches, pull or push/);
    }
    expect(git("rev-parse", "HEAD")).toBe(before);
    expect(git("branch", "--format=%(refname:short)").trim()).toBe("main");
    const read = await httpJson(pier, "GET", "/api/git/repo", { cookie });
    expect(read.status).toBe(200);
    expect(read.json.branches.map((b: { name: string }) => b.name)).toEqual(["main"]);
  });

  it("an untrusted folder: commit, branch, pull and push refused with a sentence, and its hook never runs", async () => {
    const marker = join(home, "hook-ran");
    const hook = join(ws, ".git", "hooks", "pre-commit");
    await mkdir(join(ws, ".git", "hooks"), { recursive: true });
    // Refuses the commit (saying so) until the test allows it.
    await writeFile(hook, `#!/bin/sh\ntouch '${marker}'\n[ -e '${marker}-allow' ] || { echo 'pre-commit: not yet' >&2; exit 1; }\n`);
    await chmod(hook, 0o755);
    await setTrust(false);
    try {
      for (const [path, body] of [
        ["/api/git/commit", { message: "untrusted" }],
        ["/api/git/branch/create", { name: "x" }],
        ["/api/git/pull", {}],
        ["/api/git/push", {}],
      ] as const) {
        const answer = await post(path, body);
        expect([answer.status, answer.json?.error?.code], path).toEqual([403, "not_trusted"]);
        expect(answer.json.error.message).toMatch(/trust this folder/);
      }
      // Reading runs no hook either.
      expect((await httpJson(pier, "GET", "/api/git/repo")).json.staged).toBeGreaterThan(0);
      expect(existsSync(marker)).toBe(false);
      expect(git("log", "--format=%s").trim()).toBe("Add the README");
    } finally {
      await setTrust(true);
    }
    // Trusted again, the hook runs: its refusal comes back with its words, then it lets the commit through.
    const refused = await post("/api/git/commit", { message: "Everything else" });
    expect([refused.status, refused.json.error.code]).toEqual([409, "git_failed"]);
    expect(refused.json.output).toContain("pre-commit: not yet");
    expect(existsSync(marker)).toBe(true);
    expect(git("log", "--format=%s").trim()).toBe("Add the README");
    await writeFile(`${marker}-allow`, "");
    const made = await post("/api/git/commit", { message: "Everything else" });
    expect(made.status, made.text).toBe(200);
    expect(existsSync(marker)).toBe(true);
    await rm(hook);
  });

  it("a branch made, pushed to a bare remote and deleted: every page hears each at once (workspace_changed git:true)", async () => {
    const bare = join(home, "remote.git");
    execFileSync("git", ["init", "-q", "--bare", "-b", "main", bare]);
    git("remote", "add", "origin", bare);
    const other = await connectBrowser(pier, { cookie: await viewerCookie() });
    try {
      const gitFrames = () => other.frames.filter((frame) => frame.type === "workspace_changed" && frame.git === true).length;
      let seen = gitFrames();
      const created = await post("/api/git/branch/create", { name: "topic" });
      expect(created.status, created.text).toBe(200);
      await other.waitUntil(() => gitFrames() > seen, "workspace_changed git:true after the branch was made");
      seen = gitFrames();
      const pushed = await post("/api/git/push", {});
      expect(pushed.status, pushed.text).toBe(200);
      expect(execFileSync("git", ["-C", bare, "branch", "--format=%(refname:short)"], { encoding: "utf8" }).trim()).toBe("topic");
      await other.waitUntil(() => gitFrames() > seen, "workspace_changed git:true after the push");
      const state = (await httpJson(pier, "GET", "/api/git/repo")).json;
      expect(state.branches.find((b: { name: string }) => b.name === "topic")).toEqual({ name: "topic", current: true, upstream: "origin/topic", ahead: 0, behind: 0 });
      expect(state.remotes).toEqual(["origin"]);
      expect((await post("/api/git/branch/switch", { name: "main" })).status).toBe(200);
      const deleted = await post("/api/git/branch/delete", { name: "topic" });
      expect(deleted.status, deleted.text).toBe(200);
      const bad = await post("/api/git/branch/create", { name: "no good" });
      expect([bad.status, bad.json.error.code]).toEqual([400, "bad_branch_name"]);
    } finally {
      await other.close();
    }
  });
});
