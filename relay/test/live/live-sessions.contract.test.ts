// Several live sessions in one pier, against the real relay and real pi
// children (the scripted model behind them): each session's socket carries
// its own pi's bytes only; the board reports each session's run; drivers
// start, stop, restart and archive; bad folders and the cap get sentences;
// viewer links reach the session they were made for (or the whole board),
// enforced on hand-made requests too; revoking closes every socket of the
// link; stopping pier leaves no pi running.
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { CLOSE_REVOKED, LIVE_API_PATHS, type BoardFrame, type LiveBoard, type LiveCard, type RelayFrame } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandId, connectBrowser, exchangeToken, isAlive, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";

const hello = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));
const uiProbe = fileURLToPath(new URL("../../../e2e/extensions/ui-probe.ts", import.meta.url));

type Frame<T extends RelayFrame["type"]> = Extract<RelayFrame, { type: T }>;

function gitRepo(branch: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pier-live-")));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" });
  git("init", "-q", "-b", branch);
  writeFileSync(join(dir, "README.md"), "# second workspace\n");
  git("-c", "user.email=t@example.com", "-c", "user.name=T", "add", ".");
  git("-c", "user.email=t@example.com", "-c", "user.name=T", "commit", "-qm", "first");
  return dir;
}

/** A board socket: every `board` frame it got, in order. */
function watchBoard(pier: RunningPier, cookie = pier.cookie): Promise<{ ws: WebSocket; boards: LiveBoard[]; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${pier.host}${LIVE_API_PATHS.boardSocket}`, { headers: { Cookie: cookie }, origin: pier.origin });
    const boards: LiveBoard[] = [];
    const closed = new Promise<number>((done) => ws.once("close", (code) => done(code)));
    ws.on("message", (data) => boards.push((JSON.parse(String(data)) as BoardFrame).board));
    ws.once("open", () => resolve({ ws, boards, closed }));
    ws.once("error", reject);
  });
}

async function until<T>(check: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const cardOf = (boards: LiveBoard[], id: string): LiveCard | undefined => boards.at(-1)?.cards.find((card) => card.id === id);

async function makeLink(driver: Browser, role: "driver" | "viewer", scope?: "session" | "board"): Promise<{ url: string; linkId: string }> {
  const before = driver.frames.filter((f) => f.type === "link_created").length;
  driver.send({ type: "pier.create_link", role, ...(scope ? { scope } : {}) });
  const frame = await driver.waitUntil(() => driver.frames.filter((f): f is Frame<"link_created"> => f.type === "link_created")[before], "link_created");
  return { url: `http://${new URL(driver.ws.url).host}/?token=${frame.token}`, linkId: frame.link.id };
}

/** The status of a WebSocket upgrade that is refused (or 101). */
function upgradeStatus(pier: RunningPier, path: string, cookie: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://${pier.host}${path}`, { headers: { Cookie: cookie }, origin: pier.origin });
    ws.once("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.once("open", () => {
      resolve(101);
      ws.close();
    });
    ws.once("error", () => {});
  });
}

describe("live sessions", () => {
  let pier: RunningPier;
  let primary: Browser;
  let second: Browser;
  let repo: string;
  let board: Awaited<ReturnType<typeof watchBoard>>;
  let secondId = "";

  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", hello, "--max-agents", "2", "--", "-e", uiProbe]);
    primary = await connectBrowser(pier);
    board = await watchBoard(pier);
    repo = gitRepo("feature-x");
  });
  afterAll(async () => {
    board?.ws.close();
    await second?.close();
    await primary?.close();
    await pier?.stop();
  });

  it("starts a second live session in another folder: its own pi child, its own bytes, on the board with its branch", async () => {
    const started = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: repo } });
    expect(started.status).toBe(201);
    const id = started.json.card.id as string;
    expect(id).not.toBe("1");
    second = await connectBrowser(pier, { path: `/live/${id}/ws` });
    expect(second.hello.cwd).toBe(repo);
    secondId = id;
    const child = second.hello.child.state === "running" ? second.hello.child : (await second.waitForFrame("child_started")).child;
    expect(child.state).toBe("running");

    const promptId = commandId("live");
    second.send({ type: "prompt", message: "hello from the second agent", id: promptId });
    await second.waitForRecord((r) => r.type === "agent_settled");
    // Session 1's socket saw none of session 2's run.
    expect(primary.records.some((r) => r.type === "agent_start" || r.type === "message_update")).toBe(false);
    expect(primary.records.some((r) => r.id === promptId)).toBe(false);

    const card = await until(() => {
      const c = cardOf(board.boards, id);
      return c?.state === "done" ? c : undefined;
    }, "the second card to say done");
    expect(card).toMatchObject({ cwd: repo, branch: "feature-x", primary: false, child: "running", title: "hello from the second agent", browsers: 1 });
    // The board saw the run: working first, then done.
    expect(board.boards.some((b) => b.cards.find((c) => c.id === id)?.state === "working")).toBe(true);
    expect(cardOf(board.boards, "1")).toMatchObject({ primary: true, state: "idle" });
  });

  it("prompts an agent and answers its dialog from the board, without a page on it; the first answer wins", async () => {
    const prompted = await httpJson(pier, "POST", LIVE_API_PATHS.prompt, { body: { id: secondId, message: "/probe-confirm" } });
    expect(prompted.status).toBe(200);
    // Its page hears who sent it.
    await second.waitForFrame("command_sent", (f) => f.line.includes("/probe-confirm"));
    const waiting = await until(() => {
      const c = cardOf(board.boards, secondId);
      return c?.state === "needs_you" ? c : undefined;
    }, "the card to say it needs you");
    expect(waiting.question).toMatchObject({ method: "confirm", title: "Delete the scratch file?" });
    const answered = await httpJson(pier, "POST", LIVE_API_PATHS.answer, { body: { id: secondId, requestId: waiting.question!.id, confirmed: true } });
    expect(answered.status).toBe(200);
    // pi took the answer: the extension reports it.
    await second.waitForRecord((r) => r.type === "extension_ui_request" && r.method === "notify" && /true|yes|confirmed/i.test(String(r.message)));
    await until(() => cardOf(board.boards, secondId)?.question === null, "the question to leave the card");
    const again = await httpJson(pier, "POST", LIVE_API_PATHS.answer, { body: { id: secondId, requestId: waiting.question!.id, confirmed: false } });
    expect(again.status).toBe(409);
    expect(again.json.error.message).toContain("answered this dialog first");
    const malformed = await httpJson(pier, "POST", LIVE_API_PATHS.answer, { body: { id: secondId, requestId: "x", confirmed: true, value: "y" } });
    expect(malformed.status).toBe(400);
  });

  it("refuses a folder that is not one, and a new agent past --max-agents, with a sentence", async () => {
    const missing = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: join(repo, "no-such-folder") } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toContain("does not exist");
    const file = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: join(repo, "README.md") } });
    expect(file.status).toBe(400);
    expect(file.json.error.message).toContain("is a file");
    const nothing = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: {} });
    expect(nothing.status).toBe(400);
    const full = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: repo } });
    expect(full.status).toBe(503);
    expect(full.json.error.code).toBe("max_agents");
    expect(full.json.error.message).toContain("--max-agents");
    const unknown = await httpJson(pier, "POST", LIVE_API_PATHS.stop, { body: { id: "999" } });
    expect(unknown.status).toBe(404);
  });

  it("scopes viewer links: one made in a session opens that session only, even by hand; a board link opens all; revoking closes them all", async () => {
    const sessionLink = await makeLink(primary, "viewer");
    const sessionViewer = await exchangeToken(sessionLink.url, pier.port);
    // Its own session: yes (unprefixed and by its id); the other: no, by socket or HTTP.
    expect(await upgradeStatus(pier, "/ws", sessionViewer)).toBe(101);
    expect(await upgradeStatus(pier, "/live/1/ws", sessionViewer)).toBe(101);
    expect(await upgradeStatus(pier, `/live/${secondId}/ws`, sessionViewer)).toBe(403);
    const tree = await httpJson(pier, "GET", `/live/${secondId}/api/files/tree`, { cookie: sessionViewer });
    expect(tree.status).toBe(403);
    const boardSeen = await httpJson(pier, "GET", LIVE_API_PATHS.sessions, { cookie: sessionViewer });
    expect(boardSeen.json.cards.map((c: LiveCard) => c.id)).toEqual(["1"]);
    expect(boardSeen.json.role).toBe("viewer");
    // Viewers cannot start or stop agents.
    const refused = await httpJson(pier, "POST", LIVE_API_PATHS.stop, { cookie: sessionViewer, body: { id: "1" } });
    expect(refused.status).toBe(403);

    const boardLink = await makeLink(primary, "viewer", "board");
    const boardViewerCookie = await exchangeToken(boardLink.url, pier.port);
    const boardViewer = await connectBrowser(pier, { cookie: boardViewerCookie, path: `/live/${secondId}/ws` });
    expect(boardViewer.hello.you.role).toBe("viewer");
    const viewerBoard = await watchBoard(pier, boardViewerCookie);
    await until(() => viewerBoard.boards.length > 0, "the viewer's board");
    expect(viewerBoard.boards[0]!.cards.length).toBe(2);
    // Revoked from session 1's page: its browser in session 2 and its board socket close at once.
    primary.send({ type: "pier.revoke_link", linkId: boardLink.linkId });
    expect((await boardViewer.closed).code).toBe(CLOSE_REVOKED);
    expect(await viewerBoard.closed).toBe(CLOSE_REVOKED);
    expect(await upgradeStatus(pier, `/live/${secondId}/ws`, boardViewerCookie)).toBe(401);
  });

  it("stops, restarts and archives a session; the primary cannot be archived; stopping pier leaves no pi", async () => {
    const id = secondId;
    const stopped = await httpJson(pier, "POST", LIVE_API_PATHS.stop, { body: { id } });
    expect(stopped.status).toBe(200);
    await until(() => cardOf(board.boards, id)?.child === "exited", "the stopped card");
    // One running now: a new agent fits under --max-agents 2 again, then is archived at once.
    const third = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: repo } });
    expect(third.status).toBe(201);
    const archived = await httpJson(pier, "POST", LIVE_API_PATHS.archive, { body: { id: third.json.card.id } });
    expect(archived.status).toBe(200);
    await until(() => board.boards.at(-1)!.cards.every((c) => c.id !== third.json.card.id), "the archived card to leave the board");

    const restarted = await httpJson(pier, "POST", LIVE_API_PATHS.restart, { body: { id } });
    expect(restarted.status).toBe(200);
    const running = await second.waitForFrame("child_started", (f) => f.child.state === "running" && f.child.epoch > second.hello.child.epoch);
    const pids = [primary.hello.child, running.child].map((child) => (child.state === "running" ? child.pid : 0));
    expect(pids.every((pid) => pid > 0 && isAlive(pid))).toBe(true);

    const primaryArchive = await httpJson(pier, "POST", LIVE_API_PATHS.archive, { body: { id: "1" } });
    expect(primaryArchive.status).toBe(409);

    await pier.stop();
    await until(() => pids.every((pid) => !isAlive(pid)), "every pi child to be gone", 10_000);
  });
});
