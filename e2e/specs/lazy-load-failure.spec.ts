// A part of the page fetched when first needed (here the keyboard shortcuts
// list) that cannot be fetched: pier was updated or restarted since the page
// opened, or the connection dropped. The page says so in an alert, instead
// of an action that seems to do nothing, and a reload brings it back.
import type { Page } from "@playwright/test";
import { blockUrls } from "../support/block-urls.ts";
import { expect, test } from "../support/pier.ts";

const SHORTCUTS_CHUNK = "*/assets/ShortcutsList-*.js";
const shortcutsDialog = (page: Page) => page.getByRole("dialog", { name: "Keyboard shortcuts" });
const failureAlert = (page: Page) => page.getByRole("alert").filter({ hasText: "Part of Pier did not load" });

async function openShortcuts(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("F1");
  await expect(shortcutsDialog(page)).toBeVisible();
}

test("a part of the page that cannot be fetched says so and what to do; after a reload it loads", async ({ page, pier }, testInfo) => {
  const block = await blockUrls(page, [SHORTCUTS_CHUNK]);
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await openShortcuts(page);
  await expect(failureAlert(page)).toContainText(/ShortcutsList-[\w-]+\.js could not be fetched from pier/);
  await expect(failureAlert(page)).toContainText("Reload the page to get it.");
  await page.screenshot({ path: testInfo.outputPath("lazy-load-failure.png") });
  await expect(shortcutsDialog(page).locator("[data-shortcut]")).toHaveCount(0);
  // A second try has the same cause: still one alert.
  await page.keyboard.press("Escape");
  await openShortcuts(page);
  await expect(page.getByRole("alert")).toHaveCount(1);

  await block([]);
  await page.reload();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await openShortcuts(page);
  await expect(shortcutsDialog(page).locator('[data-shortcut="shortcuts"]')).toContainText("F1");
  await expect(failureAlert(page)).toHaveCount(0);
});
