// The workspace file service against the real `pier --demo` process: its
// workspace is a scratch copy of relay/demo-project, where this suite plants
// its fixtures (links out of the workspace, a FIFO, ignored files, a git
// repository) and then attacks and uses the HTTP API like a browser would.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, link, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";
import { snapshotDifferences, snapshotFolder } from "./folder-snapshot.ts";
import { startFolderSwapper } from "./folder-swapper.ts";
import { httpJson, type JsonAnswer } from "./workspace-http.ts";

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");
const PASSWD = existsSync("/etc/passwd") ? await readFile("/etc/passwd", "utf8") : null;

describe("workspace API", () => {
  let pier: RunningPier;
  let browser: Browser;
  let ws: string;
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", ws, "-c", "user.name=Pier Test", "-c", "user.email=test@pier.invalid", "-c", "commit.gpgsign=false", ...args], {
      encoding: "utf8",
    });
  const get = (path: string, options?: Parameters<typeof httpJson>[3]) => httpJson(pier, "GET", path, options);
  const read = (rel: string) => get(`/api/files/content?path=${encodeURIComponent(rel)}`);
  const save = (body: unknown, options: Parameters<typeof httpJson>[3] = {}) => httpJson(pier, "PUT", "/api/files/content", { body, ...options });
  const post = (what: "create" | "rename" | "delete", body: unknown, options: Parameters<typeof httpJson>[3] = {}) => httpJson(pier, "POST", `/api/files/${what}`, { body, ...options });
  const expectError = (answer: JsonAnswer, status: number, code: string) => {
    expect({ status: answer.status, code: answer.json?.error?.code }, answer.text).toEqual({ status, code });
    expect(typeof answer.json.error.message).toBe("string");
    expect(answer.json.error.message.length).toBeGreaterThan(10);
  };

  beforeAll(async () => {
    pier = await startPier(["--demo"]);
    browser = await connectBrowser(pier);
    ws = browser.hello.demo?.projectDir ?? browser.hello.cwd;
    expect(ws).toMatch(/pier-demo-project-/);
    await writeFile(join(ws, ".gitignore"), "ignored.txt\nbuild/\n");
    await writeFile(join(ws, "ignored.txt"), "hidden\n");
    await mkdir(join(ws, "build"));
    await writeFile(join(ws, "build", "out.js"), "built\n");
    await writeFile(join(ws, "data.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    await writeFile(join(ws, "big.txt"), "x".repeat(3 * 1024 * 1024));
    await symlink("/etc/passwd", join(ws, "escape-passwd"));
    await symlink("/etc/passwd", join(ws, "escape-to-delete"));
    await symlink("/", join(ws, "rootlink"));
    await symlink("src", join(ws, "srclink"));
    await symlink("README.md", join(ws, "readme-link"));
    execFileSync("mkfifo", [join(ws, "fifo")]);
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "fixtures");
  });
  afterAll(async () => {
    await browser?.close();
    await pier?.stop();
  });

  describe("attacks", () => {
    it.each([
      ["../../../../etc/passwd", "../ traversal"],
      ["..%2f..%2f..%2f..%2fetc%2fpasswd", "encoded slash"],
      ["%2e%2e/%2e%2e/%2e%2e/etc/passwd", "encoded dots"],
      ["/etc/passwd", "absolute"],
      ["%2Fetc%2Fpasswd", "encoded absolute"],
      ["%5C..%5C..%5Cetc%5Cpasswd", "backslashes"],
      ["README.md%00.txt", "NUL byte"],
      ["src/../../x", "inner .."],
      ["", "empty"],
    ])("GET content with %j (%s) is 400 bad_path", async (raw) => {
      const answer = await get(`/api/files/content?path=${raw}`);
      expectError(answer, 400, "bad_path");
      if (PASSWD) expect(answer.text).not.toContain("root:");
    });

    it("decodes the query exactly once: a double-encoded %252e%252e is a (missing) file name, not a traversal", async () => {
      expectError(await get("/api/files/content?path=%252e%252e%252f%252e%252e%252fetc%252fpasswd"), 404, "not_found");
    });

    it("never serves .git, however it is spelled or reached", async () => {
      expectError(await read(".git/config"), 403, "forbidden_path");
      expectError(await read(".GIT/config"), 403, "forbidden_path");
      expectError(await get("/api/files/content?path=%2egit%2fconfig"), 403, "forbidden_path");
      await symlink(".git", join(ws, "gitlink"));
      expectError(await read("gitlink/config"), 403, "forbidden_path");
      expectError(await save({ path: ".git/hooks/pre-commit", content: "#!/bin/sh\n", baseVersion: null }), 403, "forbidden_path");
      expect(existsSync(join(ws, ".git", "hooks", "pre-commit"))).toBe(false);
    });

    it("refuses to read through a symbolic link that leads outside (a file, and a link to /)", async () => {
      for (const rel of ["escape-passwd", "rootlink/etc/passwd", "rootlink/etc"]) {
        const answer = await read(rel);
        expectError(answer, 403, "outside_workspace");
        if (PASSWD) expect(answer.text).not.toContain("root:");
      }
    });

    it("answers a FIFO at once with 415 (it is never opened, so nothing blocks)", async () => {
      const started = Date.now();
      expectError(await read("fifo"), 415, "not_regular_file");
      expectError(await save({ path: "fifo", content: "x", baseVersion: null }), 415, "not_regular_file");
      expect(Date.now() - started).toBeLessThan(5000);
      expectError(await read("src"), 415, "not_regular_file");
    });

    it("refuses to write through a symbolic link, inside or outside", async () => {
      const readme = await readFile(join(ws, "README.md"), "utf8");
      expectError(await save({ path: "escape-passwd", content: "owned\n", baseVersion: null }), 403, "outside_workspace");
      expectError(await save({ path: "rootlink/tmp/pier-attack.txt", content: "owned\n", baseVersion: null }), 403, "outside_workspace");
      expectError(await save({ path: "readme-link", content: "owned\n", baseVersion: sha256(readme) }), 403, "symlink_refused");
      expectError(await save({ path: "srclink/new.js", content: "owned\n", baseVersion: null }), 403, "symlink_refused");
      expectError(await post("create", { path: "rootlink/tmp/pier-attack-dir", type: "dir" }), 403, "outside_workspace");
      expect(existsSync("/tmp/pier-attack.txt")).toBe(false);
      expect(existsSync("/tmp/pier-attack-dir")).toBe(false);
      expect(existsSync(join(ws, "src", "new.js"))).toBe(false);
      expect(await readFile(join(ws, "README.md"), "utf8")).toBe(readme);
      if (PASSWD) expect(await readFile("/etc/passwd", "utf8")).toBe(PASSWD);
    });

    it("refuses to rename to or from outside the workspace", async () => {
      expectError(await post("rename", { from: "README.md", to: "../stolen.md" }), 400, "bad_path");
      expectError(await post("rename", { from: "README.md", to: "rootlink/tmp/stolen.md" }), 403, "outside_workspace");
      expectError(await post("rename", { from: "rootlink/etc/hostname", to: "hostname" }), 403, "outside_workspace");
      expectError(await post("rename", { from: "README.md", to: ".git/README.md" }), 403, "forbidden_path");
      expect(existsSync(join(ws, "README.md"))).toBe(true);
      expect(existsSync("/tmp/stolen.md")).toBe(false);
    });

    it("refuses to delete outside; deleting a link removes the link, never its target", async () => {
      expectError(await post("delete", { path: "../tiny-greeter" }), 400, "bad_path");
      expectError(await post("delete", { path: "rootlink/tmp" }), 403, "outside_workspace");
      expectError(await post("delete", { path: "/tmp" }), 400, "bad_path");
      const answer = await post("delete", { path: "escape-to-delete" });
      expect(answer.status, answer.text).toBe(200);
      expect(existsSync(join(ws, "escape-to-delete"))).toBe(false);
      if (PASSWD) expect(await readFile("/etc/passwd", "utf8")).toBe(PASSWD);
    });

    it("keeps every change inside while a folder is swapped for a link to outside, again and again", async () => {
      const outside = await mkdtemp(join(tmpdir(), "pier-race-outside-"));
      try {
        for (const dir of [join(ws, "racy"), outside]) {
          await mkdir(join(dir, "tree"), { recursive: true });
          await writeFile(join(dir, "a.txt"), "same\n");
          await writeFile(join(dir, "tree", "x.txt"), "do not delete\n");
        }
        const before = await snapshotFolder(outside);
        const statuses = new Map<string, number>();
        const count = (answer: JsonAnswer) => {
          const key = answer.status === 200 ? "200" : `${answer.status} ${answer.json?.error?.code}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          return answer.status === 200;
        };
        const swapper = startFolderSwapper(join(ws, "racy"), outside, { linkMicros: 300, realMicros: 300 });
        const deadline = Date.now() + 2000;
        try {
          for (let i = 0; Date.now() < deadline; i++) {
            count(await save({ path: `racy/new-${i}.txt`, content: "new\n", baseVersion: null }));
            count(await save({ path: "racy/a.txt", content: "same\n", baseVersion: sha256("same\n") }));
            count(await post("create", { path: `racy/d-${i}`, type: "dir" }));
            count(await post("rename", { from: "racy/a.txt", to: `racy/a-${i}.txt` }));
            count(await post("rename", { from: `racy/a-${i}.txt`, to: "racy/a.txt" }));
            count(await post("delete", { path: `racy/d-${i}` }));
            count(await post("delete", { path: "racy/tree", recursive: true }));
            count(await post("create", { path: "racy/tree", type: "dir" }));
          }
        } finally {
          await swapper.stop();
        }
        const seen = Object.fromEntries(statuses);
        console.log(`symlink race over HTTP: ${JSON.stringify(seen)}`);
        expect(snapshotDifferences(before, await snapshotFolder(outside))).toEqual([]);
        expect(
          Object.keys(seen).every((key) => /^(200|403 (symlink_refused|outside_workspace)|404 not_found|409 (exists|conflict|not_empty))$/.test(key)),
          JSON.stringify(seen),
        ).toBe(true);
        expect(seen["200"] ?? 0, JSON.stringify(seen)).toBeGreaterThan(0);
        expect((seen["403 symlink_refused"] ?? 0) + (seen["403 outside_workspace"] ?? 0), JSON.stringify(seen)).toBeGreaterThan(0);
      } finally {
        await rm(join(ws, "racy"), { recursive: true, force: true });
        await rm(join(ws, "racy.real"), { recursive: true, force: true });
        await rm(outside, { recursive: true, force: true });
      }
    });

    it("lists a file hard-linked from outside, but neither reads nor saves it", async () => {
      const outside = await mkdtemp(join(tmpdir(), "pier-hardlink-"));
      try {
        await writeFile(join(outside, "id_rsa"), "PRIVATE KEY\n");
        await link(join(outside, "id_rsa"), join(ws, "notes-linked.txt"));
        const tree = await get("/api/files/tree");
        expect(tree.json.entries).toContainEqual({ path: "notes-linked.txt", type: "file", size: 12 });
        const answer = await read("notes-linked.txt");
        expectError(answer, 403, "hard_link_refused");
        expect(answer.json.error.message).toContain("Pier does not open hard-linked files");
        expect(answer.text).not.toContain("PRIVATE KEY");
        const saved = await save({ path: "notes-linked.txt", content: "owned\n", baseVersion: null });
        expectError(saved, 403, "hard_link_refused");
        expect(saved.text).not.toContain("PRIVATE KEY");
        expect(await readFile(join(outside, "id_rsa"), "utf8")).toBe("PRIVATE KEY\n");
        expect((await post("delete", { path: "notes-linked.txt" })).status).toBe(200);
        expect(await readFile(join(outside, "id_rsa"), "utf8")).toBe("PRIVATE KEY\n");
      } finally {
        await rm(outside, { recursive: true, force: true });
      }
    });

    it("refuses a change without the page's Origin (403) and a foreign Origin (403)", async () => {
      const readme = await readFile(join(ws, "README.md"), "utf8");
      expectError(await save({ path: "README.md", content: "x", baseVersion: sha256(readme) }, { origin: null }), 403, "origin_required");
      expectError(await post("create", { path: "evil.txt", type: "file" }, { origin: "http://evil.example" }), 403, "forbidden");
      expectError(await post("create", { path: "evil.txt", type: "file" }, { origin: null }), 403, "origin_required");
      expect(await readFile(join(ws, "README.md"), "utf8")).toBe(readme);
      expect(existsSync(join(ws, "evil.txt"))).toBe(false);
    });

    it("answers no cookie with a JSON 401, for reads and changes", async () => {
      expectError(await get("/api/files/tree", { cookie: null }), 401, "unauthorized");
      expectError(await read("README.md").then(() => get("/api/files/content?path=README.md", { cookie: null })), 401, "unauthorized");
      expectError(await post("create", { path: "nocookie.txt", type: "file" }, { cookie: null }), 401, "unauthorized");
      expectError(await get("/api/git/status", { cookie: `pier_${pier.port}=forged` }), 401, "unauthorized");
      expect(existsSync(join(ws, "nocookie.txt"))).toBe(false);
    });

    it("refuses bodies that are too large (413), not JSON (415) or malformed (400)", async () => {
      expectError(await post("create", { path: "x".repeat(70 * 1024), type: "file" }), 413, "payload_too_large");
      expectError(await save({ path: "huge.txt", content: "y".repeat(9 * 1024 * 1024), baseVersion: null }), 413, "payload_too_large");
      expectError(await post("create", { path: "form.txt", type: "file" }, { contentType: "text/plain" }), 415, "unsupported_media_type");
      expectError(await post("create", "{not json"), 400, "bad_request");
      expectError(await post("create", { path: "x.txt", type: "socket" }), 400, "bad_request");
      expectError(await save({ path: "x.txt", content: "x" }), 400, "bad_request");
      expect(existsSync(join(ws, "huge.txt"))).toBe(false);
      expect(existsSync(join(ws, "form.txt"))).toBe(false);
    });

    it("answers unknown API paths with 404 and wrong methods with 405, in JSON", async () => {
      expectError(await get("/api/files/nothing"), 404, "not_found");
      const answer = await httpJson(pier, "DELETE", "/api/files/content?path=README.md");
      expectError(answer, 405, "method_not_allowed");
      expect(answer.headers.allow).toBe("GET, PUT");
    });

    it("keeps git's arguments data: an option-like path is just a path not in HEAD", async () => {
      const answer = await get(`/api/git/head?path=${encodeURIComponent("--output=/tmp/pier-git-injection")}`);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ path: "--output=/tmp/pier-git-injection", content: null, reason: "not_in_head" });
      expect(existsSync("/tmp/pier-git-injection")).toBe(false);
      expectError(await get("/api/git/head?path=../../etc/passwd"), 400, "bad_path");
    });
  });

  describe("reading", () => {
    it("lists the tree: dirs first, by name, .gitignore respected, .git hidden, links listed not followed, FIFO left out", async () => {
      const answer = await get("/api/files/tree");
      expect(answer.status).toBe(200);
      expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(answer.headers["cache-control"]).toBe("no-store");
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      const { root, entries, truncated } = answer.json as { root: string; entries: { path: string; type: string; size: number }[]; truncated: boolean };
      expect(root).toBe(ws);
      expect(truncated).toBe(false);
      const paths = entries.map((entry) => entry.path);
      expect(paths).toContain("src");
      expect(paths).toContain("src/greet.js");
      expect(paths).toContain(".gitignore");
      for (const hidden of ["ignored.txt", "build", "build/out.js", ".git", ".git/config", "fifo"]) expect(paths).not.toContain(hidden);
      expect(paths.some((path) => path.startsWith("rootlink/"))).toBe(false);
      expect(entries.find((entry) => entry.path === "rootlink")?.type).toBe("symlink");
      expect(entries.find((entry) => entry.path === "README.md")).toEqual({
        path: "README.md",
        type: "file",
        size: (await stat(join(ws, "README.md"))).size,
      });
      // Top level: folders first, each group sorted.
      const top = entries.filter((entry) => !entry.path.includes("/"));
      const firstFile = top.findIndex((entry) => entry.type !== "dir");
      expect(top.slice(firstFile).every((entry) => entry.type !== "dir")).toBe(true);
      // A folder's contents follow it directly.
      expect(paths.indexOf("src/greet.js")).toBeGreaterThan(paths.indexOf("src"));
    });

    it("reads text with its sha256 version", async () => {
      const bytes = await readFile(join(ws, "src", "greet.js"));
      const answer = await read("src/greet.js");
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ path: "src/greet.js", content: bytes.toString("utf8"), version: sha256(bytes), size: bytes.length, readOnly: false });
      // A link that stays inside the workspace is followed for reading.
      expect((await read("readme-link")).json.content).toBe(await readFile(join(ws, "README.md"), "utf8"));
    });

    it("serves binary and too-large files read-only, without content, with a reason", async () => {
      const binary = await read("data.bin");
      expect(binary.json).toEqual({ path: "data.bin", content: null, version: sha256(await readFile(join(ws, "data.bin"))), size: 7, readOnly: true, reason: "binary" });
      const big = await read("big.txt");
      expect(big.json).toMatchObject({ path: "big.txt", content: null, size: 3 * 1024 * 1024, readOnly: true, reason: "too_large" });
      expect(big.json.version).toBe(sha256(await readFile(join(ws, "big.txt"))));
      expectError(await read("nope.txt"), 404, "not_found");
    });
  });

  describe("changing", () => {
    it("saves with the right baseVersion, atomically, keeping the file's mode", async () => {
      const path = join(ws, "src", "cli.js");
      await chmod(path, 0o755);
      const before = await read("src/cli.js");
      const answer = await save({ path: "src/cli.js", content: "// edited\n", baseVersion: before.json.version });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json).toEqual({ version: sha256("// edited\n") });
      expect(await readFile(path, "utf8")).toBe("// edited\n");
      expect((await stat(path)).mode & 0o777).toBe(0o755);
      expect((await read("src/cli.js")).json.version).toBe(answer.json.version);
    });

    it("answers 409 with the current content after an out-of-band change, and saves nothing", async () => {
      const before = await read("src/greetings.js");
      await writeFile(join(ws, "src", "greetings.js"), "// changed by someone else\n");
      const answer = await save({ path: "src/greetings.js", content: "// mine\n", baseVersion: before.json.version });
      expect(answer.status).toBe(409);
      expect(answer.json).toMatchObject({
        error: { code: "conflict" },
        current: { content: "// changed by someone else\n", version: sha256("// changed by someone else\n") },
      });
      expect(await readFile(join(ws, "src", "greetings.js"), "utf8")).toBe("// changed by someone else\n");
    });

    it("creates with baseVersion null only when nothing is there; a deleted file conflicts with version null", async () => {
      const created = await save({ path: "src/fresh.js", content: "fresh\n", baseVersion: null });
      expect(created.status, created.text).toBe(200);
      expect(await readFile(join(ws, "src", "fresh.js"), "utf8")).toBe("fresh\n");
      const again = await save({ path: "src/fresh.js", content: "again\n", baseVersion: null });
      expect(again.status).toBe(409);
      expect(again.json.current).toEqual({ content: "fresh\n", version: sha256("fresh\n") });
      const gone = await save({ path: "src/never-existed.js", content: "x", baseVersion: sha256("x") });
      expect(gone.status).toBe(409);
      expect(gone.json.current).toEqual({ content: null, version: null });
    });

    it("creates, renames and deletes files and folders", async () => {
      expect((await post("create", { path: "notes", type: "dir" })).json).toEqual({ path: "notes", type: "dir", version: null });
      expect((await post("create", { path: "notes/todo.md", type: "file" })).json).toEqual({ path: "notes/todo.md", type: "file", version: sha256("") });
      expectError(await post("create", { path: "notes/todo.md", type: "file" }), 409, "exists");
      expectError(await post("create", { path: "missing-dir/x.md", type: "file" }), 404, "not_found");
      expect((await post("rename", { from: "notes/todo.md", to: "notes/done.md" })).json).toEqual({ from: "notes/todo.md", to: "notes/done.md" });
      expect(existsSync(join(ws, "notes", "done.md"))).toBe(true);
      expectError(await post("rename", { from: "notes/done.md", to: "README.md" }), 409, "exists");
      expectError(await post("rename", { from: "notes", to: "notes/inner" }), 400, "bad_path");
      expectError(await post("rename", { from: "nope.md", to: "nope2.md" }), 404, "not_found");
      expectError(await post("delete", { path: "notes" }), 409, "not_empty");
      expect((await post("delete", { path: "notes", recursive: true })).status).toBe(200);
      expect(existsSync(join(ws, "notes"))).toBe(false);
      expectError(await post("delete", { path: "notes" }), 404, "not_found");
    });
  });

  describe("git", () => {
    it("reports the branch, a modified and an untracked file", async () => {
      await writeFile(join(ws, "README.md"), "# changed\n");
      await writeFile(join(ws, "untracked.txt"), "new\n");
      const answer = await get("/api/git/status");
      expect(answer.status).toBe(200);
      expect(answer.json.isRepo).toBe(true);
      expect(answer.json.branch).toBe("main");
      // With its lines added and removed against HEAD (git diff --numstat); an untracked file has none.
      expect(answer.json.changes).toContainEqual({ path: "README.md", status: "modified", index: " ", worktree: "M", added: 1, deleted: git("show", "HEAD:README.md").split("\n").length - 1 });
      expect(answer.json.changes).toContainEqual({ path: "untracked.txt", status: "untracked", index: "?", worktree: "?" });
      expect(answer.json.changes.map((change: { path: string }) => change.path)).not.toContain("ignored.txt");
    });

    it("returns a file's text in HEAD, and null for a path not in HEAD", async () => {
      const committed = git("show", "HEAD:README.md");
      const answer = await get("/api/git/head?path=README.md");
      expect(answer.json).toEqual({ path: "README.md", content: committed });
      expect(answer.json.content).not.toBe(await readFile(join(ws, "README.md"), "utf8"));
      expect((await get("/api/git/head?path=untracked.txt")).json).toEqual({ path: "untracked.txt", content: null, reason: "not_in_head" });
    });

    it("never changes the repository: status leaves the index untouched", async () => {
      const index = join(ws, ".git", "index");
      const before = await stat(index);
      await writeFile(join(ws, "src", "greet.js"), (await readFile(join(ws, "src", "greet.js"), "utf8")) + "\n");
      await get("/api/git/status");
      await get("/api/git/head?path=src/greet.js");
      expect((await stat(index)).mtimeMs).toBe(before.mtimeMs);
    });
  });

  describe("change notifications", () => {
    it("sends workspace_changed to a connected browser when a file changes on disk, without ignored or .git paths", async () => {
      const seen = browser.frames.length;
      await writeFile(join(ws, "ignored.txt"), "still hidden\n");
      await writeFile(join(ws, "src", "watched.js"), "// hello\n");
      const frame = await browser.waitForFrame("workspace_changed", (candidate) => candidate.paths.includes("src/watched.js"), 10_000);
      expect(frame.paths.every((path) => typeof path === "string")).toBe(true);
      const later = browser.frames.slice(seen).filter((candidate) => candidate.type === "workspace_changed");
      for (const candidate of later) {
        if (candidate.type !== "workspace_changed") continue;
        expect(candidate.paths).not.toContain("ignored.txt");
        expect(candidate.paths.some((path) => path === ".git" || path.startsWith(".git/"))).toBe(false);
      }
    });

    it("says the repository moved (git: true) on a commit that changes no file, in a repository made after startup", async () => {
      // Let earlier git activity (the fixtures' commit) be announced first.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const seen = browser.frames.length;
      git("commit", "-q", "--allow-empty", "-m", "nothing changed");
      const frame = await browser.waitUntil(
        () => browser.frames.slice(seen).find((candidate) => candidate.type === "workspace_changed" && candidate.git === true),
        "a workspace_changed frame with git: true",
        10_000,
      );
      expect(frame).toEqual({ type: "workspace_changed", paths: [], git: true });
    }, 15_000);

    it("notices files in a folder created after startup", async () => {
      await mkdir(join(ws, "later"));
      await browser.waitForFrame("workspace_changed", (candidate) => candidate.paths.includes("later"), 10_000);
      await writeFile(join(ws, "later", "inside.txt"), "x");
      await browser.waitForFrame("workspace_changed", (candidate) => candidate.paths.includes("later/inside.txt"), 10_000);
    });
  });
});
