// The board and the inbox in the page (issue #32 items 4 and 6): a second
// agent started from the board, prompted from its card (working → done), its
// confirm dialog answered from the card, the count in the tab title, the
// keys, a viewer's cards without buttons, a desktop notification while the
// page is hidden, at 1440×900 and 390×844. Real relay, real pi children (the
// scripted model), real Chromium. In the notification test only, an init
// script wraps the page's Notification constructor (to see that one was made)
// and gives the page a switch to be hidden (headless Chromium never hides one).
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { connectBrowser, type RunningPier } from "../../relay/test/support/pier-process.ts";
import { extension, expect, test } from "../support/pier.ts";
import { openViewer } from "../support/viewer-link.ts";

test.use({ piArgs: ["-e", extension("ui-probe.ts")] });

/** A second workspace: a git repository on branch feature-x, in a temp dir. */
function secondFolder(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pier-board-")));
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=T", ...args], { cwd: dir, stdio: "pipe" });
  git("init", "-q", "-b", "feature-x");
  writeFileSync(join(dir, "README.md"), "# second workspace\n");
  git("add", ".");
  git("commit", "-qm", "first");
  return dir;
}

const agentsButton = (page: Page) => page.getByRole("button", { name: /^Agents/ });
const boardPanel = (page: Page) => page.getByRole("dialog", { name: "Agents" });
const cards = (page: Page) => boardPanel(page).getByRole("list", { name: "Live sessions" }).getByRole("listitem");

async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
}

async function openBoard(page: Page): Promise<void> {
  await agentsButton(page).click();
  await expect(boardPanel(page)).toBeVisible();
  await expect(cards(page).first()).toBeVisible();
}

/** Starts an agent in `folder` from the board; answers its card. */
async function startAgent(page: Page, folder: string): Promise<Locator> {
  const panel = boardPanel(page);
  await panel.getByRole("textbox", { name: "New agent in folder" }).fill(folder);
  await panel.getByRole("button", { name: "Start" }).click();
  const card = cards(page).filter({ has: page.getByText(`${basename(folder)} (feature-x)`) });
  await expect(card).toHaveCount(1);
  await expect(card.getByRole("status")).toHaveText("Idle, waiting for a prompt", { timeout: 30_000 });
  return card;
}

/** Every state chip text a card showed from now on (a MutationObserver in the page: a short run is quicker than polling). */
async function recordStates(page: Page, cardId: string): Promise<() => Promise<string[]>> {
  await page.evaluate((id) => {
    const seen: string[] = [];
    (window as unknown as { __states: string[] }).__states = seen;
    const note = () => {
      const chip = document.querySelector(`[data-card-id="${id}"] .chip`)?.textContent ?? "";
      if (chip !== "" && seen.at(-1) !== chip) seen.push(chip);
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, cardId);
  return () => page.evaluate(() => (window as unknown as { __states: string[] }).__states);
}

async function cardId(card: Locator): Promise<string> {
  const id = await card.getAttribute("data-card-id");
  if (id === null) throw new Error("the card has no id");
  return id;
}

test("a second agent started from the board, prompted from its card (working → done), its confirm answered from the card; the count in the title; the keys", async ({ page, pier }) => {
  // Two pi children, two runs and a navigation on two shared cores.
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPage(page, pier.url);
  await expect(agentsButton(page)).toHaveAccessibleName("Agents");
  await page.keyboard.press("Alt+KeyA");
  await expect(boardPanel(page)).toBeVisible();
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText("This page");

  // Not a folder: the relay's sentence, and no card.
  const panel = boardPanel(page);
  await panel.getByRole("textbox", { name: "New agent in folder" }).fill("/no/such/folder/for/pier");
  await panel.getByRole("button", { name: "Start" }).click();
  await expect(panel.getByRole("alert")).toHaveText("/no/such/folder/for/pier does not exist");
  await expect(cards(page)).toHaveCount(1);

  const folder = secondFolder();
  const card = await startAgent(page, folder);
  const id = await cardId(card);
  expect(id).not.toBe("1");
  await expect(card).not.toContainText("This page");
  await expect(card.getByRole("link", { name: "New agent" })).toHaveAttribute("href", `/live/${id}/`);

  const states = await recordStates(page, id);
  await card.getByRole("textbox", { name: "Prompt New agent" }).fill("hello from the board");
  await card.getByRole("button", { name: "Send" }).click();
  await expect(card.getByRole("status")).toHaveText(/^Done \d+ s ago$/, { timeout: 30_000 });
  expect(await states()).toEqual(["idle", "working", "done"]);
  await expect(card.getByRole("link", { name: "hello from the board" })).toBeVisible();
  await expect(card).toContainText("pier-demo");
  // Done, and not the session this page shows: in the inbox and the tab title.
  await expect(page).toHaveTitle(/^\(1\) /);
  const inbox = panel.getByRole("region", { name: "Inbox" });
  await expect(inbox.getByRole("listitem")).toHaveText([/^Done\s*hello from the board/]);
  await inbox.getByRole("button", { name: "Seen", exact: true }).click();
  await expect(inbox).toHaveCount(0);
  await expect(page).not.toHaveTitle(/^\(\d+\) /);

  // A confirm from pi, answered on the card; pi takes the answer.
  const wire = await connectBrowser(pier, { path: `/live/${id}/ws` });
  await card.getByRole("textbox", { name: "Prompt hello from the board" }).fill("/probe-confirm");
  await card.getByRole("button", { name: "Send" }).click();
  const question = card.getByRole("group", { name: `Question from ${basename(folder)} (feature-x)` });
  await expect(question).toContainText("Delete the scratch file?");
  await expect(agentsButton(page)).toHaveAccessibleName("Agents: 1 needs you");
  await expect(page).toHaveTitle(/^\(1\) /);
  await expect(inbox.getByRole("listitem")).toHaveText([/^Needs you\s*Delete the scratch file\?/]);
  await page.screenshot({ path: test.info().outputPath("board-question-1440x900.png") });
  await question.getByRole("button", { name: "Yes" }).click();
  await wire.waitForRecord((r) => r.type === "extension_ui_request" && r.method === "notify" && r.message === "confirm → true");
  await wire.close();
  await expect(question).toHaveCount(0);
  await expect(agentsButton(page)).toHaveAccessibleName("Agents");

  // Alt+N with nobody waiting does nothing; with the agent waiting again, it goes there.
  await page.keyboard.press("Escape");
  await expect(boardPanel(page)).toHaveCount(0);
  // The keyboard is back on the button that opens the board, not lost on the page.
  await expect(agentsButton(page)).toBeFocused();
  await openBoard(page);
  await card.getByRole("textbox", { name: /^Prompt / }).fill("/probe-confirm");
  await card.getByRole("button", { name: "Send" }).click();
  await expect(agentsButton(page)).toHaveAccessibleName("Agents: 1 needs you");
  await page.keyboard.press("Escape");
  await page.keyboard.press("Alt+KeyN");
  await page.waitForURL(`**/live/${id}/`);
  // The other page's board knows the session it shows.
  await openBoard(page);
  await expect(cards(page).filter({ hasText: "This page" })).toHaveAttribute("data-card-id", id);
});

test("a viewer sees every card it may, without buttons; the board's text only", async ({ page, pier, browser }) => {
  await openPage(page, pier.url);
  // The driver's header at the default 1280×720, Agents beside the bell (to look at).
  await expect(agentsButton(page)).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: test.info().outputPath("header-1280x720.png") });
  const viewer = await openViewer(page, browser);
  await openBoard(viewer);
  // A viewer link made from a session's page reaches that session only: its card.
  await expect(cards(viewer)).toHaveCount(1);
  await expect(cards(viewer).first()).toContainText("This page");
  await expect(cards(viewer).getByRole("button")).toHaveCount(0);
  await expect(cards(viewer).getByRole("textbox")).toHaveCount(0);
  await expect(boardPanel(viewer).getByRole("textbox", { name: "New agent in folder" })).toHaveCount(0);
});

test("a desktop notification when an agent needs you while the page is hidden, and none while it is visible", async ({ page, pier, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["notifications"]);
  // Wrap the real constructor: every notification made is noted, and still made.
  await context.addInitScript(() => {
    const Real = window.Notification;
    const made: { title: string; body: string; hidden: boolean }[] = [];
    (window as unknown as { __notices: typeof made }).__notices = made;
    (window as unknown as { __noticeObjects: Notification[] }).__noticeObjects = [];
    class Noted extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        made.push({ title, body: options?.body ?? "", hidden: document.visibilityState === "hidden" });
        (window as unknown as { __noticeObjects: Notification[] }).__noticeObjects.push(this);
      }
    }
    window.Notification = Noted as typeof Notification;
    // Headless Chromium shows every page: a switch to make this one hidden, as a background tab is.
    let hidden = false;
    Object.defineProperty(Document.prototype, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
    Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => hidden });
    (window as unknown as { __setHidden: (value: boolean) => void }).__setHidden = (value) => {
      hidden = value;
      document.dispatchEvent(new Event("visibilitychange"));
    };
  });
  await openPage(page, pier.url);
  await openBoard(page);
  await boardPanel(page).getByRole("button", { name: "Notify me" }).click();
  await expect(boardPanel(page).getByRole("button", { name: "Notifications on" })).toBeVisible();
  const folder = secondFolder();
  const card = await startAgent(page, folder);
  const id = await cardId(card);
  const notices = () => page.evaluate(() => (window as unknown as { __notices: { title: string; body: string; hidden: boolean }[] }).__notices);

  // Visible: the board changes on screen, no notification.
  await card.getByRole("textbox", { name: "Prompt New agent" }).fill("first");
  await card.getByRole("button", { name: "Send" }).click();
  await expect(card.getByRole("status")).toHaveText(/^Done/, { timeout: 30_000 });
  expect(await notices()).toEqual([]);

  // Hidden, as a tab in the background is (headless Chromium never hides a page: the init script's switch does).
  await page.evaluate(() => (window as unknown as { __setHidden: (hidden: boolean) => void }).__setHidden(true));
  expect(await page.evaluate(() => document.visibilityState)).toBe("hidden");
  const driver = await connectBrowser(pier, { path: `/live/${id}/ws` });
  driver.send({ type: "prompt", message: "/probe-confirm", id: "board-e2e:1" });
  await expect.poll(notices, { timeout: 20_000 }).toEqual([{ title: "An agent needs you: Delete the scratch file?", body: `first · ${basename(folder)} (feature-x)`, hidden: true }]);
  await driver.close();
  // Clicked (as the system would): the page opens that session.
  await page.evaluate(() => (window as unknown as { __noticeObjects: Notification[] }).__noticeObjects[0]!.onclick?.(new Event("click")));
  await page.waitForURL(`**/live/${id}/`);
});

for (const size of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`the board at ${size.width}×${size.height}: on screen, a question answered from it (screenshots)`, async ({ page, pier }, testInfo) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    await openPage(page, pier.url);
    await expect(agentsButton(page)).toBeInViewport({ ratio: 1 });
    await openBoard(page);
    const card = await startAgent(page, secondFolder());
    await card.getByRole("textbox", { name: "Prompt New agent" }).fill("/probe-confirm");
    await card.getByRole("button", { name: "Send" }).click();
    const question = card.getByRole("group", { name: /^Question from / });
    await expect(question).toBeVisible();
    const sheet = await boardPanel(page).boundingBox();
    expect(sheet).not.toBeNull();
    if (size.width < 600) expect(sheet).toMatchObject({ x: 0, y: 0, width: size.width, height: size.height });
    else expect(sheet!.x + sheet!.width).toBeLessThanOrEqual(size.width);
    await question.getByRole("button", { name: "Yes" }).scrollIntoViewIfNeeded();
    await expect(question.getByRole("button", { name: "Yes" })).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: testInfo.outputPath(`board-${size.width}x${size.height}.png`) });
    // Closed: the header's button says how many wait, whole and on screen.
    await page.keyboard.press("Escape");
    await expect(agentsButton(page)).toHaveAccessibleName("Agents: 1 needs you");
    await expect(agentsButton(page)).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: testInfo.outputPath(`board-header-${size.width}x${size.height}.png`) });
    await openBoard(page);
    await question.getByRole("button", { name: "Yes" }).click();
    await expect(question).toHaveCount(0);
    // The command asked outside a run: answered, the agent is idle again.
    await expect(card.getByRole("status")).toHaveText("Idle, waiting for a prompt");
    await page.screenshot({ path: testInfo.outputPath(`board-answered-${size.width}x${size.height}.png`) });
  });
}
