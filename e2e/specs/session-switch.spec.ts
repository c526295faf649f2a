// Switching the page between live sessions in place (issue #32 item 3): a
// card on the board, Back and Forward show another session without loading
// the page; the session left behind keeps its socket and its draft, keeps
// running while nobody watches it, and shows everything it did meanwhile the
// moment it is shown again. Real relay, two real pi children (the scripted
// model), real Chromium.
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";

// "Keep going…" streams a 40-line answer for about 4 s; other prompts get a short one.
test.use({ scenarioName: "long-session" });

const agentsButton = (page: Page) => page.getByRole("button", { name: /^Agents/ });
const boardPanel = (page: Page) => page.getByRole("dialog", { name: "Agents" });
const cards = (page: Page) => boardPanel(page).getByRole("list", { name: "Live sessions" }).getByRole("listitem");
const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const promptBox = (page: Page) => page.getByRole("textbox", { name: "Prompt" });

/** True while the page has not been loaded again since `markPage`. */
const samePage = (page: Page) => page.evaluate(() => (window as unknown as { __pierTestMark?: boolean }).__pierTestMark === true);

test("a card, Back and Forward switch sessions in place; the one left behind keeps its socket, its draft and its run", async ({ page, pier }) => {
  // Two pi children and a 4 s run on two shared cores.
  test.setTimeout(90_000);
  const sockets: string[] = [];
  page.on("websocket", (socket) => sockets.push(new URL(socket.url()).pathname));
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await page.evaluate(() => ((window as unknown as { __pierTestMark: boolean }).__pierTestMark = true));

  // A second agent, in a folder of its own.
  const folder = realpathSync(mkdtempSync(join(tmpdir(), "pier-switch-")));
  writeFileSync(join(folder, "NOTES.md"), "# second agent\n");
  await agentsButton(page).click();
  const panel = boardPanel(page);
  await panel.getByRole("textbox", { name: "New agent in folder" }).fill(folder);
  await panel.getByRole("button", { name: "Start" }).click();
  const second = cards(page).filter({ hasText: basename(folder) });
  await expect(second.getByRole("status")).toHaveText("Idle, waiting for a prompt", { timeout: 30_000 });
  const id = await second.getAttribute("data-card-id");
  expect(id).not.toBeNull();
  await page.keyboard.press("Escape");

  // Something typed to the first session, not sent.
  await promptBox(page).fill("a draft for the first agent");

  // The card shows the second session in this page: no load, its own (empty) transcript and prompt box.
  await agentsButton(page).click();
  await second.getByRole("link").first().click();
  await page.waitForURL(`**/live/${id}/`);
  await expect(boardPanel(page)).toHaveCount(0);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
  await expect(promptBox(page)).toHaveValue("");
  expect(await samePage(page)).toBe(true);

  await promptBox(page).fill("Keep going with the next step");
  await promptBox(page).press("Enter");
  await expect(conversation(page)).toContainText("Line 3 of the long streamed answer");

  // Back: the first session, with its draft, while the second one streams on unseen.
  await page.goBack();
  await page.waitForURL((url) => url.pathname === "/");
  await expect(promptBox(page)).toHaveValue("a draft for the first agent");
  // The tab's title is this session's again (a fresh session has none of its own: Pier's).
  await expect(page).toHaveTitle(/^(\(\d+\) )?Pier$/);
  await expect(conversation(page)).not.toContainText("long streamed answer");
  expect(await samePage(page)).toBe(true);
  await agentsButton(page).click();
  await expect(second.getByRole("status")).toHaveText(/^Done/, { timeout: 30_000 });
  await page.keyboard.press("Escape");

  // Forward: everything the second session did meanwhile is there at once, from what its socket kept receiving.
  const shownAfter = await page.evaluate(async () => {
    const started = performance.now();
    history.forward();
    const log = () => document.querySelector('[role="log"][aria-label="Conversation"]');
    while (!(log()?.textContent ?? "").includes("End of the long answer.")) {
      if (performance.now() - started > 10_000) return -1;
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    return performance.now() - started;
  });
  expect(shownAfter).toBeGreaterThanOrEqual(0);
  test.info().annotations.push({ type: "switch", description: `the answer was on screen ${Math.round(shownAfter)} ms after Forward` });
  await expect(page).toHaveURL(new RegExp(`/live/${id}/$`));
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
  await expect(page).toHaveTitle("Keep going with the next step · Pier");
  expect(await samePage(page)).toBe(true);
  await page.screenshot({ path: test.info().outputPath("switched-back-1440x900.png") });

  // One socket per session for the whole visit (the board's aside): none was opened again by a switch.
  const pierSockets = sockets.filter((path) => path.endsWith("/ws"));
  expect(pierSockets.sort()).toEqual(["/ws", `/live/${id}/ws`].sort());
  expect(errors).toEqual([]);
});
