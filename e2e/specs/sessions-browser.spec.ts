// pi's sessions as a person sees them in Pier: the Sessions panel (every
// saved session, search, open), fork from a message, clone, the session tree,
// export, the name in the header, and what happens when pi is busy or an
// extension objects. Two browsers watch where it matters; pi itself is asked
// (over a third connection) whether things really happened.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { commandId, connectBrowser, type Browser, type PiRecord } from "../../relay/test/support/pier-process.ts";
import { expect, extension, test } from "../support/pier.ts";

test.use({ scenarioName: "sessions", piArgs: ["-e", extension("session-probe.ts")] });

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const agent = (page: Page) => page.getByRole("status", { name: /^Agent:/ });
const promptBox = (page: Page) => page.getByRole("textbox", { name: "Prompt" });
const panel = (page: Page) => page.getByRole("dialog", { name: "Sessions" });
/** The user messages, whichever browser sent them (another's is named after its sender). */
const youSaid = (page: Page) =>
  conversation(page)
    .getByRole("group", { name: /^(Your message|Message from .+)$/ })
    .getByRole("article");
const yourMessage = (page: Page, text: string) => conversation(page).getByRole("group", { name: "Your message" }).filter({ hasText: text });

async function send(page: Page, text: string, wait = true) {
  await promptBox(page).fill(text);
  await promptBox(page).press("Enter");
  if (!wait) return;
  await expect(youSaid(page).last()).toContainText(text.startsWith("/") ? /.*/ : text);
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
}

async function ask(pi: Browser, command: Record<string, unknown>): Promise<PiRecord> {
  const id = commandId("sessions-e2e");
  pi.send({ ...command, id });
  return pi.waitForRecord((r) => r.type === "response" && r.id === id);
}

const piState = async (pi: Browser) => (await ask(pi, { type: "get_state" })).data;
async function userTexts(pi: Browser): Promise<string[]> {
  const messages = (await ask(pi, { type: "get_messages" })).data.messages as { role: string; content: unknown }[];
  const text = (c: unknown) => (typeof c === "string" ? c : (c as { text?: string }[]).map((b) => b.text ?? "").join(""));
  return messages.filter((m) => m.role === "user").map((m) => text(m.content));
}

async function openPanel(page: Page) {
  await page.getByRole("button", { name: "Sessions", exact: true }).click();
  await expect(panel(page)).toBeVisible();
  return panel(page);
}

test("the Sessions panel lists every saved session, searches, marks the current one, and opens another in every browser", async ({ page, pier, browser }) => {
  const pi = await connectBrowser(pier);
  const other = await (await browser.newContext()).newPage();
  try {
    await page.goto(pier.url);
    await other.goto(await pier.freshUrl());
    await send(page, "hello there");
    const first = await piState(pi);
    const sessions = await openPanel(page);
    await sessions.getByRole("button", { name: "New session" }).click();
    await expect(sessions.getByRole("status")).toHaveText("New session started.");
    await expect(youSaid(other)).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(panel(page)).toBeHidden();
    // The keyboard is back on the button that opened the panel.
    await expect(page.getByRole("button", { name: "Sessions", exact: true })).toBeFocused();
    await send(page, "a second topic");

    await openPanel(page);
    const list = panel(page).getByRole("list", { name: "Saved sessions" });
    await expect(list.getByRole("listitem")).toHaveCount(2);
    await expect(list.getByRole("listitem").first()).toContainText("a second topic");
    await expect(list.getByRole("listitem").first()).toContainText("current");
    await expect(list.getByRole("button", { name: /^a second topic/ })).toHaveAttribute("aria-current", "true");
    await expect(list.getByRole("listitem").nth(1)).toContainText("hello there");
    await expect(list.getByRole("listitem").nth(1)).toContainText("2 messages");

    await panel(page).getByRole("searchbox", { name: "Search sessions" }).fill("HELLO");
    await expect(list.getByRole("listitem")).toHaveCount(1);
    await expect(panel(page)).toContainText("1 session match");
    await list.getByRole("button", { name: /^hello there/ }).click();
    await expect(panel(page).getByRole("status")).toHaveText("Switched.");

    // Both browsers show the earlier conversation, and pi is really in it.
    for (const p of [page, other]) await expect(youSaid(p)).toHaveText(["hello there"]);
    expect((await piState(pi)).sessionFile).toBe(first.sessionFile);
    await page.keyboard.press("Escape");
    await send(other, "and once more");
    expect(await userTexts(pi)).toEqual(["hello there", "and once more"]);
  } finally {
    await other.context().close();
    await pi.close();
  }
});

test("Fork from here starts a session up to that message with its text in the prompt box; Clone copies the branch", async ({ page, pier, browser }) => {
  const pi = await connectBrowser(pier);
  const other = await (await browser.newContext()).newPage();
  try {
    await page.goto(pier.url);
    await other.goto(await pier.freshUrl());
    await send(page, "first question");
    await send(page, "second question");
    const before = await piState(pi);

    const second = yourMessage(page, "second question");
    await second.hover();
    await second.getByRole("button", { name: "Fork from here" }).click();
    await expect(promptBox(page)).toHaveValue("second question");
    await expect(promptBox(page)).toBeFocused();
    for (const p of [page, other]) await expect(youSaid(p)).toHaveText(["first question"]);
    const forked = await piState(pi);
    expect(forked.sessionId).not.toBe(before.sessionId);
    expect(await userTexts(pi)).toEqual(["first question"]);
    // The other browser's prompt box is its own.
    await expect(promptBox(other)).toHaveValue("");

    await promptBox(page).fill("a different second question");
    await promptBox(page).press("Enter");
    await expect(youSaid(page)).toHaveText(["first question", "a different second question"]);
    await expect(agent(page)).toHaveAccessibleName("Agent: Idle");

    const sessions = await openPanel(page);
    await sessions.getByRole("button", { name: "Clone" }).click();
    await expect(sessions.getByRole("status")).toHaveText("Cloned: you are in the copy now.");
    const cloned = await piState(pi);
    expect(cloned.sessionId).not.toBe(forked.sessionId);
    expect(await userTexts(pi)).toEqual(["first question", "a different second question"]);
    await expect(sessions.getByRole("list", { name: "Saved sessions" }).getByRole("listitem")).toHaveCount(3);
  } finally {
    await other.context().close();
    await pi.close();
  }
});

test("a fork or clone of a named session is named as a copy, not after its source alike, in every browser and on pi", async ({ page, pier, browser }) => {
  const pi = await connectBrowser(pier);
  const other = await (await browser.newContext()).newPage();
  const nameButton = (p: Page, name: string) => p.getByRole("button", { name: `Session name: ${name}. Rename` });
  try {
    await page.goto(pier.url);
    await other.goto(await pier.freshUrl());
    await send(page, "first question");
    // Named after the first prompt: pi's session_info entry is on the branch a fork of a later message copies.
    await page.getByRole("button", { name: /^Unnamed session, first prompt/ }).click();
    await page.getByRole("textbox", { name: "Session name" }).fill("Greeter");
    await page.getByRole("textbox", { name: "Session name" }).press("Enter");
    await expect(nameButton(page, "Greeter")).toBeVisible();
    await send(page, "second question");

    const second = yourMessage(page, "second question");
    await second.hover();
    await second.getByRole("button", { name: "Fork from here" }).click();
    await expect(promptBox(page)).toHaveValue("second question");
    await expect.poll(async () => (await piState(pi)).sessionName).toBe("Greeter (fork)");
    for (const p of [page, other]) await expect(nameButton(p, "Greeter (fork)")).toBeVisible();

    const sessions = await openPanel(page);
    await sessions.getByRole("button", { name: "Clone" }).click();
    await expect(sessions.getByRole("status")).toHaveText("Cloned: you are in the copy now.");
    for (const p of [page, other]) await expect(nameButton(p, "Greeter (fork) (copy)")).toBeVisible();
    await expect.poll(async () => (await piState(pi)).sessionName).toBe("Greeter (fork) (copy)");
    // The saved sessions list tells the three apart.
    const titles = sessions.getByRole("list", { name: "Saved sessions" }).getByRole("listitem").locator(".title");
    await expect.poll(async () => (await titles.allTextContents()).sort()).toEqual(["Greeter", "Greeter (fork)", "Greeter (fork) (copy)"]);
  } finally {
    await other.context().close();
    await pi.close();
  }
});

test("an unnamed session's fork stays unnamed (listed by its first prompt)", async ({ page, pier }) => {
  const pi = await connectBrowser(pier);
  try {
    await page.goto(pier.url);
    await send(page, "first question");
    await send(page, "second question");
    const second = yourMessage(page, "second question");
    await second.hover();
    await second.getByRole("button", { name: "Fork from here" }).click();
    await expect(promptBox(page)).toHaveValue("second question");
    await expect(page.getByRole("button", { name: /^Unnamed session, first prompt “first question”/ })).toBeVisible();
    expect((await piState(pi)).sessionName ?? null).toBeNull();
  } finally {
    await pi.close();
  }
});

test("the session tree shows the branches, a label and the current entry; a user entry forks from there", async ({ page, pier }) => {
  await page.goto(pier.url);
  await send(page, "one");
  await send(page, "two");
  // The extension labels the first answer and moves pi back to it; the next prompt starts a second branch.
  await promptBox(page).fill("/probe-branch");
  await promptBox(page).press("Enter");
  await expect(page.getByText("branched")).toBeVisible();
  await send(page, "three");

  const sessions = await openPanel(page);
  await sessions.getByRole("tab", { name: "This session's tree" }).click();
  const tree = sessions.getByRole("tree", { name: "Session tree" });
  await expect(tree).toBeVisible();
  await expect(tree.getByRole("treeitem", { name: /You: three/ })).toBeVisible();
  await expect(tree.getByRole("treeitem", { name: /You: two/ })).toBeVisible();
  await expect(tree).toContainText("checkpoint");
  await expect(tree.locator('[aria-current="true"]')).toHaveCount(1);
  await expect(tree.locator('[aria-current="true"]')).toContainText("Noted.");

  await tree.getByRole("treeitem", { name: /You: two/ }).click();
  await sessions.getByRole("button", { name: "Fork from here" }).click();
  await expect(promptBox(page)).toHaveValue("two");
  await expect(youSaid(page)).toHaveText(["one"]);
});

test("Export HTML and Download JSONL download the session", async ({ page, pier }) => {
  await page.goto(pier.url);
  await send(page, "export me");
  const sessions = await openPanel(page);

  const [html] = await Promise.all([page.waitForEvent("download"), sessions.getByRole("button", { name: "Export HTML" }).click()]);
  expect(html.suggestedFilename()).toMatch(/\.html$/);
  expect(await readFile((await html.path())!, "utf8")).toMatch(/^<!DOCTYPE html>/i);
  await expect(sessions.getByRole("status")).toHaveText("Exported: the HTML file is downloading.");

  const [jsonl] = await Promise.all([page.waitForEvent("download"), sessions.getByRole("button", { name: "Download JSONL" }).click()]);
  expect(jsonl.suggestedFilename()).toMatch(/\.jsonl$/);
  const lines = (await readFile((await jsonl.path())!, "utf8")).trim().split("\n");
  expect(JSON.parse(lines[0]!)).toMatchObject({ type: "session" });
  expect(lines.some((line) => line.includes("export me"))).toBe(true);
});

test("the session's name shows in the header and the tab title and is edited in place", async ({ page, pier, browser }) => {
  const pi = await connectBrowser(pier);
  const other = await (await browser.newContext()).newPage();
  try {
    await page.goto(pier.url);
    await other.goto(await pier.freshUrl());
    await expect(page.getByRole("button", { name: "Unnamed session: name it" })).toHaveText("Unnamed session");
    // Unnamed, it goes by its first prompt (as in the saved sessions list), in every browser.
    await send(page, "tidy   the\n greeter ");
    for (const p of [page, other]) {
      await expect(p.getByRole("button", { name: "Unnamed session, first prompt “tidy the greeter”: name it" })).toHaveText("tidy the greeter");
      await expect(p).toHaveTitle(/^tidy the greeter · /);
    }
    await page.getByRole("button", { name: /^Unnamed session, first prompt/ }).click();
    await expect(page.getByRole("textbox", { name: "Session name" })).toHaveValue("");
    const input = page.getByRole("textbox", { name: "Session name" });
    await input.fill("Greeter refactor");
    await input.press("Enter");
    for (const p of [page, other]) {
      await expect(p.getByRole("button", { name: "Session name: Greeter refactor. Rename" })).toBeVisible();
      await expect(p).toHaveTitle(/^Greeter refactor · /);
    }
    expect((await piState(pi)).sessionName).toBe("Greeter refactor");

    // Esc cancels an edit (and does not reach pi).
    await page.getByRole("button", { name: /Session name: Greeter refactor/ }).click();
    await page.getByRole("textbox", { name: "Session name" }).fill("Something else");
    await page.getByRole("textbox", { name: "Session name" }).press("Escape");
    await expect(page.getByRole("button", { name: "Session name: Greeter refactor. Rename" })).toBeVisible();
    expect((await piState(pi)).sessionName).toBe("Greeter refactor");
  } finally {
    await other.context().close();
    await pi.close();
  }
});

test("opening another session while pi works asks first, then stops pi and switches", async ({ page, pier }) => {
  const pi = await connectBrowser(pier);
  try {
    await page.goto(pier.url);
    await send(page, "something quick");
    const first = await piState(pi);
    const sessions = await openPanel(page);
    await sessions.getByRole("button", { name: "New session" }).click();
    await expect(sessions.getByRole("status")).toHaveText("New session started.");
    await page.keyboard.press("Escape");
    await send(page, "take your time", false);
    await expect(conversation(page)).toContainText("Working on it slowly");
    await expect(agent(page)).toHaveAccessibleName("Agent: Working");

    await openPanel(page);
    await panel(page)
      .getByRole("list", { name: "Saved sessions" })
      .getByRole("button", { name: /^something quick/ })
      .click();
    const confirm = panel(page).getByRole("group", { name: "Stop pi first?" });
    await expect(confirm).toContainText("pi is working. Stop it and open “something quick”?");
    // Cancel changes nothing: pi keeps working.
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(agent(page)).toHaveAccessibleName("Agent: Working");

    await panel(page)
      .getByRole("list", { name: "Saved sessions" })
      .getByRole("button", { name: /^something quick/ })
      .click();
    await panel(page).getByRole("button", { name: "Stop pi and switch" }).click();
    await expect(panel(page).getByRole("status")).toHaveText("Switched.");
    await expect(youSaid(page)).toHaveText(["something quick"]);
    await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
    expect((await piState(pi)).sessionFile).toBe(first.sessionFile);
  } finally {
    await pi.close();
  }
});

test("an extension that refuses a switch or a fork: the browser says so and nothing is lost", async ({ page, pier }) => {
  const pi = await connectBrowser(pier);
  try {
    await page.goto(pier.url);
    await send(page, "keep me");
    const sessions = await openPanel(page);
    await sessions.getByRole("button", { name: "New session" }).click();
    await expect(sessions.getByRole("status")).toHaveText("New session started.");
    await page.keyboard.press("Escape");
    await send(page, "stay here");
    await promptBox(page).fill("/probe-guard on");
    await promptBox(page).press("Enter");
    await expect(page.getByText("guard on")).toBeVisible();
    const before = await piState(pi);

    await openPanel(page);
    await panel(page)
      .getByRole("list", { name: "Saved sessions" })
      .getByRole("button", { name: /^keep me/ })
      .click();
    await expect(panel(page).getByRole("status")).toHaveText("An extension cancelled the switch; you are still in this session.");
    await page.keyboard.press("Escape");
    await expect(youSaid(page)).toHaveText(["stay here"]);

    await promptBox(page).fill("half-typed thought");
    const message = yourMessage(page, "stay here");
    await message.hover();
    await message.getByRole("button", { name: "Fork from here" }).click();
    await expect(page.getByRole("status").filter({ hasText: "An extension cancelled the fork" })).toBeVisible();
    await expect(promptBox(page)).toHaveValue("half-typed thought");
    await expect(youSaid(page)).toHaveText(["stay here"]);
    expect((await piState(pi)).sessionId).toBe(before.sessionId);
  } finally {
    await pi.close();
  }
});

test("a session an extension switches to on its own is followed by every browser", async ({ page, pier, browser }) => {
  const pi = await connectBrowser(pier);
  const other = await (await browser.newContext()).newPage();
  try {
    await page.goto(pier.url);
    await other.goto(await pier.freshUrl());
    await send(page, "before the extension");
    const before = await piState(pi);
    await promptBox(page).fill("/probe-new-session");
    await promptBox(page).press("Enter");
    for (const p of [page, other]) {
      await expect(youSaid(p)).toHaveCount(0);
      await expect(conversation(p)).toContainText("What should pi work on?");
    }
    expect((await piState(pi)).sessionId).not.toBe(before.sessionId);
  } finally {
    await other.context().close();
    await pi.close();
  }
});

test("bad session files: an unreadable one is listed as such, one whose folder is gone cannot be opened and says why", async ({ page, pier }) => {
  const pi = await connectBrowser(pier);
  try {
    await page.goto(pier.url);
    await send(page, "a good one");
    const state = await piState(pi);
    const dir = pi.hello.sessions!.dir;
    await writeFile(join(dir, "2020-01-01T00-00-00-000Z_broken.jsonl"), "{ not json at all\n");
    const moved = (await readFile(state.sessionFile, "utf8")).replace(/"cwd":"[^"]*"/, '"cwd":"/no/such/folder/anymore"').replace(state.sessionId, "0000-gone");
    await writeFile(join(dir, "2020-01-02T00-00-00-000Z_gone.jsonl"), moved);

    const sessions = await openPanel(page);
    const list = sessions.getByRole("list", { name: "Saved sessions" });
    await expect(list.getByRole("listitem")).toHaveCount(3);
    await expect(list.getByRole("listitem").filter({ hasText: "Unreadable session file" })).toContainText(/session header|not a pi session/);
    const gone = list.getByRole("listitem").filter({ hasText: "folder gone" });
    await expect(gone).toHaveCount(1);
    await gone.getByRole("button", { name: /^a good one/ }).click();
    await expect(sessions.getByRole("alert")).toContainText("Not switched:");
    await expect(youSaid(page)).toHaveText(["a good one"]);
    expect((await piState(pi)).sessionFile).toBe(state.sessionFile);
  } finally {
    await pi.close();
  }
});

test("after pi crashes, Restart pi reopens the same session and the page catches up with only the new entries", async ({ page, pier }) => {
  const sent: string[] = [];
  page.on("websocket", (ws) => ws.on("framesent", (frame) => typeof frame.payload === "string" && sent.push(frame.payload)));
  await page.goto(pier.url);
  await send(page, "do not lose me");
  const probe = await connectBrowser(pier);
  const child = probe.hello.child;
  await probe.close();
  if (child.state !== "running") throw new Error("pi is not running");

  process.kill(child.pid, "SIGKILL");
  const banner = page.getByRole("alert", { name: "pi stopped" });
  await expect(banner).toBeVisible();
  const mark = sent.length;
  await banner.getByRole("button", { name: "Restart pi" }).click();
  await expect(banner).toBeHidden();
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  await expect(youSaid(page)).toHaveText(["do not lose me"]);
  await send(page, "still here?");
  await expect(youSaid(page)).toHaveText(["do not lose me", "still here?"]);

  const after = sent.slice(mark).map((raw) => JSON.parse(raw) as { type: string; since?: string; sessionFile?: string });
  expect(after[0]).toMatchObject({ type: "pier.restart_pi", sessionFile: expect.stringMatching(/\.jsonl$/) });
  // Caught up from its cursor: no full reload of the conversation.
  expect(after.find((c) => c.type === "get_entries")).toMatchObject({ since: expect.any(String) });
  expect(after.some((c) => c.type === "get_messages")).toBe(false);
});
