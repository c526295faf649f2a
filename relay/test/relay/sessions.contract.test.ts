// pi's sessions through the real pier and a real pi: the list the relay reads
// from disk, the files a browser may make pi open or write (and those it may
// not), downloads, resuming by default, and a restart that reopens the
// session the browser was on.
import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RelayFrame, SessionListResponse } from "@pier/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDemoAgentDir, type DemoAgentDir } from "../../src/demo/agent-dir.ts";
import { copyDemoProject } from "../../src/demo/demo-project.ts";
import { startModelServer, type ModelServer } from "../../src/demo/model-server.ts";
import { commandId, connectBrowser, startPier, type Browser, type PiRecord, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";

type ErrorFrame = Extract<RelayFrame, { type: "error" }>;

async function ask(browser: Browser, command: Record<string, unknown>): Promise<PiRecord> {
  const id = commandId("sessions");
  browser.send({ ...command, id });
  return browser.waitForRecord((record) => record.type === "response" && record.id === id);
}

/** Sends a command the relay must refuse; resolves with the refusal. */
async function refused(browser: Browser, command: Record<string, unknown>): Promise<ErrorFrame> {
  const id = commandId("refused");
  browser.send({ ...command, id });
  return browser.waitForFrame("error", (frame) => frame.command?.id === id);
}

async function prompt(browser: Browser, message: string): Promise<void> {
  const settledBefore = browser.records.filter((r) => r.type === "agent_settled").length;
  expect(await ask(browser, { type: "prompt", message })).toMatchObject({ success: true });
  await browser.waitUntil(() => browser.records.filter((r) => r.type === "agent_settled").length > settledBefore, "agent_settled");
}

async function userTexts(browser: Browser): Promise<string[]> {
  const messages = (await ask(browser, { type: "get_messages" })).data.messages as { role: string; content: unknown }[];
  const text = (content: unknown) => (typeof content === "string" ? content : (content as { type: string; text?: string }[]).map((block) => block.text ?? "").join(""));
  return messages.filter((m) => m.role === "user").map((m) => text(m.content));
}

const list = async (pier: RunningPier, query = "") => (await httpJson(pier, "GET", `/api/sessions${query}`)).json as SessionListResponse;

describe("sessions through the relay (demo pier)", () => {
  let pier: RunningPier;
  let browser: Browser;
  let firstFile: string;

  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url))]);
    browser = await connectBrowser(pier);
  });
  afterAll(async () => {
    await browser?.close();
    await pier?.stop();
  });

  it("says where sessions live and lists them once pi has written one", async () => {
    const info = browser.hello.sessions!;
    expect(info).toMatchObject({ persisted: true });
    expect(info.dir).toContain("sessions");
    expect((await list(pier)).total).toBe(0);

    await prompt(browser, "hello there");
    await browser.waitForFrame("sessions_changed");
    firstFile = (await ask(browser, { type: "get_state" })).data.sessionFile;
    const page = await list(pier);
    expect(page.dir).toBe(info.dir);
    expect(page.sessions).toEqual([expect.objectContaining({ readable: true, path: firstFile, firstPrompt: "hello there", cwdExists: true })]);
    expect((await list(pier, "?q=THERE")).total).toBe(1);
    expect((await list(pier, "?q=nothing-like-it")).total).toBe(0);
  });

  it("refuses switch_session to a file that does not exist or is not this workspace's session, and pi keeps running", async () => {
    const missing = await refused(browser, { type: "switch_session", sessionPath: join(browser.hello.sessions!.dir, "nope.jsonl") });
    expect(missing).toMatchObject({ code: "path_refused" });
    expect(missing.message).toMatch(/no session file/);
    const outside = await refused(browser, { type: "switch_session", sessionPath: "/etc/passwd" });
    expect(outside.code).toBe("path_refused");
    expect((await ask(browser, { type: "get_state" })).data.sessionFile).toBe(firstFile);
  });

  it("lets export_html write only into the relay's export folder, and serves an export once", async () => {
    const evil = join(tmpdir(), `pier-evil-${process.pid}.html`);
    expect((await refused(browser, { type: "export_html", outputPath: evil })).code).toBe("path_refused");
    expect(existsSync(evil)).toBe(false);

    const exportDir = browser.hello.sessions!.exportDir;
    expect(await ask(browser, { type: "export_html", outputPath: `${exportDir}/test-export.html` })).toMatchObject({ success: true });
    const download = await httpJson(pier, "GET", "/api/sessions/export/test-export.html?name=Greeter%20work");
    expect(download.status).toBe(200);
    expect(download.headers["content-disposition"]).toContain('attachment; filename="Greeter work.html"');
    expect(download.headers["content-type"]).toBe("text/html; charset=utf-8");
    // pi's export is a self-contained page (the session is embedded as data).
    expect(download.text).toMatch(/^<!DOCTYPE html>/i);
    expect(download.text.length).toBeGreaterThan(10_000);
    expect((await httpJson(pier, "GET", "/api/sessions/export/test-export.html")).status).toBe(404);
    expect(existsSync(`${exportDir}/test-export.html`)).toBe(false);
    expect((await httpJson(pier, "GET", "/api/sessions/export/..%2f..%2fetc%2fpasswd")).status).toBe(400);
  });

  it("downloads a session file of this workspace only, and only with the cookie", async () => {
    const download = await httpJson(pier, "GET", `/api/sessions/download?path=${encodeURIComponent(firstFile)}&name=mine`);
    expect(download.status).toBe(200);
    expect(download.headers["content-disposition"]).toContain('filename="mine.jsonl"');
    expect(download.text).toBe(await readFile(firstFile, "utf8"));
    expect((await httpJson(pier, "GET", `/api/sessions/download?path=${encodeURIComponent("/etc/passwd")}`)).status).toBe(403);
    expect((await httpJson(pier, "GET", `/api/sessions/download?path=${encodeURIComponent(firstFile)}`, { cookie: null })).status).toBe(401);
    expect((await httpJson(pier, "POST", "/api/sessions", { body: {} })).status).toBe(405);
  });

  it("switches to a listed session, and a restart reopens the session the browser was on", async () => {
    expect(await ask(browser, { type: "new_session" })).toMatchObject({ success: true, data: { cancelled: false } });
    await prompt(browser, "second session");
    const second = (await ask(browser, { type: "get_state" })).data.sessionFile;
    expect(second).not.toBe(firstFile);
    expect((await list(pier)).sessions.map((s) => s.readable && s.firstPrompt)).toEqual(["second session", "hello there"]);

    expect(await ask(browser, { type: "switch_session", sessionPath: firstFile })).toMatchObject({ success: true, data: { cancelled: false } });
    expect(await userTexts(browser)).toEqual(["hello there"]);

    // pi dies; the browser asks for it back on the session it was on (the second).
    const epoch = browser.hello.child.epoch;
    const child = browser.hello.child;
    if (child.state !== "running") throw new Error("pi is not running");
    process.kill(child.pid, "SIGKILL");
    await browser.waitForFrame("child_exited");
    browser.send({ type: "pier.restart_pi", sessionFile: second });
    await browser.waitForFrame("child_started", (frame) => frame.child.epoch > epoch);
    expect((await ask(browser, { type: "get_state" })).data.sessionFile).toBe(second);
    expect(await userTexts(browser)).toEqual(["second session"]);
  });

  it("refuses to restart pi on a file outside the session folder", async () => {
    browser.send({ type: "pier.restart_pi", sessionFile: "/etc/passwd" });
    const error = await browser.waitForFrame("error", (frame) => frame.command?.type === "pier.restart_pi");
    expect(error).toMatchObject({ code: "request_failed" });
    expect((await ask(browser, { type: "get_state" })).success).toBe(true);
  });
});

describe("pier resumes the workspace's most recent session", () => {
  let server: ModelServer;
  let agent: DemoAgentDir;
  let project: { dir: string; cleanup(): Promise<void> };
  const running: RunningPier[] = [];
  const browsers: Browser[] = [];

  beforeAll(async () => {
    server = await startModelServer({ scenario: { name: "resume", rules: [], fallback: { steps: [{ kind: "text", text: "Noted." }] } } });
    agent = await createDemoAgentDir({ modelServerUrl: server.url });
    project = await copyDemoProject();
  });
  afterEach(async () => {
    for (const b of browsers.splice(0)) await b.close();
    for (const p of running.splice(0)) await p.stop();
  });
  afterAll(async () => {
    await project?.cleanup();
    await agent?.cleanup();
    await server?.close();
  });

  async function open(args: string[] = []): Promise<Browser> {
    const pier = await startPier(["--cwd", project.dir, "--no-demo-fallback", ...args], {
      env: { ...process.env, PI_CODING_AGENT_DIR: agent.dir, PI_OFFLINE: "1" },
    });
    running.push(pier);
    const browser = await connectBrowser(pier);
    browsers.push(browser);
    return browser;
  }

  it("continues after pier stops, starts fresh with --new-session, and opens --session FILE", async () => {
    let browser = await open();
    await prompt(browser, "remember me");
    const first = (await ask(browser, { type: "get_state" })).data.sessionFile as string;
    await browsers.pop()!.close();
    await running.pop()!.stop();

    browser = await open();
    expect(await userTexts(browser)).toEqual(["remember me"]);
    await browsers.pop()!.close();
    await running.pop()!.stop();

    browser = await open(["--new-session"]);
    expect(await userTexts(browser)).toEqual([]);
    await prompt(browser, "a newer one");
    await browsers.pop()!.close();
    await running.pop()!.stop();

    browser = await open(["--session", first]);
    expect(await userTexts(browser)).toEqual(["remember me"]);
  });

  it("lists an unreadable session file as unreadable, next to the good ones", async () => {
    const browser = await open();
    const dir = browser.hello.sessions!.dir;
    const junk = join(dir, "2020-01-01T00-00-00-000Z_junk.jsonl");
    await writeFile(junk, "this is not a session\n");
    try {
      const pier = running.at(-1)!;
      const page = await list(pier);
      expect(page.sessions).toContainEqual(expect.objectContaining({ readable: false, path: junk, error: expect.stringMatching(/not a pi session|session header/) }));
      expect(page.sessions.some((s) => s.readable)).toBe(true);
      // And pi is not asked to open it.
      expect((await refused(browser, { type: "switch_session", sessionPath: junk })).message).toMatch(/session header/);
    } finally {
      await rm(junk, { force: true });
    }
  });
});
