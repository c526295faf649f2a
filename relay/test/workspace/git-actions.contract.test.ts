// Committing, branches, pull and push against the real git in temp
// repositories (relay/src/workspace/git-commit.ts, git-branches.ts,
// git-remote.ts, git-repo-state.ts). HOME points at a temp folder whose
// .gitconfig holds a known identity (or none), and the machine's system
// config is left out, so what git is told about the person is the test's.
import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBranch, deleteBranch, switchBranch, validBranchName } from "../../src/workspace/git-branches.ts";
import { commitStaged } from "../../src/workspace/git-commit.ts";
import { initRepository, pull, push } from "../../src/workspace/git-remote.ts";
import { readRepoState } from "../../src/workspace/git-repo-state.ts";
import { GitRunner } from "../../src/workspace/git-run.ts";
import { WorkspaceError } from "../../src/workspace/workspace-error.ts";

let root: string;
let home: string;
let noIdentityHome: string;
const savedEnv: Record<string, string | undefined> = {};
const ENV_NAMES = ["HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"];

/** git as the test's own hands (never through the code under test). */
const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
let counter = 0;

/** A fresh repository with one commit on main (or none with `empty`). */
async function repo(options: { empty?: boolean } = {}): Promise<{ dir: string; runner: GitRunner }> {
  const dir = join(root, `repo-${++counter}`);
  await mkdir(dir);
  git(dir, "init", "-q", "-b", "main");
  if (!options.empty) {
    await writeFile(join(dir, "a.txt"), "one\n");
    git(dir, "add", "a.txt");
    git(dir, "commit", "-q", "-m", "first");
  }
  return { dir, runner: new GitRunner(dir) };
}

/** The WorkspaceError a call throws (fails the test when it does not throw one). */
async function refusal(promise: Promise<unknown>): Promise<WorkspaceError & { extra: { output?: string } }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WorkspaceError) return error as WorkspaceError & { extra: { output?: string } };
    throw error;
  }
  throw new Error("expected a refusal, got success");
}

const log = (dir: string) => git(dir, "log", "--format=%s|%an <%ae>").trim().split("\n");

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "pier-git-actions-")));
  home = join(root, "home");
  noIdentityHome = join(root, "nobody");
  await mkdir(home);
  await mkdir(noIdentityHome);
  await writeFile(join(home, ".gitconfig"), "[user]\n\tname = Ada Tester\n\temail = ada@pier.invalid\n[commit]\n\tgpgsign = false\n[init]\n\tdefaultBranch = main\n");
  await writeFile(join(noIdentityHome, ".gitconfig"), "[user]\n\tuseConfigOnly = true\n[init]\n\tdefaultBranch = main\n");
  for (const name of ENV_NAMES) savedEnv[name] = process.env[name];
  for (const name of ENV_NAMES) delete process.env[name];
  process.env.GIT_CONFIG_NOSYSTEM = "1";
});
beforeEach(() => {
  process.env.HOME = home;
  process.env.XDG_CONFIG_HOME = join(home, ".config");
});
afterAll(async () => {
  for (const name of ENV_NAMES) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  await rm(root, { recursive: true, force: true });
});

describe("commit", () => {
  it("commits what is staged, with the person's identity, and leaves the rest unstaged", async () => {
    const { dir, runner } = await repo();
    await writeFile(join(dir, "a.txt"), "two\n");
    await writeFile(join(dir, "b.txt"), "not staged\n");
    git(dir, "add", "a.txt");
    const made = await commitStaged(runner, { message: "Second change\n\nWhy it was made." });
    expect(made.subject).toBe("Second change");
    expect(made.commit).toMatch(/^[0-9a-f]{7,}$/);
    expect(log(dir)).toEqual(["Second change|Ada Tester <ada@pier.invalid>", "first|Ada Tester <ada@pier.invalid>"]);
    expect(git(dir, "log", "-1", "--format=%B").trim()).toBe("Second change\n\nWhy it was made.");
    expect(git(dir, "status", "--porcelain")).toBe("?? b.txt\n");
  });

  it("amends the last commit: its message replaced, what is staged added, no new commit", async () => {
    const { dir, runner } = await repo();
    const before = await readRepoState(runner);
    expect(before.isRepo && before.lastCommit?.message).toBe("first");
    await writeFile(join(dir, "c.txt"), "added later\n");
    git(dir, "add", "c.txt");
    await commitStaged(runner, { message: "first, with c", amend: true });
    expect(log(dir)).toEqual(["first, with c|Ada Tester <ada@pier.invalid>"]);
    expect(git(dir, "show", "--name-only", "--format=", "HEAD").trim().split("\n").sort()).toEqual(["a.txt", "c.txt"]);
  });

  it("refuses with nothing staged, and with an empty message, before git is asked", async () => {
    const { dir, runner } = await repo();
    await writeFile(join(dir, "a.txt"), "changed, not staged\n");
    const nothing = await refusal(commitStaged(runner, { message: "nothing" }));
    expect([nothing.status, nothing.code]).toEqual([409, "nothing_staged"]);
    expect(nothing.message).toMatch(/Nothing is staged/);
    const empty = await refusal(commitStaged(runner, { message: "  \n" }));
    expect([empty.status, empty.code]).toEqual([400, "bad_request"]);
    expect(log(dir)).toHaveLength(1);
  });

  it("a failing pre-commit hook commits nothing and its output comes back", async () => {
    const { dir, runner } = await repo();
    const hook = join(dir, ".git", "hooks", "pre-commit");
    await writeFile(hook, "#!/bin/sh\necho 'lint: a.txt has a TODO' >&2\nexit 1\n");
    await chmod(hook, 0o755);
    await writeFile(join(dir, "a.txt"), "TODO\n");
    git(dir, "add", "a.txt");
    const refused = await refusal(commitStaged(runner, { message: "Try" }));
    expect([refused.status, refused.code]).toEqual([409, "git_failed"]);
    expect(refused.extra.output).toContain("lint: a.txt has a TODO");
    expect(log(dir)).toEqual(["first|Ada Tester <ada@pier.invalid>"]);
    // Still staged: nothing was lost.
    expect(git(dir, "diff", "--cached", "--name-only").trim()).toBe("a.txt");
  });

  it("a commit-msg hook runs on the message", async () => {
    const { dir, runner } = await repo();
    const hook = join(dir, ".git", "hooks", "commit-msg");
    await writeFile(hook, '#!/bin/sh\ngrep -q "^Ticket:" "$1" || { echo "commit-msg: add a Ticket: line"; exit 1; }\n');
    await chmod(hook, 0o755);
    await writeFile(join(dir, "a.txt"), "two\n");
    git(dir, "add", "a.txt");
    expect((await refusal(commitStaged(runner, { message: "No ticket" }))).extra.output).toContain("commit-msg: add a Ticket: line");
    await commitStaged(runner, { message: "With a ticket\n\nTicket: 12" });
    expect(log(dir)[0]).toBe("With a ticket|Ada Tester <ada@pier.invalid>");
  });

  it("without an identity: a sentence that says how to set one, and no commit", async () => {
    const { dir, runner } = await repo();
    await writeFile(join(dir, "a.txt"), "two\n");
    git(dir, "add", "a.txt");
    process.env.HOME = noIdentityHome;
    process.env.XDG_CONFIG_HOME = join(noIdentityHome, ".config");
    const refused = await refusal(commitStaged(runner, { message: "Who am I" }));
    expect([refused.status, refused.code]).toEqual([409, "no_identity"]);
    expect(refused.message).toContain('git config --global user.name "Your Name"');
    expect(refused.message).toContain("git config --global user.email");
    process.env.HOME = home;
    expect(log(dir)).toHaveLength(1);
  });

  it("the first commit of a repository with none; amending there is refused", async () => {
    const { dir, runner } = await repo({ empty: true });
    const empty = await readRepoState(runner);
    expect(empty).toMatchObject({ isRepo: true, head: { branch: "main", commit: null }, branches: [], lastCommit: null, staged: 0 });
    await writeFile(join(dir, "first.txt"), "hello\n");
    git(dir, "add", "first.txt");
    expect((await readRepoState(runner)).isRepo && ((await readRepoState(runner)) as { staged: number }).staged).toBe(1);
    expect((await refusal(commitStaged(runner, { message: "x", amend: true }))).message).toMatch(/no commit to amend/);
    await commitStaged(runner, { message: "Initial commit" });
    expect(log(dir)).toEqual(["Initial commit|Ada Tester <ada@pier.invalid>"]);
  });

  it("on a detached HEAD: shown, commit works, and a branch made from there keeps it", async () => {
    const { dir, runner } = await repo();
    git(dir, "checkout", "-q", "--detach");
    const state = await readRepoState(runner);
    expect(state.isRepo && state.head.branch).toBe(null);
    expect(state.isRepo && state.head.commit).toMatch(/^[0-9a-f]{7,}$/);
    await writeFile(join(dir, "a.txt"), "detached work\n");
    git(dir, "add", "a.txt");
    await commitStaged(runner, { message: "Detached work" });
    await createBranch(runner, { name: "rescued" });
    expect(git(dir, "symbolic-ref", "--short", "HEAD").trim()).toBe("rescued");
    expect(git(dir, "log", "-1", "--format=%s", "rescued").trim()).toBe("Detached work");
  });

  it("a merge with conflicts: shown with what is merged and the count; committing it is git's refusal", async () => {
    const { dir, runner } = await repo();
    git(dir, "checkout", "-q", "-b", "feature");
    await writeFile(join(dir, "a.txt"), "feature\n");
    git(dir, "commit", "-q", "-am", "feature side");
    git(dir, "checkout", "-q", "main");
    await writeFile(join(dir, "a.txt"), "main\n");
    git(dir, "commit", "-q", "-am", "main side");
    expect(() => git(dir, "merge", "feature")).toThrow();
    const state = await readRepoState(runner);
    expect(state).toMatchObject({ isRepo: true, operation: { kind: "merge", onto: "feature" }, conflicted: 1, staged: 0 });
    const refused = await refusal(commitStaged(runner, { message: "Merge" }));
    expect(refused.code).toBe("git_failed");
    expect(refused.extra.output).toMatch(/unmerged files/);
    await writeFile(join(dir, "a.txt"), "both\n");
    git(dir, "add", "a.txt");
    await commitStaged(runner, { message: "Merge feature" });
    expect(git(dir, "log", "-1", "--format=%p").trim().split(" ")).toHaveLength(2);
    expect((await readRepoState(runner)) as object).toMatchObject({ operation: null, conflicted: 0 });
  });

  it("an index.lock left by another git: a clear sentence, nothing committed", async () => {
    const { dir, runner } = await repo();
    await writeFile(join(dir, "a.txt"), "two\n");
    git(dir, "add", "a.txt");
    await writeFile(join(dir, ".git", "index.lock"), "");
    expect((await readRepoState(runner)) as object).toMatchObject({ locked: true });
    const refused = await refusal(commitStaged(runner, { message: "Locked" }));
    expect([refused.status, refused.code]).toEqual([409, "git_locked"]);
    expect(refused.message).toContain("index.lock");
    expect(log(dir)).toHaveLength(1);
  });
});

describe("branches", () => {
  it("creates (and switches to), switches, lists and deletes", async () => {
    const { dir, runner } = await repo();
    await createBranch(runner, { name: "feature/x" });
    expect(git(dir, "symbolic-ref", "--short", "HEAD").trim()).toBe("feature/x");
    await switchBranch(runner, { name: "main" });
    const state = await readRepoState(runner);
    expect(state.isRepo && state.branches.map((b) => [b.name, b.current])).toEqual([
      ["feature/x", false],
      ["main", true],
    ]);
    await deleteBranch(runner, { name: "feature/x" });
    expect(git(dir, "branch", "--format=%(refname:short)").trim()).toBe("main");
  });

  it("refuses a switch that would overwrite uncommitted work, in git's words, and changes nothing", async () => {
    const { dir, runner } = await repo();
    await createBranch(runner, { name: "other" });
    await writeFile(join(dir, "a.txt"), "on other\n");
    git(dir, "commit", "-q", "-am", "other's a");
    await switchBranch(runner, { name: "main" });
    await writeFile(join(dir, "a.txt"), "my unsaved work\n");
    const refused = await refusal(switchBranch(runner, { name: "other" }));
    expect(refused.code).toBe("git_failed");
    expect(refused.extra.output).toMatch(/would be overwritten/);
    expect(git(dir, "symbolic-ref", "--short", "HEAD").trim()).toBe("main");
  });

  it("an unmerged branch is deleted only when forced; the current one never", async () => {
    const { dir, runner } = await repo();
    await createBranch(runner, { name: "unmerged" });
    await writeFile(join(dir, "u.txt"), "only here\n");
    git(dir, "add", "u.txt");
    git(dir, "commit", "-q", "-m", "only on unmerged");
    expect((await refusal(deleteBranch(runner, { name: "unmerged" }))).code).toBe("git_failed");
    await switchBranch(runner, { name: "main" });
    const refused = await refusal(deleteBranch(runner, { name: "unmerged" }));
    expect(refused.code).toBe("branch_not_merged");
    expect(refused.extra.output).toMatch(/not fully merged/);
    await deleteBranch(runner, { name: "unmerged", force: true });
    expect(git(dir, "branch", "--format=%(refname:short)").trim()).toBe("main");
  });

  it("refuses names git refuses, with a sentence, before creating anything", async () => {
    const { dir, runner } = await repo();
    for (const name of ["a..b", "has space", "-x", "@{-1}", "end/", "x.lock", "", "a:b"]) {
      const refused = await refusal(validBranchName(runner, name));
      expect([refused.status, refused.code], name).toEqual([400, "bad_branch_name"]);
    }
    expect((await refusal(createBranch(runner, { name: "two words" }))).message).toContain('"two words"');
    expect(git(dir, "branch", "--format=%(refname:short)").trim()).toBe("main");
  });
});

describe("remote", () => {
  it("pushes to a bare repository (setting the upstream), counts ahead/behind, pulls fast-forward only", async () => {
    const bare = join(root, `bare-${++counter}.git`);
    execFileSync("git", ["init", "-q", "--bare", "-b", "main", bare]);
    const { dir, runner } = await repo();
    const noRemote = await refusal(push(runner));
    expect(noRemote.code).toBe("no_remote");
    git(dir, "remote", "add", "origin", bare);
    const pushed = await push(runner);
    expect(pushed.branch).toBe("main");
    expect(git(bare, "log", "--format=%s", "main").trim()).toBe("first");
    let state = await readRepoState(runner);
    expect(state.isRepo && state.branches[0]).toEqual({ name: "main", current: true, upstream: "origin/main", ahead: 0, behind: 0 });

    // Another clone moves main on; here one commit of our own is not pushed yet.
    const other = join(root, `clone-${counter}`);
    execFileSync("git", ["clone", "-q", bare, other]);
    await writeFile(join(other, "theirs.txt"), "theirs\n");
    git(other, "add", "theirs.txt");
    git(other, "commit", "-q", "-m", "theirs");
    git(other, "push", "-q");
    git(dir, "fetch", "-q");
    await writeFile(join(dir, "mine.txt"), "mine\n");
    git(dir, "add", "mine.txt");
    await commitStaged(runner, { message: "mine" });
    state = await readRepoState(runner);
    expect(state.isRepo && state.branches[0]).toMatchObject({ ahead: 1, behind: 1 });

    const diverged = await refusal(pull(runner));
    expect(diverged.code).toBe("not_fast_forward");
    expect(diverged.message).toMatch(/cannot fast-forward; nothing changed/);
    expect(log(dir)[0]).toBe("mine|Ada Tester <ada@pier.invalid>");
    const rejected = await refusal(push(runner));
    expect(rejected.code).toBe("git_failed");
    expect(rejected.extra.output).toMatch(/rejected/);

    // Back to their commit: the pull fast-forwards.
    git(dir, "reset", "-q", "--hard", "origin/main~1");
    const pulled = await pull(runner);
    expect(pulled.branch).toBe("main");
    expect(git(dir, "log", "-1", "--format=%s").trim()).toBe("theirs");

    // A new branch's first push sets its upstream.
    await createBranch(runner, { name: "topic" });
    await push(runner);
    expect(git(dir, "rev-parse", "--abbrev-ref", "topic@{upstream}").trim()).toBe("origin/topic");
    expect(git(bare, "branch", "--format=%(refname:short)").trim().split("\n").sort()).toEqual(["main", "topic"]);
  });

  it("a remote that wants a password fails at once instead of waiting for one", async () => {
    const { dir, runner } = await repo();
    // A server that asks every request for a user name and password (HTTP Basic).
    const server = createServer((_request, response) => {
      response.writeHead(401, { "WWW-Authenticate": 'Basic realm="pier test"' });
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      git(dir, "remote", "add", "origin", `http://127.0.0.1:${(server.address() as AddressInfo).port}/private.git`);
      const started = Date.now();
      const refused = await refusal(push(runner));
      expect(refused.code).toBe("git_failed");
      expect(refused.extra.output).toMatch(/could not read Username.*terminal prompts disabled/);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      server.close();
    }
  });

  it("an ssh remote goes through the person's own ssh command (core.sshCommand), with no terminal to prompt on", async () => {
    const { dir, runner } = await repo();
    const mark = join(root, `ssh-mark-${counter}`);
    const fakeSsh = join(root, `fake-ssh-${counter}.sh`);
    // Notes whether it could open a terminal to ask on, then refuses as ssh does without a key.
    await writeFile(fakeSsh, `#!/bin/sh\nif (: < /dev/tty) 2>/dev/null; then echo tty; else echo no-tty; fi > '${mark}'\necho "fake ssh: Permission denied (publickey,password)." >&2\nexit 255\n`);
    await chmod(fakeSsh, 0o755);
    git(dir, "config", "core.sshCommand", fakeSsh);
    git(dir, "remote", "add", "origin", "ssh://git.pier.invalid/private.git");
    const refused = await refusal(push(runner));
    expect(refused.code).toBe("git_failed");
    expect(refused.extra.output).toContain("fake ssh: Permission denied");
    expect((await readFile(mark, "utf8")).trim()).toBe("no-tty");
  });
});

describe("git init", () => {
  it("makes a folder a repository, and refuses one that is already", async () => {
    const dir = join(root, `plain-${++counter}`);
    await mkdir(dir);
    const runner = new GitRunner(dir);
    expect(await readRepoState(runner)).toEqual({ isRepo: false });
    const notRepo = await refusal(commitStaged(runner, { message: "x" }));
    expect(notRepo.code).toBe("not_a_repo");
    await initRepository(runner);
    expect(await readRepoState(runner)).toMatchObject({ isRepo: true, head: { branch: "main", commit: null } });
    expect((await refusal(initRepository(runner))).code).toBe("already_a_repo");
  });
});
