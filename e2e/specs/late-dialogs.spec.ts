// A page that joins late (another tab, a reload) shows only the dialogs pi
// still waits for, as the relay knows them: one someone answered is not
// offered again, and one still waiting counts down from when pi asked, not
// from the reload. Real pier, real pi with the ui-probe extension, Chromium.
import type { Browser, Page } from "@playwright/test";
import { expect, extension, test } from "../support/pier.ts";
import type { RunningPier } from "../../relay/test/support/pier-process.ts";

test.use({ piArgs: ["-e", extension("ui-probe.ts")] });

const connected = (page: Page) => page.getByRole("status", { name: "Connection: Connected" });
const earlierList = (page: Page) => page.getByText(/from before this page connected|asked before this page connected/);

async function anotherDriver(browser: Browser, pier: RunningPier): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(await pier.freshUrl());
  await expect(connected(page)).toBeVisible();
  return page;
}

test("a late page offers only what still waits, counting down from pi's clock", async ({ page, browser, pier }) => {
  test.setTimeout(120_000);
  await page.goto(pier.url);
  await expect(connected(page)).toBeVisible();
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("/probe-countdown");
  await prompt.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Allow `rm -rf build/`?" });
  await expect(dialog).toBeVisible();
  await page.waitForTimeout(6_000);

  // Still waiting: the late page shows it as a dialog to answer, with what is left of pi's 30 s.
  const late = await anotherDriver(browser, pier);
  const lateDialog = late.getByRole("dialog", { name: "Allow `rm -rf build/`?" });
  await expect(lateDialog).toBeVisible();
  const label = await lateDialog.getByRole("timer").getAttribute("aria-label");
  const seconds = Number(/Closes in (\d+) seconds/.exec(label ?? "")?.[1]);
  expect(seconds).toBeLessThanOrEqual(25);
  expect(seconds).toBeGreaterThan(5);

  // Answered in the first page: a page that joins now is not offered it, not even as "asked before".
  await dialog.getByRole("button", { name: "Yes" }).click();
  await expect(late.getByLabel("Extension notifications").getByText("countdown → true", { exact: true })).toBeVisible();
  const later = await anotherDriver(browser, pier);
  await expect(later.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
  await later.waitForTimeout(1_000);
  await expect(later.getByRole("dialog", { name: "Allow `rm -rf build/`?" })).toHaveCount(0);
  await expect(earlierList(later)).toHaveCount(0);
});
