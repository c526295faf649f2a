// Notifications from extensions: those sent as pi starts (session_start),
// which reach a page only through the relay's replay, pop up like live ones
// (a notify and an extension_error alike), once per browser; and every
// notification stays in the bell's history after its toast is gone. Real
// relay, real pi with the test extension e2e/extensions/start-notices.ts.
import type { Page } from "@playwright/test";
import { connectBrowser, type RunningPier } from "../../relay/test/support/pier-process.ts";
import { extension, expect, test } from "../support/pier.ts";
import { openViewer, revokeViewerLink } from "../support/viewer-link.ts";

test.use({ piArgs: ["-e", extension("start-notices.ts")] });

const START_NOTICE = "Hello from session_start: the probe is ready";
const START_ERROR = "the start probe failed on purpose";

const toasts = (page: Page) => page.getByRole("region", { name: "Extension notifications" });
const bell = (page: Page) => page.getByRole("button", { name: /^Notifications/ });
const history = (page: Page) => page.getByRole("dialog", { name: "Notifications" }).getByRole("list", { name: "Notification history" });

/** pi has started and said its piece before any page connects: a page hears it only in the replay. */
async function waitForStartNotices(pier: RunningPier): Promise<void> {
  const wire = await connectBrowser(pier);
  try {
    await wire.waitForRecord((r) => (r as { type?: string }).type === "extension_error", 30_000);
  } finally {
    await wire.close();
  }
}

async function openPage(page: Page, pier: RunningPier): Promise<void> {
  await waitForStartNotices(pier);
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
}

test("what an extension says as pi starts reaches the first page: a toast each for the notify and the error, and both in the bell", async ({ page, pier }) => {
  await openPage(page, pier);
  await expect(toasts(page).getByRole("status").filter({ hasText: START_NOTICE })).toBeVisible();
  const error = toasts(page).getByRole("alert").filter({ hasText: START_ERROR });
  await expect(error).toBeVisible();
  await expect(error).toContainText("Extension error · session_start");

  await expect(bell(page)).toHaveAccessibleName("Notifications: 2 unread");
  await bell(page).click();
  await expect(history(page).getByRole("listitem")).toHaveCount(2);
  await expect(history(page).getByRole("listitem").nth(0)).toContainText(START_ERROR);
  await expect(history(page).getByRole("listitem").nth(1)).toContainText(START_NOTICE);
  await expect(history(page).getByRole("listitem").first()).toContainText("Sent before this page connected");
  // Opened: read.
  await expect(bell(page)).toHaveAccessibleName("Notifications");
});

test("after a reload the start-up notifications stay in the bell, read, and do not pop up again", async ({ page, pier }) => {
  await openPage(page, pier);
  await expect(toasts(page).getByText(START_NOTICE)).toBeVisible();
  await expect(toasts(page).getByText(START_ERROR)).toBeVisible();

  await page.reload();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await bell(page).click();
  await expect(history(page).getByRole("listitem")).toHaveCount(2);
  await expect(toasts(page).getByText(START_NOTICE)).toHaveCount(0);
  await expect(toasts(page).getByText(START_ERROR)).toHaveCount(0);
});

test("more notifications than fit as toasts: four on screen, all of them in the bell, newest first", async ({ page, pier }) => {
  await openPage(page, pier);
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("/notice-many");
  await prompt.press("Enter");
  await expect(toasts(page).getByText("Batch notice 6 of 6")).toBeVisible();
  await expect(toasts(page).getByText(/^Batch notice/)).toHaveCount(4);

  await expect(bell(page)).toHaveAccessibleName("Notifications: 8 unread");
  await bell(page).click();
  const items = history(page).getByRole("listitem");
  await expect(items).toHaveCount(8);
  await expect(items.nth(0)).toContainText("Batch notice 6 of 6");
  await expect(items.nth(5)).toContainText("Batch notice 1 of 6");
  await page.getByRole("dialog", { name: "Notifications" }).getByRole("button", { name: "Clear" }).click();
  await expect(items).toHaveCount(0);
});

test("a viewer gets the start-up notifications too, in its own bell; a revoked link's page keeps what it had and learns nothing new", async ({ page, pier, browser }) => {
  await openPage(page, pier);
  const viewer = await openViewer(page, browser);
  await expect(toasts(viewer).getByText(START_NOTICE)).toBeVisible();
  await expect(bell(viewer)).toHaveAccessibleName("Notifications: 2 unread");
  await bell(viewer).click();
  await expect(history(viewer).getByRole("listitem")).toHaveCount(2);
  await viewer.keyboard.press("Escape");

  await revokeViewerLink(page, viewer);
  // Sent after the revocation: the driver hears it, the revoked page does not.
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("/notice-many");
  await prompt.press("Enter");
  await expect(toasts(page).getByText("Batch notice 6 of 6")).toBeVisible();
  await bell(viewer).click();
  await expect(history(viewer).getByRole("listitem")).toHaveCount(2);
  await expect(history(viewer)).not.toContainText("Batch notice");
});

for (const size of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`the bell and its list at ${size.width}×${size.height}: on screen, drawn whole (screenshots)`, async ({ page, pier }, testInfo) => {
    await page.setViewportSize(size);
    await openPage(page, pier);
    const prompt = page.getByRole("textbox", { name: "Prompt" });
    await prompt.fill("/notice-many");
    await prompt.press("Enter");
    await expect(bell(page)).toHaveAccessibleName("Notifications: 8 unread");
    await expect(bell(page)).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: testInfo.outputPath(`bell-${size.width}x${size.height}.png`) });

    await bell(page).click();
    const list = page.getByRole("dialog", { name: "Notifications" });
    await expect(history(page).getByRole("listitem")).toHaveCount(8);
    // The panel fits the screen (it scrolls inside when the history is long).
    const box = (await list.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(size.width + 0.5);
    expect(box.y + box.height).toBeLessThanOrEqual(size.height + 0.5);
    await page.screenshot({ path: testInfo.outputPath(`bell-list-${size.width}x${size.height}.png`) });
  });
}
