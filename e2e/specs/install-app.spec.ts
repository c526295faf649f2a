// Pier is installable as an app: Chromium finds its web manifest (icons
// included) with no installability error, its service worker controls the
// page, and when pier cannot be reached the app's window still opens its
// shell (saying it cannot connect) instead of the browser's error page.
import { expect, test } from "../support/pier.ts";

test("the page is an installable app whose shell opens while pier is away", async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const worker = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? null);
  expect(worker).toBe(`${pier.origin}/sw.js`);

  const cdp = await page.context().newCDPSession(page);
  const manifest = (await cdp.send("Page.getAppManifest")) as { url: string; errors: unknown[]; data?: string };
  expect(manifest.errors).toEqual([]);
  expect(JSON.parse(manifest.data!)).toMatchObject({ short_name: "Pier", display: "standalone", start_url: "/" });
  const installability = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] };
  // Playwright's contexts are incognito ones, where Chromium installs nothing: that is the only reason allowed.
  expect(installability.installabilityErrors.map((e) => e.errorId).filter((id) => id !== "in-incognito")).toEqual([]);

  // A reload controlled by the worker keeps the shell; then pier goes away and the shell still opens.
  await page.reload();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await pier.stop();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Pier", level: 1 })).toBeVisible();
  await expect(page.getByRole("status", { name: /^Connection: (Reconnecting|Connecting)/ })).toBeVisible();
});
