// Search and replace across the workspace against a real pier and real git
// repositories in temp dirs: the toggles (regex, case, word), globs, the
// ignored-files toggle, a folder that is no repository, binary files skipped,
// an invalid regex, what a viewer may see (a hand-made request with a
// viewer's cookie), an abandoned search killing its git, replace refused to a
// viewer, and a replace where one file changed after the preview.
import { execFileSync } from "node:child_process";
import { appendFileSync, chmodSync, readdirSync, realpathSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RelayFrame, SearchMatchRecord, SearchRecord } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, exchangeToken, isAlive, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "./workspace-http.ts";

const REAL_GIT = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();

type Frame<T extends RelayFrame["type"]> = Extract<RelayFrame, { type: T }>;

function git(cwd: string, ...args: string[]): void {
  execFileSync(REAL_GIT, args, { cwd, stdio: "ignore", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
}

function write(root: string, path: string, content: string | Buffer): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), content);
}

/** A repository: tracked, untracked, ignored, binary and secret-named files. */
function makeRepo(): string {
  const root = mkdtempSync(join(tmpdir(), "pier-search-"));
  git(root, "init", "-q");
  write(root, ".gitignore", "build/\n");
  write(root, "src/app.ts", "const Needle = 1;\nconst needles = 2;\nlet x = needle + needle;\n");
  write(root, "src/util.js", "export const needle = 'needle';\n");
  write(root, "docs/notes.md", "A needle in a haystack.\n");
  write(root, "build/out.js", "needle in build output\n");
  write(root, "data.bin", Buffer.concat([Buffer.from("needle\n"), Buffer.from([0, 1, 2, 0]), Buffer.from("needle\n")]));
  write(root, ".env", "TOKEN=needle-secret\n");
  write(root, "config/secrets.yml", "key: needle\n");
  git(root, "add", "src/app.ts", ".gitignore");
  git(root, "commit", "-q", "-m", "init");
  // Commands the repository configures for itself, each leaving a mark if
  // run: a search must run none (attributes in .git/info, out of the results).
  write(root, ".git/info/attributes", "* filter=mark diff=mark\n");
  const mark = (what: string) => `touch '${join(root, ".git", `ran-${what}`)}'; cat`;
  git(root, "config", "filter.mark.clean", mark("clean"));
  git(root, "config", "filter.mark.smudge", mark("smudge"));
  git(root, "config", "filter.mark.process", mark("process"));
  git(root, "config", "diff.mark.textconv", mark("textconv"));
  git(root, "config", "core.fsmonitor", mark("fsmonitor"));
  // A tracked file whose stat data no longer matches the index (status would run the clean filter for it).
  appendFileSync(join(root, "src/app.ts"), "// edited\n");
  return root;
}

async function search(pier: RunningPier, params: Record<string, string>, cookie?: string): Promise<{ status: number; records: SearchRecord[]; json: any }> {
  const answer = await httpJson(pier, "GET", `/api/search?${new URLSearchParams(params)}`, { cookie });
  if (answer.status !== 200) return { status: answer.status, records: [], json: answer.json };
  expect(answer.headers["content-type"]).toMatch(/^application\/x-ndjson/);
  const records = answer.text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as SearchRecord);
  return { status: answer.status, records, json: null };
}

const places = (records: SearchRecord[]) =>
  records
    .filter((r) => r.type === "match")
    .map((r) => `${r.path}:${r.line}`)
    .sort();

async function makeLink(driver: Browser, role: "driver" | "viewer"): Promise<string> {
  const before = driver.frames.filter((f) => f.type === "link_created").length;
  driver.send({ type: "pier.create_link", role });
  const frame = await driver.waitUntil(() => driver.frames.filter((f): f is Frame<"link_created"> => f.type === "link_created")[before], "link_created");
  return `http://${new URL(driver.ws.url).host}/?token=${frame.token}`;
}

describe("search in a repository", () => {
  let pier: RunningPier;
  let driver: Browser;
  let repo: string;
  let viewerCookie: string;
  const wrapperDir = mkdtempSync(join(tmpdir(), "pier-git-wrapper-"));
  const pidFile = join(wrapperDir, "grep-pids");

  beforeAll(async () => {
    repo = makeRepo();
    // A git in front of the real one: records each grep's pid, and for one
    // marker pattern stands in for a search that takes long (a sleep).
    writeFileSync(join(wrapperDir, "git"), `#!/bin/sh\ncase " $* " in *" grep "*) echo $$ >> "${pidFile}";; esac\ncase " $* " in *" SLOW-MARKER "*) exec sleep 30;; esac\nexec "${REAL_GIT}" "$@"\n`);
    chmodSync(join(wrapperDir, "git"), 0o755);
    // Search involves no pi: none is started (it would only load the machine).
    pier = await startPier(["--pi", "/nonexistent/pi", "--no-demo-fallback", "--cwd", repo], { env: { ...process.env, PATH: `${wrapperDir}:${process.env.PATH}` } });
    driver = await connectBrowser(pier);
    viewerCookie = await exchangeToken(await makeLink(driver, "viewer"), pier.port);
  });
  afterAll(async () => {
    await driver?.close();
    await pier?.stop();
  });

  it("finds plain text case-insensitively by default, in tracked and untracked files, and skips ignored and binary ones", async () => {
    expect(driver.hello.cwd).toBe(realpathSync(repo));
    const { records } = await search(pier, { q: "needle" });
    expect(places(records)).toEqual([".env:1", "config/secrets.yml:1", "docs/notes.md:1", "src/app.ts:1", "src/app.ts:2", "src/app.ts:3", "src/util.js:1"]);
    const line3 = records.find((r) => r.type === "match" && r.path === "src/app.ts" && r.line === 3);
    expect(line3).toMatchObject({
      text: "let x = needle + needle;",
      ranges: [
        [8, 14],
        [17, 23],
      ],
    });
    expect(records.at(-1)).toMatchObject({ type: "done", files: 5, lines: 7, matches: 9, truncated: false, notRepo: false });
  });

  it("honours case, whole word and regex (with PCRE in git and the same matches highlighted)", async () => {
    expect(places((await search(pier, { q: "Needle", case: "1" })).records)).toEqual(["src/app.ts:1"]);
    expect(places((await search(pier, { q: "needle", word: "1", include: "src/**" })).records)).toEqual(["src/app.ts:1", "src/app.ts:3", "src/util.js:1"]);
    const regex = await search(pier, { q: "need(le)?s\\b", regex: "1" });
    expect(places(regex.records)).toEqual(["src/app.ts:2"]);
    expect(regex.records[0]).toMatchObject({ text: "const needles = 2;", ranges: [[6, 13]] });
    // Literal mode: regex characters are plain text.
    expect(places((await search(pier, { q: "needle + needle" })).records)).toEqual(["src/app.ts:3"]);
  });

  it("narrows by include and exclude globs (a glob without a folder matches in any folder)", async () => {
    expect(places((await search(pier, { q: "needle", include: "*.md" })).records)).toEqual(["docs/notes.md:1"]);
    expect(places((await search(pier, { q: "needle", include: "src/**", exclude: "*.js" })).records)).toEqual(["src/app.ts:1", "src/app.ts:2", "src/app.ts:3"]);
    expect(places((await search(pier, { q: "needle", exclude: "src/, .env, config/**" })).records)).toEqual(["docs/notes.md:1"]);
  });

  it("stops at 10,000 lines and says so, and cuts a long line around its match", async () => {
    write(repo, "many/lines.txt", Array.from({ length: 10_050 }, (_, i) => `manyline ${i}`).join("\n") + "\n");
    write(repo, "many/long.txt", "a".repeat(5000) + " FINDME " + "b".repeat(5000) + "\n");
    const many = await search(pier, { q: "manyline" });
    expect(many.records.filter((r) => r.type === "match")).toHaveLength(10_000);
    expect(many.records.at(-1)).toMatchObject({ type: "done", lines: 10_000, truncated: true });
    const long = (await search(pier, { q: "FINDME" })).records[0] as SearchMatchRecord;
    expect(long.text.length).toBeLessThanOrEqual(240);
    expect(long.text.slice(long.ranges[0]![0], long.ranges[0]![1])).toBe("FINDME");
    expect(long).toMatchObject({ cutAfter: true, cutBefore: expect.any(Number) });
    expect(long.cutBefore! + long.ranges[0]![0]).toBe(5001);
  });

  it("searches ignored files only when asked", async () => {
    expect(places((await search(pier, { q: "build output" })).records)).toEqual([]);
    expect(places((await search(pier, { q: "build output", ignored: "1" })).records)).toEqual(["build/out.js:1"]);
  });

  it("refuses an invalid regex or an empty query with a sentence", async () => {
    const invalid = await search(pier, { q: "foo(", regex: "1" });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error.message).toMatch(/regular expression is not valid/);
    const empty = await search(pier, { q: "" });
    expect(empty.status).toBe(400);
    expect(empty.json.error.message).toMatch(/empty/);
  });

  it("never shows a viewer lines of files a viewer may not read, nor ignored files", async () => {
    const { status, records } = await search(pier, { q: "needle" }, viewerCookie);
    expect(status).toBe(200);
    expect(places(records)).toEqual(["docs/notes.md:1", "src/app.ts:1", "src/app.ts:2", "src/app.ts:3", "src/util.js:1"]);
    expect(JSON.stringify(records)).not.toMatch(/secret|TOKEN/);
    const ignored = await search(pier, { q: "needle", ignored: "1" }, viewerCookie);
    expect(ignored.status).toBe(403);
    expect(ignored.json.error.message).toMatch(/only a driver/);
  });

  it("kills git at once when the page abandons a search", async () => {
    const pidsBefore = readPids();
    const pid = await new Promise<number>((resolve, reject) => {
      const request = httpRequest({ host: "127.0.0.1", port: pier.port, path: `/api/search?q=SLOW-MARKER`, headers: { Host: pier.host, Cookie: pier.cookie } }, (response) => {
        expect(response.statusCode).toBe(200);
        // The headers came: git runs. Find it, then walk away.
        const poll = setInterval(() => {
          const fresh = readPids().slice(pidsBefore.length);
          if (fresh.length === 0) return;
          clearInterval(poll);
          expect(isAlive(fresh[0]!)).toBe(true);
          request.destroy();
          resolve(fresh[0]!);
        }, 20);
      });
      request.on("error", (error) => (error.message.includes("socket hang up") ? undefined : reject(error)));
      request.end();
    });
    const deadline = Date.now() + 3000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isAlive(pid)).toBe(false);
  });

  function readPids(): number[] {
    try {
      return readFileSync(pidFile, "utf8").split("\n").filter(Boolean).map(Number);
    } catch {
      return [];
    }
  }

  it("ran none of the repository's own commands (filters, textconv, fsmonitor) in any search so far", () => {
    expect(readdirSync(join(repo, ".git")).filter((name) => name.startsWith("ran-"))).toEqual([]);
  });

  it("refuses preview and replace to a viewer", async () => {
    const body = { query: { pattern: "needle" }, replacement: "pin" };
    for (const path of ["/api/search/preview", "/api/search/replace"]) {
      const answer = await httpJson(pier, "POST", path, { cookie: viewerCookie, body: { ...body, files: [] } });
      expect(answer.status, path).toBe(403);
      // The relay's door refuses a viewer's POST before the route does; both say why.
      expect(answer.json.error.message).toMatch(/only a driver/i);
    }
    expect(readFileSync(join(repo, "src/util.js"), "utf8")).toContain("needle");
  });

  it("previews every change, replaces the chosen ones with $1 groups, and skips a file changed meanwhile", async () => {
    write(repo, "r/one.txt", "foo(1) foo(2)\nkeep foo(3)\n");
    write(repo, "r/two.txt", "foo(4)\n");
    const query = { pattern: "foo\\((\\d)\\)", regex: true, caseSensitive: true, include: ["r/**"] };
    const preview = await httpJson(pier, "POST", "/api/search/preview", { body: { query, replacement: "bar[$1]" } });
    expect(preview.status, preview.text).toBe(200);
    const files = preview.json.files as { path: string; version: string; matches: { index: number; line: number; before: string; after: string; afterRange: [number, number] }[] }[];
    expect(files.map((f) => f.path)).toEqual(["r/one.txt", "r/two.txt"]);
    expect(files[0]!.matches.map((m) => [m.index, m.line, m.after])).toEqual([
      [0, 1, "bar[1] foo(2)"],
      [1, 1, "foo(1) bar[2]"],
      [2, 2, "keep bar[3]"],
    ]);
    expect(files[0]!.matches[1]!.afterRange).toEqual([7, 13]);
    // Someone edits two.txt after the preview.
    appendFileSync(join(repo, "r/two.txt"), "added meanwhile\n");
    const chosen = [
      { path: "r/one.txt", version: files[0]!.version, matches: [0, 2] },
      { path: "r/two.txt", version: files[1]!.version, matches: [0] },
    ];
    const replaced = await httpJson(pier, "POST", "/api/search/replace", { body: { query, replacement: "bar[$1]", files: chosen } });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.json.replaced).toEqual([expect.objectContaining({ path: "r/one.txt", matches: 2 })]);
    expect(replaced.json.skipped).toEqual([{ path: "r/two.txt", reason: "changed meanwhile, not replaced" }]);
    expect(readFileSync(join(repo, "r/one.txt"), "utf8")).toBe("bar[1] foo(2)\nkeep bar[3]\n");
    expect(readFileSync(join(repo, "r/two.txt"), "utf8")).toBe("foo(4)\nadded meanwhile\n");
    // A change must come from the page's own origin.
    const foreign = await httpJson(pier, "POST", "/api/search/replace", { origin: null, body: { query, replacement: "x", files: chosen } });
    expect(foreign.status).toBe(403);
  });
});

describe("search in a folder that is no repository", () => {
  let pier: RunningPier;
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "pier-search-plain-"));
    write(folder, "a.txt", "alpha beta\n");
    write(folder, "sub/b.txt", "beta gamma\n");
    pier = await startPier(["--pi", "/nonexistent/pi", "--no-demo-fallback", "--cwd", folder]);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it("searches with git grep --no-index and says so", async () => {
    const { records } = await search(pier, { q: "beta" });
    expect(places(records)).toEqual(["a.txt:1", "sub/b.txt:1"]);
    expect(records.at(-1)).toMatchObject({ type: "done", notRepo: true, files: 2 });
  });
});
