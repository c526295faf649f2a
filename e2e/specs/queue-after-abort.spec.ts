// Messages queued during a run, then the run aborted (Esc). pi keeps them and
// sends nothing until the next prompt (web/test/queue-after-abort.contract.test.ts
// proves it on 0.87.1 and 1.6.0). The page says so — it once said "Abort keeps
// these; they still run after it" while nothing ran — and offers what can be
// done with them: Send now, Edit (back into the prompt box), Discard. Each is
// checked against pi itself (its records and get_state over a second connection).
import type { Page } from "@playwright/test";
import { commandId, connectBrowser, type Browser, type PiRecord } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";

test.use({ scenarioName: "controls" });

const prompt = (page: Page) => page.getByRole("textbox", { name: "Prompt" });
const agent = (page: Page) => page.getByRole("status", { name: /^Agent:/ });
const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const queuePanel = (page: Page) => page.getByRole("region", { name: "Queue" });
const queueList = (page: Page) => page.getByRole("list", { name: "Queued messages" });

async function pendingInPi(pi: Browser): Promise<number> {
  const id = commandId("queue");
  pi.send({ id, type: "get_state" });
  const response: PiRecord = await pi.waitForRecord((r) => r.type === "response" && r.id === id);
  expect(response.success).toBe(true);
  return response.data.pendingMessageCount as number;
}

const runsStarted = (pi: Browser) => pi.records.filter((r) => r.type === "agent_start").length;

/**
 * A slow answer, a follow-up and a steer queued during it, then Esc. Returns
 * how many runs pi had started by then. `screenshot`: where to save the queue while pi works.
 */
async function queueThenAbort(page: Page, pi: Browser, screenshot?: string): Promise<number> {
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await prompt(page).fill("Take your time");
  await prompt(page).press("Enter");
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("slowly");

  await prompt(page).fill("First queued follow-up");
  await page.getByRole("button", { name: "Follow-up" }).click();
  await prompt(page).fill("A steering note");
  await page.getByRole("button", { name: "Steer" }).click();
  await expect(queueList(page)).toContainText("First queued follow-up");
  await expect(queueList(page)).toContainText("A steering note");
  // While pi works, the page says what an abort would do to them (not that they run after it).
  await expect(queuePanel(page)).toContainText("2 queued");
  await expect(queuePanel(page)).toContainText("If you abort, these are not sent: they wait for your next prompt.");
  await expect(queuePanel(page)).not.toContainText("still run after");
  await expect(page.getByRole("button", { name: "Abort" })).toHaveAttribute("title", /wait for your next prompt/);
  if (screenshot !== undefined) await page.screenshot({ path: screenshot });

  await prompt(page).press("Escape");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  return runsStarted(pi);
}

test.describe("queued messages after an abort", () => {
  let pi: Browser;
  test.beforeEach(async ({ pier, page }) => {
    pi = await connectBrowser(pier);
    await page.goto(pier.url);
  });
  test.afterEach(async () => {
    await pi.close();
  });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${viewport.width}×${viewport.height}: they wait, the page says so, and Send now runs them in order`, async ({ page }, testInfo) => {
      await page.setViewportSize(viewport);
      const runs = await queueThenAbort(page, pi, testInfo.outputPath(`queue-queued-${viewport.width}x${viewport.height}.png`));

      // pi sends nothing by itself: the page says they wait, and offers Send now.
      await expect(queuePanel(page)).toContainText("2 waiting");
      await expect(queuePanel(page)).toContainText("Not sent: pi stopped before them. They go with your next prompt.");
      await page.waitForTimeout(1_500);
      expect(runsStarted(pi)).toBe(runs);
      expect(await pendingInPi(pi)).toBe(2);
      await expect(conversation(page).getByRole("article", { name: "You" })).toHaveCount(1);
      for (const name of ["Send now", "Edit", "Discard"]) await expect(queuePanel(page).getByRole("button", { name })).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: testInfo.outputPath(`queue-waiting-${viewport.width}x${viewport.height}.png`) });

      await queuePanel(page).getByRole("button", { name: "Send now" }).click();
      // One run: the steer as its prompt, the follow-up delivered at its end; nothing left waiting.
      await expect(queueList(page)).toHaveCount(0);
      const you = conversation(page).getByRole("article", { name: "You" });
      await expect(you).toHaveCount(3);
      await expect(you.nth(1)).toContainText("A steering note");
      await expect(you.nth(2)).toContainText("First queued follow-up");
      await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
      await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("A short scripted answer.");
      expect(runsStarted(pi)).toBe(runs + 1);
      expect(await pendingInPi(pi)).toBe(0);
    });
  }

  test("Edit puts what waited into the prompt box, before what was being typed, and empties pi's queue", async ({ page }) => {
    const runs = await queueThenAbort(page, pi);
    await prompt(page).fill("half typed");
    await queuePanel(page).getByRole("button", { name: "Edit" }).click();
    await expect(queueList(page)).toHaveCount(0);
    await expect(prompt(page)).toHaveValue("A steering note\n\nFirst queued follow-up\n\nhalf typed");
    expect(await pendingInPi(pi)).toBe(0);
    expect(runsStarted(pi)).toBe(runs);
  });

  test("Discard drops what waited: the next prompt runs alone", async ({ page }) => {
    await queueThenAbort(page, pi);
    await queuePanel(page).getByRole("button", { name: "Discard" }).click();
    await expect(queueList(page)).toHaveCount(0);
    await expect(prompt(page)).toHaveValue("");
    expect(await pendingInPi(pi)).toBe(0);

    await prompt(page).fill("Just this");
    await prompt(page).press("Enter");
    await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("A short scripted answer.");
    await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
    const you = conversation(page).getByRole("article", { name: "You" });
    await expect(you).toHaveCount(2);
    await expect(you.nth(1)).toContainText("Just this");
  });
});
