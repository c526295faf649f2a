// A second person on a driver's viewer link, and the revocation of that link,
// for specs that check a surface from the viewer's side too.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect } from "./pier.ts";

/** The driver makes a viewer link in the Share dialog and a fresh browser opens it; the Share dialog is closed again. `prepare`: runs on the fresh browser before it opens the link (e.g. to slow one of its requests). */
export async function openViewer(driver: Page, browser: Browser, prepare?: (context: BrowserContext) => Promise<unknown>): Promise<Page> {
  await driver.getByRole("button", { name: "Share", exact: true }).click();
  const share = driver.getByRole("dialog", { name: "Share" });
  await share.getByRole("button", { name: "Create viewer link" }).click();
  const link = await share.getByRole("textbox", { name: "Link address" }).inputValue();
  await share.getByRole("button", { name: "Close" }).click();
  const context = await browser.newContext();
  await prepare?.(context);
  const viewer = await context.newPage();
  await viewer.goto(link);
  await expect(viewer.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  return viewer;
}

/** The driver revokes the viewer link; the viewer's page learns it at once. */
export async function revokeViewerLink(driver: Page, viewer: Page): Promise<void> {
  await driver.getByRole("button", { name: "Share", exact: true }).click();
  const share = driver.getByRole("dialog", { name: "Share" });
  const row = share.getByRole("list", { name: "Links" }).getByRole("listitem", { name: /^viewer link by .+, active/ });
  await row.getByRole("button", { name: "Revoke" }).click();
  await row.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(share.getByRole("listitem", { name: /^viewer link by .+, revoked/ })).toBeVisible();
  await share.getByRole("button", { name: "Close" }).click();
  await expect(viewer.getByRole("status", { name: "Connection: Not authorized" })).toBeVisible();
}
