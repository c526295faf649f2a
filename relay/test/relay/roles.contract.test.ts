// Roles the relay enforces, against a real pier and pi: the printed link is a
// driver's; a driver makes viewer links (any number of browsers) and more
// driver links (single-use), and revokes them (their sockets close at once).
// A viewer sees everything live but cannot send pi a command, answer a
// dialog, change a file or restart pi — not even over a hand-made
// WebSocket. Everyone hears who is here and who did what.
import type { Person, RelayFrame } from "@pier/protocol";
import { CLOSE_REVOKED } from "@pier/protocol";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandId, connectBrowser, exchangeToken, startPier, type Browser, type PiRecord, type RunningPier } from "../support/pier-process.ts";
import { peopleKnownTo } from "../support/people-known.ts";
import { httpJson } from "../workspace/workspace-http.ts";

const hello = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));
const uiProbe = fileURLToPath(new URL("../../../e2e/extensions/ui-probe.ts", import.meta.url));

type Frame<T extends RelayFrame["type"]> = Extract<RelayFrame, { type: T }>;

async function makeLink(driver: Browser, role: "driver" | "viewer"): Promise<{ url: string; linkId: string }> {
  const before = driver.frames.filter((f) => f.type === "link_created").length;
  driver.send({ type: "pier.create_link", role });
  const frame = await driver.waitUntil(() => driver.frames.filter((f): f is Frame<"link_created"> => f.type === "link_created")[before], "link_created");
  expect(frame.link.role).toBe(role);
  // The address the driver's page is at (pier's own host name), as the Share panel builds it.
  return { url: `http://${new URL(driver.ws.url).host}/?token=${frame.token}`, linkId: frame.link.id };
}

async function ask(browser: Browser, command: Record<string, unknown>): Promise<PiRecord> {
  const id = commandId("roles");
  browser.send({ ...command, id });
  return browser.waitForRecord((r) => r.type === "response" && r.id === id);
}

describe("roles", () => {
  let pier: RunningPier;
  let driver: Browser;
  let viewer: Browser;
  let viewerCookie: string;
  let viewerLink: { url: string; linkId: string };

  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", hello, "--", "-e", uiProbe]);
    driver = await connectBrowser(pier);
    viewerLink = await makeLink(driver, "viewer");
    viewerCookie = await exchangeToken(viewerLink.url, pier.port);
    viewer = await connectBrowser(pier, { cookie: viewerCookie });
  });
  afterAll(async () => {
    await viewer?.close();
    await driver?.close();
    await pier?.stop();
  });

  it("the printed link makes a driver; a viewer link makes viewers, and everyone hears who is here", async () => {
    expect(driver.hello.you.role).toBe("driver");
    expect(viewer.hello.you).toMatchObject({ role: "viewer", name: "Viewer 1" });
    await driver.waitUntil(() => peopleKnownTo(driver).length === 2, "presence with two people");
    expect(
      peopleKnownTo(driver)
        .map((p) => p.role)
        .sort(),
    ).toEqual(["driver", "viewer"]);
    // A viewer link opens for any number of browsers.
    const second = await connectBrowser(pier, { cookie: await exchangeToken(viewerLink.url, pier.port) });
    expect(second.hello.you.role).toBe("viewer");
    await second.close();
  });

  it("refuses every pi command from a viewer that changes something, with a clear error, and pi keeps running", async () => {
    const changes = [
      { type: "prompt", message: "hi" },
      { type: "abort" },
      { type: "bash", command: "touch /tmp/pwned" },
      { type: "new_session" },
      { type: "set_model", provider: "x", modelId: "y" },
      { type: "export_html" },
      { type: "extension_ui_response", id: "dialog-1", confirmed: true },
    ];
    for (const command of changes) {
      const id = command.type === "extension_ui_response" ? command.id! : commandId("viewer");
      viewer.send({ ...command, id });
      const error = await viewer.waitForFrame("error", (frame) => frame.command?.id === id);
      expect(error).toMatchObject({ code: "forbidden" });
      expect(error.message).toMatch(/only a driver can send pi commands that change something/);
    }
    for (const request of [{ type: "pier.restart_pi" }, { type: "pier.create_link", role: "driver" }, { type: "pier.revoke_link", linkId: viewerLink.linkId }]) {
      viewer.send(request);
      const error = await viewer.waitForFrame("error", (frame) => frame.command?.type === request.type);
      expect(error.code).toBe("forbidden");
    }
    expect((await ask(driver, { type: "get_state" })).success).toBe(true);
  });

  it("lets a viewer ask pi what is there (state, entries, stats) so its page can load the session", async () => {
    for (const type of ["get_state", "get_entries", "get_messages", "get_session_stats"]) {
      const response = await ask(viewer, { type });
      expect(response).toMatchObject({ type: "response", command: type, success: true });
    }
  });

  it("lets a viewer read files but not change them", async () => {
    expect((await httpJson(pier, "GET", "/api/files/tree", { cookie: viewerCookie })).status).toBe(200);
    const save = await httpJson(pier, "PUT", "/api/files/content", { cookie: viewerCookie, body: { path: "owned.txt", content: "x", baseVersion: null } });
    expect(save.status).toBe(403);
    expect(save.json.error.message).toMatch(/only a driver can save/);
    const create = await httpJson(pier, "POST", "/api/files/create", { cookie: viewerCookie, body: { path: "owned", type: "folder" } });
    expect(create.status).toBe(403);
  });

  it("tells the others who sent what, and who changed which file", async () => {
    const id = commandId("driver");
    driver.send({ type: "abort_bash", id });
    const announced = await viewer.waitForFrame("command_sent", (frame) => frame.line.includes(id));
    expect(announced.sender).toMatchObject({ role: "driver", clientId: driver.hello.clientId });
    expect(JSON.parse(announced.line)).toMatchObject({ type: "abort_bash", id });
    // A query is not announced: its answer is the asker's alone.
    const query = commandId("query");
    driver.send({ type: "get_state", id: query });
    await driver.waitForRecord((r) => r.type === "response" && r.id === query);
    expect(viewer.frames.some((f) => f.type === "command_sent" && f.line.includes(query))).toBe(false);
    // The sender itself is not told its own command.
    expect(driver.frames.some((f) => f.type === "command_sent" && f.line.includes(id))).toBe(false);

    driver.send({ type: "pier.introduce", name: "Ada\u202e <b>bold</b>" });
    await viewer.waitUntil(() => peopleKnownTo(viewer).find((p) => p.clientId === driver.hello.clientId)?.name === "Ada <b>bold</b>", "the renamed driver");
    const saved = await httpJson(pier, "PUT", "/api/files/content", { body: { path: "notes.txt", content: "hello\n", baseVersion: null } });
    expect(saved.status).toBe(200);
    const activity = await viewer.waitForFrame("activity", (frame) => frame.path === "notes.txt");
    expect(activity).toMatchObject({ action: "saved", by: { name: "Ada <b>bold</b>", role: "driver" } });
  });

  it("carries a viewer's suggestion to the drivers, and its fate back", async () => {
    viewer.send({ type: "pier.suggest", text: "run the tests first" });
    const got = await driver.waitForFrame("suggestion");
    expect(got.suggestion).toMatchObject({ text: "run the tests first", from: { clientId: viewer.hello.clientId } });
    driver.send({ type: "pier.resolve_suggestion", id: got.suggestion.id, accepted: true });
    const resolved = await viewer.waitForFrame("suggestion_resolved");
    expect(resolved).toMatchObject({ id: got.suggestion.id, accepted: true, by: { role: "driver" } });
  });

  it("shows viewers what a driver looks at, also to one who joins later", async () => {
    driver.send({ type: "pier.focus", focus: { file: "src/greet.js", line: 3, pane: null } });
    const focus = await viewer.waitForFrame("focus");
    expect(focus).toEqual({ type: "focus", clientId: driver.hello.clientId, focus: { file: "src/greet.js", line: 3, pane: null } });
    const late = await connectBrowser(pier, { cookie: await exchangeToken(viewerLink.url, pier.port) });
    expect((await late.waitForFrame("focus")).focus.file).toBe("src/greet.js");
    await late.close();
  });

  it("takes the first answer to an extension dialog; a second driver is told who answered", async () => {
    const second = await connectBrowser(pier, { cookie: await exchangeToken((await makeLink(driver, "driver")).url, pier.port) });
    try {
      driver.send({ type: "prompt", message: "/probe-confirm", id: commandId("dialog") });
      const request = await second.waitForRecord((r) => r.type === "extension_ui_request" && r.method === "confirm");
      driver.send({ type: "extension_ui_response", id: request.id, confirmed: true });
      const told = await second.waitForFrame("command_sent", (frame) => frame.line.includes(request.id));
      expect(JSON.parse(told.line)).toMatchObject({ type: "extension_ui_response", confirmed: true });
      second.send({ type: "extension_ui_response", id: request.id, confirmed: false });
      const refused = await second.waitForFrame("error", (frame) => frame.code === "already_answered");
      expect(refused.message).toMatch(/answered this dialog first/);
      // pi got one answer: the driver's.
      await driver.waitForRecord((r) => r.type === "extension_ui_request" && r.method === "notify" && String(r.message).includes("confirm → true"));
    } finally {
      await second.close();
    }
  });

  it("a driver link works once; a forged one opens nothing", async () => {
    const { url } = await makeLink(driver, "driver");
    await exchangeToken(url, pier.port);
    expect((await fetch(url, { redirect: "manual" })).status).toBe(401);
    const forged = new URL(url);
    forged.searchParams.set("token", "A".repeat(43));
    expect((await fetch(forged, { redirect: "manual" })).status).toBe(401);
  });

  it("revoking a link closes its browsers at once, and its cookies and secret stop working", async () => {
    driver.send({ type: "pier.revoke_link", linkId: viewerLink.linkId });
    expect((await viewer.closed).code).toBe(CLOSE_REVOKED);
    expect((await httpJson(pier, "GET", "/api/files/tree", { cookie: viewerCookie })).status).toBe(401);
    const again = await fetch(viewerLink.url, { redirect: "manual" });
    expect(again.status).toBe(401);
    expect(await again.text()).toMatch(/revoked/);
    const links = await driver.waitUntil(
      () =>
        driver.frames
          .filter((f): f is Frame<"links"> => f.type === "links")
          .at(-1)
          ?.links.find((l) => l.id === viewerLink.linkId && l.revoked),
      "the revoked link listed",
    );
    expect(links.uses).toBeGreaterThanOrEqual(3);
  });
});
