// A question an extension withdraws: pi says nothing on the wire when an
// extension's AbortSignal (its own, or the run's on abort) resolves a dialog,
// and drops an answer sent after (web/test/withdrawn-dialogs.contract.test.ts,
// pi 0.87.1 and 1.6.0). The page once left such a dialog open, took the
// answer, and nothing happened. Now it reads what follows (the /command
// finished, the run ended), says the question is no longer asked, makes its
// answers inert and offers Close (or Answer anyway, if the person knows better).
import type { Page } from "@playwright/test";
import { expect, extension, test } from "../support/pier.ts";

test.use({ scenarioName: "withdrawn-dialogs", piArgs: ["-e", extension("withdraws-dialogs.ts")] });

const prompt = (page: Page) => page.getByRole("textbox", { name: "Prompt" });
const toasts = (page: Page) => page.getByLabel("Extension notifications");

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
}

async function send(page: Page, text: string): Promise<void> {
  await prompt(page).fill(text);
  await prompt(page).press("Enter");
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width}×${viewport.height}: a question the extension withdraws (its AbortSignal) says so, takes no answer, and closes`, async ({ page, pier }, testInfo) => {
    await page.setViewportSize(viewport);
    await open(page, pier.url);
    // Long enough to see it open and unmarked on a busy machine.
    await send(page, "/ask-briefly 5000");
    const dialog = page.getByRole("dialog", { name: "Keep this question open?" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Yes" })).toBeVisible();
    await expect(dialog.getByRole("alert")).toHaveCount(0);

    // The extension gives up: the page says so, in the dialog, where the answer was about to go.
    await expect(toasts(page).getByText("briefly → withdrawn by the extension")).toBeVisible();
    const notice = dialog.getByRole("alert");
    await expect(notice).toContainText("No longer asked");
    await expect(notice).toContainText("the command that asked has finished");
    await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
    // Its answers are out of reach (inert: neither a click nor the keyboard lands on Yes).
    expect(await dialog.getByRole("button", { name: "Yes" }).evaluate((el) => el.closest("[inert]") !== null)).toBe(true);
    await expect(dialog.getByRole("button", { name: "Close" })).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: testInfo.outputPath(`withdrawn-dialog-${viewport.width}x${viewport.height}.png`) });

    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toHaveCount(0);
    // Nothing else waits, and the prompt box has the keyboard back.
    await expect(prompt(page)).toBeFocused();
  });
}

test("Esc closes a withdrawn question too; Answer anyway gives its answers back", async ({ page, pier }) => {
  await open(page, pier.url);
  await send(page, "/ask-briefly 500");
  const dialog = page.getByRole("dialog", { name: "Keep this question open?" });
  await expect(dialog.getByRole("alert")).toContainText("No longer asked");
  await dialog.getByRole("button", { name: "Answer anyway" }).click();
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "No" })).toBeFocused();
  await expect(dialog.getByRole("button", { name: "Yes" })).toBeEnabled();

  // The same again, closed with Esc.
  await dialog.getByRole("button", { name: "No" }).click();
  await expect(dialog).toHaveCount(0);
  await send(page, "/ask-briefly 500");
  await expect(dialog.getByRole("alert")).toContainText("No longer asked");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});

test("aborting the run withdraws the question that held it (the run's signal)", async ({ page, pier }) => {
  await open(page, pier.url);
  await send(page, "run the guarded command");
  const dialog = page.getByRole("dialog", { name: "Run this command?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("alert")).toHaveCount(0);

  await page.getByRole("button", { name: "Abort" }).click();
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
  await expect(dialog.getByRole("alert")).toContainText("the run it belonged to has ended");
  await expect(toasts(page).getByText("approval → withdrawn (run aborted)")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);
});
