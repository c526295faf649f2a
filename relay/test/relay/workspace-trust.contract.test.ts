// Workspace trust against a real pier and pi, on a folder someone else
// prepared: its .git/config has a filter (`filter.evil.clean`, applied to
// every file by .gitattributes) that leaves a marker file when it runs, and a
// project prompt template in .pi/prompts. Until a driver trusts the folder,
// loading git status — as the driver or as a viewer — runs nothing, and pi
// does not load the template; trusting turns both on for the driver, never
// for a viewer; a viewer or a revoked link cannot trust it. The decision is
// pi's own: written to trust.json where pi's TrustManager reads it, and a
// decision pi saves is Pier's at once.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { RelayFrame, WorkspaceTrustInfo } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandId, connectBrowser, exchangeToken, startPier, type Browser, type PiRecord, type RunningPier } from "../support/pier-process.ts";
import { piUnderTest } from "../support/pi-under-test.ts";
import { httpJson } from "../workspace/workspace-http.ts";

type Frame<T extends RelayFrame["type"]> = Extract<RelayFrame, { type: T }>;
type PiTrustStore = { get(cwd: string): boolean | null; setMany(decisions: { path: string; decision: boolean | null }[]): void };

describe("workspace trust", () => {
  let root: string;
  let agentDir: string;
  let project: string;
  let marker: string;
  let pier: RunningPier;
  let driver: Browser;
  let viewer: Browser;
  let viewerCookie: string;
  let piTrust: PiTrustStore;

  const git = (...args: string[]) =>
    execFileSync("git", ["-C", project, "-c", "user.name=Pier Test", "-c", "user.email=test@pier.invalid", "-c", "commit.gpgsign=false", ...args], { encoding: "utf8" });
  /** The committed file gets new times: git must read it again, through its filter. */
  const dirty = async () => {
    const later = new Date(Date.now() + 10_000 + Math.random() * 10_000);
    await utimes(join(project, "a.txt"), later, later);
  };
  const statusAs = async (cookie: string) => {
    const answer = await httpJson(pier, "GET", "/api/git/status", { cookie });
    expect(answer.status, answer.text).toBe(200);
    return answer.json as { isRepo: boolean; changes: unknown[] };
  };
  const ask = async (browser: Browser, command: Record<string, unknown>): Promise<PiRecord> => {
    const id = commandId("trust");
    browser.send({ ...command, id });
    return browser.waitForRecord((r) => r.type === "response" && r.id === id);
  };
  const templateLoaded = async () => {
    const answer = await ask(driver, { type: "get_commands" });
    expect(answer.success, JSON.stringify(answer)).toBe(true);
    return (answer.data.commands as { name: string }[]).some((command) => command.name === "trust-probe");
  };
  const trustFrames = (browser: Browser) => browser.frames.filter((f): f is Frame<"workspace_trust"> => f.type === "workspace_trust");
  const nextTrust = (browser: Browser, seen: number, trusted: boolean) =>
    browser.waitUntil(
      () =>
        trustFrames(browser)
          .slice(seen)
          .find((f) => f.trust.trusted === trusted)?.trust,
      `workspace_trust ${trusted}`,
    );
  const makeLink = async (role: "driver" | "viewer") => {
    const before = driver.frames.filter((f) => f.type === "link_created").length;
    driver.send({ type: "pier.create_link", role });
    const frame = await driver.waitUntil(() => driver.frames.filter((f): f is Frame<"link_created"> => f.type === "link_created")[before], "link_created");
    return { url: `http://${new URL(driver.ws.url).host}/?token=${frame.token}`, linkId: frame.link.id };
  };
  const piRestarted = (after: number) => driver.waitUntil(() => driver.frames.some((f) => f.type === "child_started" && f.child.epoch > after), "pi restarted");

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "pier-trust-contract-")));
    agentDir = join(root, "agent");
    project = join(root, "project");
    marker = join(root, "filter-ran");
    await mkdir(agentDir);
    await mkdir(join(project, ".pi", "prompts"), { recursive: true });
    await writeFile(join(project, ".pi", "prompts", "trust-probe.md"), "---\ndescription: A project prompt template\n---\nSay hi.\n");
    await writeFile(join(project, "a.txt"), "hello\n");
    await writeFile(join(project, ".gitattributes"), "* filter=evil diff=evil\n");
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "a folder someone else prepared");
    git("config", "filter.evil.clean", `sh -c 'touch ${marker}; cat'`);
    git("config", "diff.evil.textconv", `sh -c 'touch ${marker}; cat "$0"'`);
    await dirty();
    const { ProjectTrustStore } = (await import(new URL("../core/trust-manager.js", pathToFileURL(piUnderTest.cliPath)).href)) as {
      ProjectTrustStore: new (agentDir: string) => PiTrustStore;
    };
    piTrust = new ProjectTrustStore(agentDir);
    pier = await startPier(["--cwd", project, "--no-demo-fallback"], { env: { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" } });
    driver = await connectBrowser(pier);
    await driver.waitUntil(() => driver.hello.child.state === "running" || driver.frames.some((f) => f.type === "child_started"), "pi running");
    const link = await makeLink("viewer");
    viewerCookie = await exchangeToken(link.url, pier.port);
    viewer = await connectBrowser(pier, { cookie: viewerCookie });
  });
  afterAll(async () => {
    await viewer?.close();
    await driver?.close();
    await pier?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("an untrusted folder: hello says so, git status runs nothing for a driver or a viewer, pi skips the project's template", async () => {
    expect(driver.hello.trust).toEqual({ trusted: false, source: "default" } satisfies WorkspaceTrustInfo);
    expect(viewer.hello.trust).toEqual({ trusted: false, source: "default" });
    const status = await statusAs(pier.cookie);
    expect(status.isRepo).toBe(true);
    await statusAs(viewerCookie);
    expect((await httpJson(pier, "GET", "/api/git/head?path=a.txt", { cookie: viewerCookie })).json).toEqual({ path: "a.txt", content: "hello\n" });
    expect(existsSync(marker)).toBe(false);
    expect(await templateLoaded()).toBe(false);
  });

  it("a viewer cannot trust the folder: forbidden, nothing saved", async () => {
    viewer.send({ type: "pier.trust_workspace", trusted: true });
    const error = await viewer.waitForFrame("error", (f) => f.command?.type === "pier.trust_workspace");
    expect(error.code).toBe("forbidden");
    expect(error.message).toMatch(/only a driver/);
    expect(existsSync(join(agentDir, "trust.json"))).toBe(false);
  });

  it("a revoked driver link can neither trust the folder nor load git status", async () => {
    const link = await makeLink("driver");
    const cookie = await exchangeToken(link.url, pier.port);
    const revoked = await connectBrowser(pier, { cookie });
    driver.send({ type: "pier.revoke_link", linkId: link.linkId });
    await revoked.closed;
    // Its cookie opens no socket any more, so no request of its own reaches the relay.
    await expect(connectBrowser(pier, { cookie })).rejects.toThrow();
    expect((await httpJson(pier, "GET", "/api/git/status", { cookie })).status).toBe(401);
    await dirty();
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(agentDir, "trust.json"))).toBe(false);
  });

  it("a driver trusts it: saved where pi reads it, everyone told, pi restarted with the template, the driver's git runs the filter", async () => {
    const seenDriver = trustFrames(driver).length;
    const seenViewer = trustFrames(viewer).length;
    const epoch = driver.frames.filter((f): f is Frame<"child_started"> => f.type === "child_started").at(-1)?.child.epoch ?? driver.hello.child.epoch;
    driver.send({ type: "pier.trust_workspace", trusted: true });
    expect(await nextTrust(driver, seenDriver, true)).toEqual({ trusted: true, source: "folder", path: project });
    expect(await nextTrust(viewer, seenViewer, true)).toEqual({ trusted: true, source: "folder", path: project });
    expect(JSON.parse(await readFile(join(agentDir, "trust.json"), "utf8"))).toEqual({ [project]: true });
    expect(piTrust.get(project)).toBe(true);
    await piRestarted(epoch);
    await driver.waitUntil(() => driver.frames.some((f) => f.type === "replay_end"), "replay");
    expect(await templateLoaded()).toBe(true);

    await dirty();
    await statusAs(pier.cookie);
    expect(existsSync(marker)).toBe(true);
  });

  it("a viewer's git status runs nothing, even in a trusted folder", async () => {
    await rm(marker, { force: true });
    await dirty();
    await statusAs(viewerCookie);
    expect(existsSync(marker)).toBe(false);
  });

  it("distrusting turns it off again; a decision pi saves (its /trust) is Pier's at once", async () => {
    const seen = trustFrames(viewer).length;
    driver.send({ type: "pier.trust_workspace", trusted: false });
    expect(await nextTrust(viewer, seen, false)).toEqual({ trusted: false, source: "folder", path: project });
    expect(piTrust.get(project)).toBe(false);
    await dirty();
    await statusAs(pier.cookie);
    expect(existsSync(marker)).toBe(false);

    // pi's own store trusts the parent folder and forgets this one's entry, as pi's "Trust parent folder" does.
    const again = trustFrames(viewer).length;
    piTrust.setMany([
      { path: root, decision: true },
      { path: project, decision: null },
    ]);
    expect(await nextTrust(viewer, again, true)).toEqual({ trusted: true, source: "parent", path: root });
    await dirty();
    await statusAs(pier.cookie);
    expect(existsSync(marker)).toBe(true);
  });
});
