// The hunk review's routes on a real pier (and pi) over a real repository:
// GET /api/git/diff, POST /api/git/stage, /unstage, /revert. A driver stages,
// edits, unstages and reverts hunks, each checked against `git diff
// --cached` and the file on disk; a viewer — with a cookie from a viewer
// link, by hand-made requests carrying the page's Origin — reads a diff only
// where it may read the file, and every change is refused with a sentence.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GitDiffResponse, GitRevertConflictResponse, RelayFrame } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, exchangeToken, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "./workspace-http.ts";

type Frame<T extends RelayFrame["type"]> = Extract<RelayFrame, { type: T }>;

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join("");
const ORIGINAL = lines(40);
const CHANGED = ORIGINAL.replace("line 2\n", "line two\n").replace("line 20\n", "line twenty\n").replace("line 38\n", "line thirty-eight\n");

describe("hunk review routes", () => {
  let root: string;
  let project: string;
  let pier: RunningPier;
  let driver: Browser;
  let viewerCookie: string;
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", project, "-c", "user.name=Pier Test", "-c", "user.email=test@pier.invalid", "-c", "commit.gpgsign=false", ...args], { encoding: "utf8" });
  const diff = async (path: string, staged = false, cookie?: string) => {
    const answer = await httpJson(pier, "GET", `/api/git/diff?path=${encodeURIComponent(path)}${staged ? "&staged=1" : ""}`, cookie ? { cookie } : {});
    expect(answer.status, answer.text).toBe(200);
    return answer.json as GitDiffResponse;
  };
  const post = (what: "stage" | "unstage" | "revert", body: unknown, cookie?: string) => httpJson(pier, "POST", `/api/git/${what}`, { body, ...(cookie ? { cookie } : {}) });

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "pier-review-contract-")));
    project = join(root, "project");
    const agentDir = join(root, "agent");
    await mkdir(agentDir);
    await mkdir(project);
    await writeFile(join(project, "f.txt"), ORIGINAL);
    await writeFile(join(project, ".env"), "TOKEN=one\n");
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "start");
    pier = await startPier(["--cwd", project, "--no-demo-fallback"], { env: { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" } });
    driver = await connectBrowser(pier);
    const before = driver.frames.filter((f) => f.type === "link_created").length;
    driver.send({ type: "pier.create_link", role: "viewer" });
    const frame = await driver.waitUntil(() => driver.frames.filter((f): f is Frame<"link_created"> => f.type === "link_created")[before], "link_created");
    viewerCookie = await exchangeToken(`http://${new URL(driver.ws.url).host}/?token=${frame.token}`, pier.port);
  });
  afterAll(async () => {
    await driver?.close();
    await pier?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("a driver stages one hunk of three, edits another before staging it, unstages and reverts; every page hears the index move", async () => {
    await writeFile(join(project, "f.txt"), CHANGED);
    const shown = await diff("f.txt");
    expect(shown.hunks.map((hunk) => hunk.lines.filter((line) => line[0] === "+"))).toEqual([["+line two"], ["+line twenty"], ["+line thirty-eight"]]);

    const seen = driver.frames.length;
    expect((await post("stage", { path: "f.txt", hunk: shown.hunks[1]!.id })).status).toBe(200);
    expect(
      git("diff", "--cached", "--no-color", "-U0")
        .split("\n")
        .filter((line) => /^[-+@]/.test(line) && !/^(---|\+\+\+)/.test(line)),
    ).toEqual([expect.stringMatching(/^@@ -20 \+20 @@/), "-line 20", "+line twenty"]);
    await driver.waitUntil(() => driver.frames.slice(seen).find((f) => f.type === "workspace_changed" && f.git === true), "workspace_changed git:true");

    const next = await diff("f.txt");
    expect(next.hunks).toHaveLength(2);
    expect((await post("stage", { path: "f.txt", hunk: next.hunks[0]!.id, text: "line 1\nline 2 (edited)\nline 3\nline 4\nline 5\n" })).status).toBe(200);
    expect(git("show", ":f.txt")).toBe(ORIGINAL.replace("line 2\n", "line 2 (edited)\n").replace("line 20\n", "line twenty\n"));
    expect(await readFile(join(project, "f.txt"), "utf8")).toBe(CHANGED);

    const staged = await diff("f.txt", true);
    expect(staged.hunks).toHaveLength(2);
    expect((await post("unstage", { path: "f.txt", hunk: staged.hunks[0]!.id })).status).toBe(200);
    expect(git("show", ":f.txt")).toBe(ORIGINAL.replace("line 20\n", "line twenty\n"));

    const last = await diff("f.txt");
    const third = last.hunks.find((hunk) => hunk.lines.includes("+line thirty-eight"))!;
    expect((await post("revert", { path: "f.txt", hunk: third.id })).status).toBe(200);
    expect(await readFile(join(project, "f.txt"), "utf8")).toBe(CHANGED.replace("line thirty-eight\n", "line 38\n"));
  });

  it("a hunk from a diff that is no longer true is refused with a sentence; so is a change while another git holds index.lock", async () => {
    await writeFile(join(project, "f.txt"), CHANGED);
    const shown = await diff("f.txt");
    await writeFile(join(project, "f.txt"), CHANGED + "one more\n");
    const stale = await post("stage", { path: "f.txt", hunk: shown.hunks[0]!.id });
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatchObject({ code: "stale_change", message: expect.stringMatching(/changed since its diff was shown/) });

    const fresh = await diff("f.txt");
    await writeFile(join(project, ".git", "index.lock"), "");
    try {
      const locked = await post("stage", { path: "f.txt", hunk: fresh.hunks[0]!.id });
      expect(locked.status).toBe(409);
      expect(locked.json.error.code).toBe("git_locked");
      expect(locked.json.error.message).toContain(join(project, ".git", "index.lock"));
    } finally {
      await rm(join(project, ".git", "index.lock"));
    }
  });

  it("a hunk's revert that meets a file changed meanwhile is refused with the file now and what the revert would make of it", async () => {
    git("reset", "-q");
    await writeFile(join(project, "f.txt"), CHANGED);
    const shown = await diff("f.txt");
    const twenty = shown.hunks.find((hunk) => hunk.lines.includes("+line twenty"))!;
    const asShown = { header: twenty.header, lines: twenty.lines };
    // Another browser (or the agent) adds a line at the top: the hunk moved down by one, its lines are the same.
    const now = "added meanwhile\n" + CHANGED;
    await writeFile(join(project, "f.txt"), now);
    const refused = await post("revert", { path: "f.txt", base: shown.base, hunk: twenty.id, shown: asShown });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.error).toMatchObject({ code: "stale_change", message: expect.stringMatching(/nothing was reverted/) });
    const offer = refused.json.revert as GitRevertConflictResponse["revert"];
    expect(offer.current.content).toBe(now);
    expect(offer.reverted).toBe(now.replace("line twenty\n", "line 20\n"));
    expect(await readFile(join(project, "f.txt"), "utf8")).toBe(now);

    // Taking the reverted text is a save at the version the refusal named: refused if the file moved again, written if not.
    await writeFile(join(project, "f.txt"), now + "and again\n");
    const moved = await httpJson(pier, "PUT", "/api/files/content", { body: { path: "f.txt", content: offer.reverted, baseVersion: offer.current.version } });
    expect(moved.status).toBe(409);
    expect(moved.json.error.code).toBe("conflict");
    await writeFile(join(project, "f.txt"), now);
    const current = (await httpJson(pier, "GET", "/api/files/content?path=f.txt")).json.version as string;
    const taken = await httpJson(pier, "PUT", "/api/files/content", { body: { path: "f.txt", content: offer.reverted, baseVersion: current } });
    expect(taken.status, taken.text).toBe(200);
    expect(await readFile(join(project, "f.txt"), "utf8")).toBe(now.replace("line twenty\n", "line 20\n"));

    // The hunk's own lines changed: nothing to merge, only the sentence.
    await writeFile(join(project, "f.txt"), CHANGED);
    const again = await diff("f.txt");
    const hunk = again.hunks.find((candidate) => candidate.lines.includes("+line twenty"))!;
    await writeFile(join(project, "f.txt"), CHANGED.replace("line twenty\n", "line XX\n"));
    const gone = await post("revert", { path: "f.txt", base: again.base, hunk: hunk.id, shown: { header: hunk.header, lines: hunk.lines } });
    expect(gone.status).toBe(409);
    expect(gone.json.error.code).toBe("stale_change");
    expect(gone.json.revert).toBeUndefined();

    // A hunk the relay did not show at that base (lines made up by hand) gets no offer either.
    await writeFile(join(project, "f.txt"), CHANGED);
    const third = await diff("f.txt");
    const first = third.hunks[0]!;
    await writeFile(join(project, "f.txt"), "top\n" + CHANGED);
    const forged = await post("revert", { path: "f.txt", base: third.base, hunk: first.id, shown: { header: first.header, lines: first.lines.map((line) => line.replace("two", "TWO")) } });
    expect(forged.status).toBe(409);
    expect(forged.json.revert).toBeUndefined();
    expect(await readFile(join(project, "f.txt"), "utf8")).toBe("top\n" + CHANGED);
  });

  it("a whole file's revert at a base no longer true is refused with the file now and the index's text; taking it is a save at that version", async () => {
    git("reset", "-q");
    await writeFile(join(project, "f.txt"), CHANGED);
    const shown = await diff("f.txt");
    // Someone saves the file between the diff shown and the click.
    const now = "saved meanwhile\n" + CHANGED;
    await writeFile(join(project, "f.txt"), now);
    const refused = await post("revert", { path: "f.txt", base: shown.base });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.error).toMatchObject({ code: "stale_change", message: expect.stringMatching(/nothing was reverted/) });
    const offer = refused.json.revert as GitRevertConflictResponse["revert"];
    expect(offer.current.content).toBe(now);
    expect(offer.reverted).toBe(ORIGINAL);
    expect(await readFile(join(project, "f.txt"), "utf8")).toBe(now);

    // A third change before the choice: the save at the version the person saw is refused, nothing overwritten.
    await writeFile(join(project, "f.txt"), now + "third change\n");
    const moved = await httpJson(pier, "PUT", "/api/files/content", { body: { path: "f.txt", content: offer.reverted, baseVersion: offer.current.version } });
    expect(moved.status).toBe(409);
    expect(moved.json.error.code).toBe("conflict");
    expect(await readFile(join(project, "f.txt"), "utf8")).toBe(now + "third change\n");
    // The file back as the offer saw it (a version is the file's bytes): the same save writes the index's text.
    await writeFile(join(project, "f.txt"), now);
    const taken = await httpJson(pier, "PUT", "/api/files/content", { body: { path: "f.txt", content: offer.reverted, baseVersion: offer.current.version } });
    expect(taken.status, taken.text).toBe(200);
    expect(await readFile(join(project, "f.txt"), "utf8")).toBe(ORIGINAL);
    expect(git("status", "--porcelain", "--", "f.txt")).toBe("");
  });

  it("a whole file's revert at a stale base that has nothing to offer says why in a sentence and changes nothing", async () => {
    git("reset", "-q");
    const refusedNow = async (path: string, base: string) => {
      const answer = await post("revert", { path, base });
      expect(answer.status, answer.text).toBe(409);
      expect(answer.json.revert).toBeUndefined();
      return answer.json.error as { code: string; message: string };
    };

    // An untracked file changed meanwhile: its revert would delete it, and it is not deleted.
    await writeFile(join(project, "new.txt"), "first\n");
    const untracked = await diff("new.txt");
    expect(untracked.kind).toBe("untracked");
    await writeFile(join(project, "new.txt"), "second\n");
    expect(await refusedNow("new.txt", untracked.base)).toMatchObject({ code: "stale_change", message: expect.stringMatching(/was not deleted/) });
    // Its only hunk's revert (which deletes it too) says the same.
    const hunk = untracked.hunks[0]!;
    const byHunk = await post("revert", { path: "new.txt", base: untracked.base, hunk: hunk.id, shown: { header: hunk.header, lines: hunk.lines } });
    expect(byHunk.status).toBe(409);
    expect(byHunk.json.revert).toBeUndefined();
    expect(byHunk.json.error.message).toMatch(/was not deleted/);
    expect(await readFile(join(project, "new.txt"), "utf8")).toBe("second\n");
    await rm(join(project, "new.txt"));

    // A file deleted meanwhile.
    await writeFile(join(project, "f.txt"), CHANGED);
    const before = await diff("f.txt");
    await rm(join(project, "f.txt"));
    expect(await refusedNow("f.txt", before.base)).toMatchObject({ code: "stale_change", message: expect.stringMatching(/was deleted since its diff was shown/) });
    await expect(readFile(join(project, "f.txt"), "utf8")).rejects.toThrow(/ENOENT/);

    // A file now the same as the index: nothing left to revert.
    await writeFile(join(project, "f.txt"), CHANGED);
    const again = await diff("f.txt");
    await writeFile(join(project, "f.txt"), ORIGINAL);
    expect(await refusedNow("f.txt", again.base)).toMatchObject({ code: "stale_change", message: expect.stringMatching(/nothing left to revert/) });

    // A binary file: only the sentence.
    await writeFile(join(project, "blob.bin"), Buffer.from([0, 1, 2, 3]));
    git("add", "blob.bin");
    git("commit", "-q", "-m", "blob");
    await writeFile(join(project, "blob.bin"), Buffer.from([0, 1, 2, 4]));
    const binary = await diff("blob.bin");
    expect(binary.binary).toBe(true);
    await writeFile(join(project, "blob.bin"), Buffer.from([0, 1, 2, 5]));
    expect(await refusedNow("blob.bin", binary.base)).toMatchObject({ code: "stale_change", message: expect.stringMatching(/changed since its diff was shown/) });
    expect([...(await readFile(join(project, "blob.bin")))]).toEqual([0, 1, 2, 5]);
    git("rm", "-q", "-f", "blob.bin");
    git("commit", "-q", "-m", "no blob");
  });

  it("a viewer's and a revoked driver link's revert are refused before anything is read", async () => {
    await writeFile(join(project, "f.txt"), CHANGED);
    const shown = await diff("f.txt");
    const hunk = shown.hunks[0]!;
    await writeFile(join(project, "f.txt"), "top\n" + CHANGED);
    const body = { path: "f.txt", base: shown.base, hunk: hunk.id, shown: { header: hunk.header, lines: hunk.lines } };
    const viewer = await post("revert", body, viewerCookie);
    expect(viewer.status).toBe(403);
    expect(viewer.json.revert).toBeUndefined();
    expect(viewer.text).not.toContain("line two");
    // The whole file's revert at that stale base too (a driver's would carry the file).
    const wholeFile = { path: "f.txt", base: shown.base };
    const viewerWhole = await post("revert", wholeFile, viewerCookie);
    expect(viewerWhole.status).toBe(403);
    expect(viewerWhole.text).not.toContain("line two");

    const before = driver.frames.filter((f) => f.type === "link_created").length;
    driver.send({ type: "pier.create_link", role: "driver" });
    const frame = await driver.waitUntil(() => driver.frames.filter((f): f is Frame<"link_created"> => f.type === "link_created")[before], "link_created");
    const cookie = await exchangeToken(`http://${new URL(driver.ws.url).host}/?token=${frame.token}`, pier.port);
    // The link works until it is revoked (the same request is answered with the offer)...
    expect((await post("revert", body, cookie)).json.revert).toBeDefined();
    expect((await post("revert", wholeFile, cookie)).json.revert).toBeDefined();
    driver.send({ type: "pier.revoke_link", linkId: frame.link.id });
    await driver.waitUntil(() => driver.frames.some((f) => f.type === "links" && f.links.some((l) => l.id === frame.link.id && l.revoked)), "the revoked link listed");
    const revoked = await post("revert", body, cookie);
    expect([401, 403]).toContain(revoked.status);
    expect(revoked.text).not.toContain("line two");
    const revokedWhole = await post("revert", wholeFile, cookie);
    expect([401, 403]).toContain(revokedWhole.status);
    expect(revokedWhole.text).not.toContain("line two");
    expect(await readFile(join(project, "f.txt"), "utf8")).toBe("top\n" + CHANGED);
  });

  it("a viewer reads a diff where it may read the file, and may change nothing", async () => {
    git("reset", "-q");
    await writeFile(join(project, "f.txt"), CHANGED);
    await writeFile(join(project, ".env"), "TOKEN=two\n");
    const shown = await diff("f.txt", false, viewerCookie);
    expect(shown.hunks).toHaveLength(3);
    const secret = await httpJson(pier, "GET", "/api/git/diff?path=.env", { cookie: viewerCookie });
    expect(secret.status).toBe(403);
    expect(secret.json.error.code).toBe("viewer_secret");
    for (const [what, body] of [
      ["stage", { path: "f.txt", hunk: shown.hunks[0]!.id }],
      ["stage", { paths: ["f.txt"] }],
      ["unstage", { paths: ["f.txt"] }],
      ["revert", { path: "f.txt", base: shown.base }],
    ] as const) {
      const answer = await post(what, body, viewerCookie);
      expect(answer.status, what).toBe(403);
      // The relay refuses a viewer's change before any route (relay.ts); the review's routes would refuse it again (driver_only).
      expect(answer.json.error.message).toMatch(/only a driver can/i);
    }
    expect(git("diff", "--cached")).toBe("");
    expect(await readFile(join(project, "f.txt"), "utf8")).toBe(CHANGED);
    // Without the page's Origin, even a driver's change is refused.
    expect((await httpJson(pier, "POST", "/api/git/stage", { body: { paths: ["f.txt"] }, origin: null })).status).toBe(403);
  });
});
