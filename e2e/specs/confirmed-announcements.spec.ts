// Others are told of a session change when pi confirms it: an extension
// that cancels a driver's new session (session_before_switch) leaves
// everyone else's page without a "started a new session" that never
// happened; one that lets it go is told. Real pier, pi, Chromium.
import type { Browser, Page } from "@playwright/test";
import { expect, extension, test } from "../support/pier.ts";

test.use({ scenarioName: "sessions", piArgs: ["-e", extension("asks-over-panels.ts")] });

const announcements = (page: Page) => page.getByRole("status", { name: "Announcements" });
const report = (page: Page, text: string) => page.getByLabel("Extension notifications").getByText(text, { exact: true });

async function enter(browser: Browser, url: string, name: string): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript((remembered) => localStorage.setItem("pier.name", remembered), name);
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  return page;
}

test("a new session an extension cancelled is not announced; one it allowed is", async ({ browser, pier }) => {
  test.setTimeout(120_000);
  const ada = await enter(browser, pier.url, "Ada");
  const bob = await enter(browser, await pier.freshUrl(), "Bob");

  await ada.getByRole("button", { name: "Sessions", exact: true }).click();
  const sessions = ada.getByRole("dialog", { name: "Sessions" });
  await sessions.getByRole("button", { name: "New session" }).click();
  await ada.getByRole("dialog", { name: "Start a new session?" }).getByRole("button", { name: "No" }).click();
  await expect(report(ada, "Start a new session? → false")).toBeVisible();
  await expect(sessions.getByRole("status")).toHaveText("An extension kept the current session.");
  // pi answered (cancelled) before that status showed: nothing is on its way to Bob.
  await bob.waitForTimeout(1_000);
  await expect(announcements(bob)).not.toContainText("started a new session");

  await sessions.getByRole("button", { name: "New session" }).click();
  await ada.getByRole("dialog", { name: "Start a new session?" }).getByRole("button", { name: "Yes" }).click();
  await expect(sessions.getByRole("status")).toHaveText("New session started.");
  await expect(announcements(bob)).toContainText("Ada started a new session");
});
