// The board survives a restart of pier, against the real relay and real pi
// children (the scripted model behind them): the agents drivers started come
// back asleep with their ids, folders and worktrees; opening one starts its
// pi on the session it had; an agent whose folder is gone is left out with a
// sentence; a second pier on the same board while the first runs neither
// restores its agents nor writes over them.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LIVE_API_PATHS, type LiveCard } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoAgentDir, type DemoAgentDir } from "../../src/demo/agent-dir.ts";
import { startModelServer, type ModelServer } from "../../src/demo/model-server.ts";
import { commandId, connectBrowser, startPier, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";

const IDENTITY = { GIT_AUTHOR_NAME: "Ada Tester", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_COMMITTER_NAME: "Ada Tester", GIT_COMMITTER_EMAIL: "ada@example.com" };
const made: string[] = [];
const running: RunningPier[] = [];

function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

function repository(): string {
  const parent = tempDir("pier-board-repo-");
  const repo = join(parent, "app");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: parent, stdio: "pipe", env: { ...process.env, ...IDENTITY } });
  git("init", "-q", "-b", "main", repo);
  writeFileSync(join(repo, "README.md"), "# app\n");
  git("-C", repo, "add", ".");
  git("-C", repo, "commit", "-qm", "first");
  return repo;
}

// Not the demo (its board is not remembered: its session files go with it), but pi on the
// scripted model all the same, through a pi config dir of the test's own.
let server: ModelServer;
let agentDir: DemoAgentDir;
beforeAll(async () => {
  server = await startModelServer({ scenario: { name: "board", rules: [], fallback: { steps: [{ kind: "text", text: "Noted." }] } } });
  agentDir = await createDemoAgentDir({ modelServerUrl: server.url });
});

async function startOn(stateHome: string, primaryFolder: string): Promise<RunningPier> {
  const env = { ...process.env, ...IDENTITY, XDG_STATE_HOME: stateHome, PI_CODING_AGENT_DIR: agentDir.dir, PI_OFFLINE: "1" };
  const pier = await startPier(["--cwd", primaryFolder, "--no-demo-fallback", "--max-agents", "4"], { env });
  running.push(pier);
  return pier;
}

async function cards(pier: RunningPier): Promise<LiveCard[]> {
  return (await httpJson(pier, "GET", LIVE_API_PATHS.sessions)).json.cards as LiveCard[];
}

afterAll(async () => {
  await Promise.all(running.map((pier) => pier.stop()));
  await server?.close();
  await agentDir?.cleanup();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe("the board across restarts", () => {
  const stateHome = tempDir("pier-board-state-");
  const home = tempDir("pier-board-home-");
  const folder = tempDir("pier-board-agent-");
  const repo = repository();
  let plainId = "";
  let worktreeCard: LiveCard;

  it("puts the agents of the last run back, asleep, with their ids and worktrees; opening one reopens its session", async () => {
    const first = await startOn(stateHome, home);
    const started = await httpJson(first, "POST", LIVE_API_PATHS.sessions, { body: { cwd: folder } });
    expect(started.status, started.text).toBe(201);
    plainId = started.json.card.id as string;
    const agent = await connectBrowser(first, { path: `/live/${plainId}/ws` });
    agent.send({ type: "prompt", message: "remember this conversation", id: commandId("board") });
    await agent.waitForRecord((r) => r.type === "agent_settled");
    const onWorktree = await httpJson(first, "POST", LIVE_API_PATHS.worktree, { body: { workspace: repo, branch: "agent/kept" } });
    expect(onWorktree.status, onWorktree.text).toBe(201);
    worktreeCard = onWorktree.json.card as LiveCard;
    // What pier wrote is its user's alone.
    const boards = join(stateHome, "pier", "boards");
    await expect.poll(() => readdirSync(boards).filter((name) => name.endsWith(".json")).length).toBe(1);
    const file = join(
      boards,
      readdirSync(boards).find((name) => name.endsWith(".json"))!,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(boards).mode & 0o777).toBe(0o700);
    // The session file pi had open is remembered once pi said which (get_state after the run).
    await expect.poll(() => readFileSync(file, "utf8")).toMatch(/"sessionFile": "\/[^"]+\.jsonl"/);
    await agent.close();
    await first.stop();

    const second = await startOn(stateHome, home);
    const back = await cards(second);
    expect(back.map((card) => card.id)).toEqual(["1", plainId, worktreeCard.id]);
    expect(back[1]).toMatchObject({ cwd: folder, asleep: true, primary: false });
    expect(back[2]).toMatchObject({ cwd: worktreeCard.cwd, asleep: true, worktree: worktreeCard.worktree });
    expect(second.stdout.join("\n") + second.stderr.join("\n")).toContain("put back 2 agents of the last run on the board");
    // The worktree agent can still be reviewed.
    const diff = await httpJson(second, "GET", `${LIVE_API_PATHS.diff}?id=${worktreeCard.id}`);
    expect(diff.status, diff.text).toBe(200);
    // Opening the first agent wakes its pi on the session it had: the earlier conversation is there.
    const reopened = await connectBrowser(second, { path: `/live/${plainId}/ws` });
    if (reopened.hello.child.state !== "running") await reopened.waitForFrame("child_started");
    const messagesId = commandId("messages");
    reopened.send({ type: "get_messages", id: messagesId });
    const messages = await reopened.waitForRecord((r) => r.type === "response" && r.id === messagesId);
    expect(JSON.stringify(messages)).toContain("remember this conversation");
    // A new agent gets an id past every remembered one.
    const next = await httpJson(second, "POST", LIVE_API_PATHS.sessions, { body: { cwd: tempDir("pier-board-next-") } });
    expect(next.status, next.text).toBe(201);
    expect(Number(next.json.card.id)).toBeGreaterThan(Math.max(Number(plainId), Number(worktreeCard.id)));
    const archived = await httpJson(second, "POST", LIVE_API_PATHS.archive, { body: { id: next.json.card.id } });
    expect(archived.status, archived.text).toBe(200);
    await reopened.close();

    // A second pier on the same board while this one runs: an empty board, and the first's file is left alone.
    // (Once the archive above is written: board changes are written a moment after they happen.)
    await expect.poll(() => readFileSync(file, "utf8")).not.toContain("pier-board-next-");
    const before = readFileSync(file, "utf8");
    const intruder = await startOn(stateHome, home);
    expect((await cards(intruder)).map((card) => card.id)).toEqual(["1"]);
    expect(intruder.stdout.join("\n") + intruder.stderr.join("\n")).toMatch(/another pier \(pid \d+\) runs in .* with its agents/);
    const extra = await httpJson(intruder, "POST", LIVE_API_PATHS.sessions, { body: { cwd: tempDir("pier-board-extra-") } });
    expect(extra.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readFileSync(file, "utf8")).toBe(before);
    await intruder.stop();
    await second.stop();
  });

  it("leaves out an agent whose folder is gone, saying what is left of it", async () => {
    rmSync(folder, { recursive: true, force: true });
    const third = await startOn(stateHome, home);
    expect((await cards(third)).map((card) => card.id)).toEqual(["1", worktreeCard.id]);
    expect(third.stdout.join("\n") + third.stderr.join("\n")).toMatch(new RegExp(`agent ${plainId} of the last run in ${folder} was not put back on the board: .*does not exist`));
    await third.stop();
  });

  it("sets aside a board file pier did not write and starts empty", async () => {
    const boards = join(stateHome, "pier", "boards");
    const file = join(
      boards,
      readdirSync(boards).find((name) => name.endsWith(".json"))!,
    );
    writeFileSync(file, JSON.stringify({ version: 1, folder: "/x", pid: 1, agents: [{ id: "2", cwd: "relative", sessionFile: null, createdAt: 0, worktree: null }] }));
    const fourth = await startOn(stateHome, home);
    expect((await cards(fourth)).map((card) => card.id)).toEqual(["1"]);
    expect(fourth.stdout.join("\n") + fourth.stderr.join("\n")).toMatch(/is not a board pier wrote for .*; it was set aside as .*unreadable-/);
    await fourth.stop();
  });
});
