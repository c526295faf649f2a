// Status entries extensions set (ctx.ui.setStatus) are readable in full on
// every screen size: a chip in the header (first entry and a count) opens a
// list of every entry, whole. Before, they were inline chips cut to a few
// letters on a busy desktop header and hidden under 760 px with nothing
// instead. Real relay, real pi with e2e/extensions/busy-status.ts.
import type { Page } from "@playwright/test";
import { extension, expect, test } from "../support/pier.ts";

test.use({ piArgs: ["-e", extension("busy-status.ts")] });

// The same four entries as the extension sets (kept here: a spec does not import pi's extension API).
const STATUSES: Record<string, string> = {
  "build-watch": "Build watcher: 3 files changed since the last green build of the web package",
  "git-sync": "Git: 2 commits ahead of origin/main, 1 behind, working tree has uncommitted changes",
  "test-runner": "Tests: 412 passed, 3 skipped, 0 failed in the last run (unit and contract projects)",
  "token-budget": "Budget: 61% of today's token allowance used across all sessions on this machine",
};

const chip = (page: Page) => page.getByRole("button", { name: /^Extension status/ });
const entries = (page: Page) => page.getByRole("dialog", { name: "Extension status" }).getByRole("list", { name: "Extension status entries" });

/** Every entry is in the list, visible and not cut (its text fits its box). */
async function expectEveryStatusReadable(page: Page): Promise<void> {
  const items = entries(page).getByRole("listitem");
  await expect(items).toHaveCount(Object.keys(STATUSES).length);
  for (const [key, text] of Object.entries(STATUSES)) {
    const item = items.filter({ hasText: key });
    await expect(item).toBeVisible();
    const textBox = item.getByText(text, { exact: true });
    await expect(textBox).toBeVisible();
    await textBox.scrollIntoViewIfNeeded();
    const cut = await textBox.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    expect(cut, `${key} is cut`).toBe(false);
    // Inside the screen, not off its edge.
    const box = await textBox.boundingBox();
    const viewport = page.viewportSize()!;
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width + 1);
  }
}

for (const [size, viewport] of [
  ["a busy desktop header", { width: 1440, height: 900 }],
  ["a phone", { width: 390, height: 844 }],
] as const) {
  test(`on ${size} (${viewport.width}×${viewport.height}) every status entry can be read in full`, async ({ page, pier }, testInfo) => {
    await page.setViewportSize(viewport);
    await page.goto(pier.url);
    await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();

    await expect(chip(page)).toBeVisible();
    await expect(chip(page)).toHaveAccessibleName(/^Extension status: 4 entries; first: /);
    // The chip is inside the screen, next to the panel buttons that must stay reachable.
    const chipBox = (await chip(page).boundingBox())!;
    expect(chipBox.x + chipBox.width).toBeLessThanOrEqual(viewport.width);
    await expect(page.getByRole("button", { name: "Protocol inspector" })).toBeInViewport();
    await page.locator("header").screenshot({ path: testInfo.outputPath(`header-${viewport.width}.png`) });

    await chip(page).click();
    await expectEveryStatusReadable(page);
    await page.screenshot({ path: testInfo.outputPath(`status-popover-${viewport.width}.png`) });

    // Esc closes the list and gives the keyboard back to the chip.
    await page.keyboard.press("Escape");
    await expect(entries(page)).toHaveCount(0);
    await expect(chip(page)).toBeFocused();
  });
}

test("an entry the extension clears leaves the list; the count follows", async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(chip(page)).toHaveAccessibleName(/^Extension status: 4 entries; first: /);
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("/status-clear git-sync");
  await prompt.press("Enter");
  await expect(chip(page)).toHaveAccessibleName(/^Extension status: 3 entries; first: /);
  await chip(page).click();
  await expect(entries(page).getByRole("listitem")).toHaveCount(3);
  await expect(entries(page)).not.toContainText("git-sync");
});
