// The real pi decides where its session file goes; resolveSessionDir must
// name the same folder, and the catalog must list the file pi wrote (first
// prompt, message count) and pick it as the one `pi --continue` would open.
// One configuration per source: the default folder, the environment,
// --session-dir (absolute and relative), the global setting, and the
// project's setting (read by pi before project trust, which RPC mode cannot
// grant: no defaultProjectTrust is set).
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDemoAgentDir } from "../../src/demo/agent-dir.ts";
import { startModelServer } from "../../src/demo/model-server.ts";
import type { Scenario } from "../../src/demo/scenario.ts";
import { SessionCatalog } from "../../src/sessions/session-catalog.ts";
import { resolveSessionDir, type SessionDirResolution } from "../../src/sessions/session-dir.ts";
import { spawnPi } from "../demo/pi-rpc-child.ts";

const SCENARIO: Scenario = { name: "sessions", rules: [], fallback: { steps: [{ kind: "text", text: "Noted." }] } };
const PROMPT = "Remember   the word\npelican, please";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Setup = {
  args?: string[];
  /** Extra environment for pi (PI_CODING_AGENT_SESSION_DIR is removed unless given). */
  env?: (root: string) => NodeJS.ProcessEnv;
  settings?: (root: string) => Record<string, unknown>;
  projectSettings?: Record<string, unknown>;
};

async function start(setup: Setup) {
  const root = await realpath(await mkdtemp(join(tmpdir(), "pier-sdir-contract-")));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const project = join(root, "project");
  await mkdir(project);
  if (setup.projectSettings) {
    await mkdir(join(project, ".pi"));
    await writeFile(join(project, ".pi", "settings.json"), JSON.stringify(setup.projectSettings));
  }
  const server = await startModelServer({ scenario: SCENARIO });
  cleanups.push(() => server.close());
  const agent = await createDemoAgentDir({ modelServerUrl: server.url, settings: setup.settings?.(root) });
  cleanups.push(() => agent.cleanup());
  const env = { PI_CODING_AGENT_SESSION_DIR: undefined, ...setup.env?.(root) };
  const args = setup.args ?? [];
  const pi = spawnPi({ cwd: project, agentDir: agent.dir, args, env });
  cleanups.push(() => pi.close());
  const resolution = await resolveSessionDir({
    cwd: project,
    env: { ...process.env, PI_CODING_AGENT_DIR: agent.dir, PI_OFFLINE: "1", ...env },
    piArgs: ["--mode", "rpc", ...args],
  });
  return { root, project, pi, resolution };
}

/** Sends one prompt (so pi writes the file) and checks pi's file against the resolution and the catalog. */
async function checkAgainstPi(setup: Setup): Promise<{ resolution: SessionDirResolution; sessionFile: string; root: string; project: string }> {
  const { root, project, pi, resolution } = await start(setup);
  const from = pi.records.length;
  expect(await pi.request({ type: "prompt", message: PROMPT })).toMatchObject({ success: true });
  await pi.waitFor((record) => record.type === "agent_settled", from);
  const state = await pi.request({ type: "get_state" });
  const sessionFile = state.data.sessionFile as string;
  const messages = (await pi.request({ type: "get_messages" })).data.messages as { role: string }[];

  const file = resolve(project, sessionFile);
  expect(dirname(file)).toBe(resolution.dir);

  const catalog = new SessionCatalog({ ...resolution, log: () => {} });
  const listed = await catalog.list();
  expect(listed.total).toBe(1);
  expect(listed.sessions[0]).toMatchObject({
    readable: true,
    path: file,
    id: state.data.sessionId,
    cwd: project,
    cwdExists: true,
    firstPrompt: "Remember the word pelican, please",
    messageCount: messages.filter((message) => message.role !== "system").length,
    partial: false,
  });
  expect(await catalog.mostRecent()).toBe(file);
  expect(catalog.checkSwitchTarget(file)).toMatchObject({ ok: true, path: file });
  return { resolution, sessionFile, root, project };
}

describe("where pi keeps a workspace's sessions", () => {
  it("by default: <agentDir>/sessions/--<cwd>--", async () => {
    const { resolution } = await checkAgainstPi({});
    expect(resolution).toMatchObject({ source: "default", filterCwd: false, persisted: true });
  });

  it("PI_CODING_AGENT_SESSION_DIR", async () => {
    const { resolution, root } = await checkAgainstPi({ env: (root) => ({ PI_CODING_AGENT_SESSION_DIR: join(root, "from-env") }) });
    expect(resolution).toMatchObject({ source: "env", dir: join(root, "from-env"), filterCwd: true });
  });

  it("--session-dir, absolute, wins over the environment", async () => {
    const sharedRoot = await realpath(await mkdtemp(join(tmpdir(), "pier-sdir-cli-")));
    cleanups.push(() => rm(sharedRoot, { recursive: true, force: true }));
    const { resolution } = await checkAgainstPi({
      args: ["--session-dir", join(sharedRoot, "cli")],
      env: (root) => ({ PI_CODING_AGENT_SESSION_DIR: join(root, "from-env") }),
    });
    expect(resolution).toMatchObject({ source: "cli", dir: join(sharedRoot, "cli"), filterCwd: true });
  });

  it("--session-dir, relative: pi keeps it relative to its working folder (get_state's sessionFile too)", async () => {
    const { resolution, sessionFile, project } = await checkAgainstPi({ args: ["--session-dir", "my-sessions"] });
    expect(resolution).toMatchObject({ source: "cli", dir: join(project, "my-sessions"), filterCwd: true });
    expect(sessionFile.startsWith("my-sessions/")).toBe(true);
  });

  it("the global sessionDir setting", async () => {
    const { resolution, root } = await checkAgainstPi({ settings: (root) => ({ sessionDir: join(root, "from-settings") }) });
    expect(resolution).toMatchObject({ source: "settings", dir: join(root, "from-settings"), filterCwd: true });
  });

  it("the project's sessionDir setting, over the global one, relative to the workspace, without trust", async () => {
    const { resolution, project } = await checkAgainstPi({
      settings: (root) => ({ sessionDir: join(root, "from-global") }),
      projectSettings: { sessionDir: "project-sessions" },
    });
    expect(resolution).toMatchObject({ source: "settings", dir: join(project, "project-sessions"), filterCwd: true });
  });

  it("pi refuses --session-dir=<dir> (an unknown option), so the relay ignores it", async () => {
    const { pi, resolution } = await start({ args: ["--session-dir=/tmp/never"] });
    expect(resolution.source).toBe("default");
    expect(await pi.close()).toBe(1);
    expect(pi.stderr()).toContain("Unknown option: --session-dir");
  });
});
