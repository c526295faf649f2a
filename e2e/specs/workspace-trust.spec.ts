// An untrusted workspace in real Chromium: the demo's scratch project under
// pi settings that trust nothing by default (scenario "untrusted"). The page
// says what is off and why; a viewer is told only a driver can trust it and
// gets no button; the driver trusts it, the banner goes for everyone, pi
// restarts with the project's resources (its /explain prompt template);
// distrusting it (drivers only, beside git's changes) brings the banner back.
import type { Page } from "@playwright/test";
import { connectBrowser, type RunningPier } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";

test.use({ scenarioName: "untrusted" });

const connected = (page: Page) => page.getByRole("status", { name: "Connection: Connected" });
const banner = (page: Page) => page.getByRole("region", { name: "Untrusted folder" });
const prompt = (page: Page) => page.getByRole("textbox", { name: "Prompt" });

/** The Explorer's Changes tab (the Explorer opened first where the screen starts without it). */
async function openChanges(page: Page): Promise<void> {
  const explorer = page.getByRole("navigation", { name: "Explorer" });
  if (!(await explorer.isVisible())) await page.getByRole("button", { name: "Explorer" }).click();
  await page.getByRole("tab", { name: /Changes/ }).click();
}

/** A viewer link made over a hand-made driver socket (the Share dialog has its own spec). */
async function viewerLink(pier: RunningPier): Promise<string> {
  const driver = await connectBrowser(pier);
  try {
    driver.send({ type: "pier.create_link", role: "viewer" });
    const created = await driver.waitForFrame("link_created");
    return `http://${new URL(driver.ws.url).host}/?token=${created.token}`;
  } finally {
    await driver.close();
  }
}

test("an untrusted folder: a banner says what is off; a viewer cannot trust it; the driver trusts it and pi loads the project's template", async ({ page, browser, pier }) => {
  await page.goto(pier.url);
  await expect(connected(page)).toBeVisible();
  await expect(banner(page)).toBeVisible();
  await expect(banner(page)).toContainText("Nobody has trusted this folder yet");
  await expect(banner(page)).toContainText("pi skips the project's .pi/ extensions, prompts, skills and settings");
  const trustButton = banner(page).getByRole("button", { name: "Trust this folder" });
  await expect(trustButton).toBeEnabled();
  await banner(page).screenshot({ path: test.info().outputPath("untrusted-banner.png") });

  // pi runs with --no-approve: the project's prompt template is not offered.
  await prompt(page).pressSequentially("/");
  const palette = page.getByRole("listbox", { name: "Slash commands" });
  await expect(palette).toBeVisible();
  await expect(palette.getByRole("option", { name: /\/explain/ })).toHaveCount(0);
  await prompt(page).fill("");

  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto(await viewerLink(pier));
  await expect(connected(viewer)).toBeVisible();
  await expect(banner(viewer)).toBeVisible();
  await expect(banner(viewer)).toContainText("Only a driver can trust this folder.");
  await expect(banner(viewer).getByRole("button")).toHaveCount(0);

  await trustButton.click();
  await expect(banner(page)).toBeHidden();
  await expect(banner(viewer)).toBeHidden();
  // pi was restarted with --approve: the template is there now.
  await expect(connected(page)).toBeVisible();
  await expect(async () => {
    await prompt(page).fill("");
    await prompt(page).pressSequentially("/");
    await expect(page.getByRole("listbox", { name: "Slash commands" }).getByRole("option", { name: /\/explain/ })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await prompt(page).fill("");

  // The way back, beside git's changes: a viewer is told, a driver can distrust it.
  await openChanges(viewer);
  await expect(viewer.getByRole("note", { name: "Folder trust" })).toContainText("Trusted folder");
  await expect(viewer.getByRole("note", { name: "Folder trust" }).getByRole("button")).toHaveCount(0);
  await openChanges(page);
  await page.getByRole("note", { name: "Folder trust" }).getByRole("button", { name: "Distrust" }).click();
  await expect(banner(page)).toBeVisible();
  await expect(banner(viewer)).toBeVisible();
  await expect(page.getByRole("note", { name: "Folder trust" })).toBeHidden();
});
