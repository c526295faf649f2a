// What a repository can make git run, against the real git and GitFacts:
// each hostile repository below runs its command (a marker file appears)
// when its commands are allowed — so the fixture is live — and runs nothing
// when they are off, which is how Pier reads an untrusted folder, and how a
// viewer's request is always served.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitFacts } from "../../src/workspace/git-facts.ts";
import { WorkspacePaths } from "../../src/workspace/workspace-paths.ts";

let root: string;
let markers: string;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-C", cwd, "-c", "user.name=Pier Test", "-c", "user.email=test@pier.invalid", "-c", "commit.gpgsign=false", "-c", "protocol.file.allow=always", ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
/** A shell command that leaves `name` in the markers folder and then behaves as `rest` (a filter's cat). */
const touching = (name: string, rest = "cat") => `sh -c 'touch ${join(markers, name)}; ${rest}'`;
const marked = (name: string) => existsSync(join(markers, name));

/** A repository with one committed file whose filter is `driver`, then made stat-dirty (git must re-read it). */
async function repoWithFilteredFile(name: string, attributes: string): Promise<string> {
  const repo = join(root, name);
  await mkdir(repo);
  git(repo, "init", "-q", "-b", "main");
  await writeFile(join(repo, "a.txt"), "hello\n");
  await writeFile(join(repo, ".gitattributes"), attributes);
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "files");
  await touchLater(join(repo, "a.txt"));
  return repo;
}

/** New times on a file: its index entry no longer matches, so status hashes it again (through its filter). */
async function touchLater(file: string): Promise<void> {
  const later = new Date(Date.now() + 5_000);
  await utimes(file, later, later);
}

const facts = async (repo: string) => new GitFacts(new WorkspacePaths(repo));

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "pier-git-commands-")));
  markers = join(root, "markers");
  await mkdir(markers);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("git with the repository's own commands off", () => {
  it("a filter's clean command (.git/config, applied by .gitattributes)", async () => {
    const repo = await repoWithFilteredFile("clean", "* filter=evil\n");
    git(repo, "config", "filter.evil.clean", touching("clean"));
    const gitFacts = await facts(repo);
    const status = await gitFacts.status();
    expect(status.isRepo).toBe(true);
    expect(status.branch).toBe("main");
    expect(marked("clean")).toBe(false);
    await gitFacts.status({ repoCommands: true });
    expect(marked("clean")).toBe(true);
  });

  it("a long-running filter process marked required (status would otherwise die without it)", async () => {
    const repo = await repoWithFilteredFile("process", "* filter=evil\n");
    git(repo, "config", "filter.evil.process", touching("process", "exit 1"));
    git(repo, "config", "filter.evil.required", "true");
    const gitFacts = await facts(repo);
    const status = await gitFacts.status();
    expect(status.isRepo).toBe(true);
    expect(marked("process")).toBe(false);
    await gitFacts.status({ repoCommands: true });
    expect(marked("process")).toBe(true);
  });

  it("a filter defined in a file the config includes (include.path), its name holding dots and '='", async () => {
    const repo = await repoWithFilteredFile("included", "* filter=in.cl=ded\n");
    const included = join(root, "included.gitconfig");
    // Quoted: ";" starts a comment in a config file.
    await writeFile(included, `[filter "in.cl=ded"]\n\tclean = "${touching("included")}"\n`);
    git(repo, "config", "include.path", included);
    const gitFacts = await facts(repo);
    expect((await gitFacts.status()).isRepo).toBe(true);
    expect(marked("included")).toBe(false);
    await gitFacts.status({ repoCommands: true });
    expect(marked("included")).toBe(true);
  });

  it("a submodule's own config (status would recurse into it)", async () => {
    const upstream = await repoWithFilteredFile("sub-upstream", "* filter=subevil\n");
    const repo = join(root, "super");
    await mkdir(repo);
    git(repo, "init", "-q", "-b", "main");
    git(repo, "submodule", "add", "-q", upstream, "sub");
    git(repo, "commit", "-q", "-m", "sub");
    git(join(repo, "sub"), "config", "filter.subevil.clean", touching("submodule"));
    await touchLater(join(repo, "sub", "a.txt"));
    const gitFacts = await facts(repo);
    expect((await gitFacts.status()).isRepo).toBe(true);
    expect(marked("submodule")).toBe(false);
    await gitFacts.status({ repoCommands: true });
    expect(marked("submodule")).toBe(true);
  });

  it("a partial clone's lazy fetch of a missing blob (remote.<name>.uploadpack runs a command)", async () => {
    const upstream = join(root, "promisor");
    await mkdir(upstream);
    git(upstream, "init", "-q", "-b", "main");
    await writeFile(join(upstream, "f.txt"), "from upstream\n");
    git(upstream, "add", "-A");
    git(upstream, "commit", "-q", "-m", "up");
    git(upstream, "config", "uploadpack.allowFilter", "true");
    const repo = join(root, "partial");
    execFileSync("git", ["-c", "protocol.file.allow=always", "clone", "-q", "--no-checkout", "--filter=blob:none", `file://${upstream}`, repo], { stdio: "ignore" });
    git(repo, "config", "remote.origin.uploadpack", `sh -c 'touch ${join(markers, "fetch")}; git-upload-pack "$@"' upload`);
    git(repo, "config", "protocol.file.allow", "always");
    const gitFacts = await facts(repo);
    expect(await gitFacts.head("f.txt")).toEqual({ path: "f.txt", content: null, reason: "not_in_head" });
    expect(marked("fetch")).toBe(false);
    expect(await gitFacts.head("f.txt", { repoCommands: true })).toEqual({ path: "f.txt", content: "from upstream\n" });
    expect(marked("fetch")).toBe(true);
  });

  it("textconv, diff.<driver>.command and diff.external: no command git-facts runs reaches them, trusted or not", async () => {
    const repo = await repoWithFilteredFile("diff", "* diff=evil\n");
    git(repo, "config", "diff.evil.textconv", touching("textconv"));
    git(repo, "config", "diff.evil.command", touching("diff-command"));
    git(repo, "config", "diff.external", touching("external"));
    await writeFile(join(repo, "a.txt"), "changed\n");
    const gitFacts = await facts(repo);
    for (const repoCommands of [false, true]) {
      // The line counts too (git diff --numstat) come from the bytes, not from a driver.
      expect((await gitFacts.status({ repoCommands })).changes).toEqual([{ path: "a.txt", status: "modified", index: " ", worktree: "M", added: 1, deleted: 1 }]);
      expect(await gitFacts.head("a.txt", { repoCommands })).toEqual({ path: "a.txt", content: "hello\n" });
    }
    expect(["textconv", "diff-command", "external"].filter(marked)).toEqual([]);
  });

  it("the workspace's status is still right with the commands off (a plain repository)", async () => {
    const repo = await repoWithFilteredFile("plain", "");
    await writeFile(join(repo, "a.txt"), "changed\n");
    await writeFile(join(repo, "new.txt"), "new\n");
    expect(await (await facts(repo)).status()).toEqual({
      isRepo: true,
      branch: "main",
      changes: [
        { path: "a.txt", status: "modified", index: " ", worktree: "M", added: 1, deleted: 1 },
        { path: "new.txt", status: "untracked", index: "?", worktree: "?" },
      ],
    });
  });
});
