// Extension UI: every request pi 0.87.1 sends in RPC mode appears in the page
// and works. The test extension e2e/extensions/ui-probe.ts opens the dialogs
// from /commands and reports what pi handed back to it through a notify,
// which the page shows as a toast.
import type { Page } from "@playwright/test";
import { expect, extension, test } from "../support/pier.ts";
import { expectExtensionStatus, statusChip } from "../support/extension-status.ts";

test.use({ piArgs: ["-e", extension("ui-probe.ts")] });

async function run(page: Page, command: string): Promise<void> {
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill(command);
  await prompt.press("Enter");
}

const toasts = (page: Page) => page.getByLabel("Extension notifications");
const report = (page: Page, text: string) => toasts(page).getByText(text, { exact: true });

test.beforeEach(async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
  // The probe's session_start status: the extension is loaded.
  await expectExtensionStatus(page, "Probe ready");
});

test("select: a click answers with the option; Esc cancels", async ({ page }) => {
  await run(page, "/probe-select");
  const dialog = page.getByRole("dialog", { name: "Pick a colour" });
  await expect(dialog).toBeVisible();
  // Focus moved into the dialog.
  await expect(dialog.getByRole("listbox")).toBeFocused();
  await dialog.getByRole("option", { name: "Green" }).click();
  await expect(dialog).toBeHidden();
  await expect(report(page, 'select → "Green"')).toBeVisible();

  await run(page, "/probe-select");
  await expect(page.getByRole("dialog", { name: "Pick a colour" }).getByRole("listbox")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(report(page, 'select → "Blue"')).toBeVisible();

  await run(page, "/probe-select");
  await expect(page.getByRole("dialog", { name: "Pick a colour" }).getByRole("listbox")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(report(page, "select → (cancelled)")).toBeVisible();
  // Esc cancelled the dialog; it did not abort anything or leave the agent busy.
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
});

test("confirm: Yes and No reach pi as confirmed true / false", async ({ page }) => {
  await run(page, "/probe-confirm");
  const dialog = page.getByRole("dialog", { name: "Delete the scratch file?" });
  await expect(dialog).toContainText("The probe will pretend to delete scratch.txt.");
  await dialog.getByRole("button", { name: "Yes" }).click();
  await expect(report(page, "confirm → true")).toBeVisible();

  await run(page, "/probe-confirm");
  await page.getByRole("dialog", { name: "Delete the scratch file?" }).getByRole("button", { name: "No" }).click();
  await expect(report(page, "confirm → false")).toBeVisible();
});

test("input: typed text reaches pi; Cancel reaches it as cancelled", async ({ page }) => {
  await run(page, "/probe-input");
  const dialog = page.getByRole("dialog", { name: "Name the branch" });
  const field = dialog.getByRole("textbox", { name: "Name the branch" });
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute("placeholder", "feature/…");
  await field.fill("feature/extension-ui");
  await field.press("Enter");
  await expect(report(page, 'input → "feature/extension-ui"')).toBeVisible();

  await run(page, "/probe-input");
  await page.getByRole("dialog", { name: "Name the branch" }).getByRole("button", { name: "Cancel" }).click();
  await expect(report(page, "input → (cancelled)")).toBeVisible();
});

test("editor: the prefilled text is editable in Monaco and the edited text reaches pi", async ({ page }) => {
  await run(page, "/probe-editor");
  const dialog = page.getByRole("dialog", { name: "Edit the release note" });
  // Monaco replaces the interim textarea once it has loaded.
  const editor = dialog.getByTestId("extension-editor");
  await expect(editor.locator(".view-lines")).toContainText("## 1.2.0");
  await expect(editor.locator(".view-lines")).toContainText("- faster startup");
  // Monaco types through EditContext: click its lines, then type.
  await editor.locator(".view-lines").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("- fewer bugs");
  await expect(dialog).toContainText("3 lines");
  await page.keyboard.press("Control+Enter");
  await expect(dialog).toBeHidden();
  await expect(report(page, 'editor → "## 1.2.0\\n- faster startup\\n- fewer bugs"')).toBeVisible();
});

test("editor: Esc cancels, even with Monaco focused", async ({ page }) => {
  await run(page, "/probe-editor");
  const dialog = page.getByRole("dialog", { name: "Edit the release note" });
  const editor = dialog.getByTestId("extension-editor");
  await editor.locator(".view-lines").click();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(report(page, "editor → (cancelled)")).toBeVisible();
});

test("a dialog with a timeout counts down and closes itself when pi gives up", async ({ page }) => {
  await run(page, "/probe-timed");
  const dialog = page.getByRole("dialog", { name: "Quick pick" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("timer")).toHaveText(/Closes in [12] s/);
  // pi resolves the default after 2 s and tells nobody: the page closes it on its own.
  await expect(dialog).toBeHidden({ timeout: 5000 });
  await expect(report(page, "timed → (cancelled)")).toBeVisible();
});

test("two dialogs at once queue, and the second follows the first", async ({ page }) => {
  await run(page, "/probe-two");
  const first = page.getByRole("dialog", { name: "First of two" });
  await expect(first).toBeVisible();
  await expect(first).toContainText("1 more waiting");
  await expect(page.getByRole("dialog")).toHaveCount(1);
  await first.getByRole("button", { name: "Yes" }).click();
  const second = page.getByRole("dialog", { name: "Second of two" });
  await expect(second).toBeVisible();
  await expect(second).not.toContainText("more waiting");
  await second.getByRole("textbox", { name: "Second of two" }).fill("queued fine");
  await second.getByRole("button", { name: "Submit" }).click();
  await expect(report(page, 'two → true / "queued fine"')).toBeVisible();
});

test.describe("while pi streams", () => {
  test.use({ scenarioName: "long-answer" });

  test("the conversation keeps rendering behind an open dialog", async ({ page }) => {
    await run(page, "Count for me");
    const answer = page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "pi" }).last();
    await expect(answer).toContainText("one");
    // An extension command runs at once, even mid-run.
    await run(page, "/probe-confirm");
    const dialog = page.getByRole("dialog", { name: "Delete the scratch file?" });
    await expect(dialog).toBeVisible();
    await expect(answer).not.toContainText("Done counting.");
    // The stream goes on behind the open dialog, visible, to the end of the run.
    await expect(answer).toContainText("Done counting.", { timeout: 20_000 });
    await expect(answer).toBeVisible();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "No" }).click();
    await expect(report(page, "confirm → false")).toBeVisible();
  });
});

test("fire-and-forget: status, widget below the prompt, title, prompt text and toasts", async ({ page }) => {
  await run(page, "/probe-fire");
  await expect(page.getByRole("textbox", { name: "Prompt" })).toHaveValue("Text the probe put here");
  await expectExtensionStatus(page, "Probe fired");
  await expect(page.getByRole("region", { name: "Extension widget probe-below" })).toContainText("Below the prompt");
  await expect(page).toHaveTitle("Probe fired");
  await expect(report(page, "A warning from the probe")).toBeVisible();
  const error = toasts(page).getByRole("alert").filter({ hasText: "An error from the probe" });
  await expect(error).toBeVisible();
  await error.getByRole("button", { name: "Dismiss notification" }).click();
  await expect(error).toHaveCount(0);

  await run(page, "/probe-clear");
  await expect(report(page, "cleared")).toBeVisible();
  await expect(statusChip(page)).toHaveCount(0);
  await expect(page.getByRole("region", { name: /^Extension widget/ })).toHaveCount(0);
});

test("an extension error shows as an error toast naming the extension and event", async ({ page }) => {
  await run(page, "probe explode");
  const error = toasts(page).getByRole("alert").filter({ hasText: "the probe exploded on purpose" });
  await expect(error).toBeVisible();
  await expect(error).toContainText("ui-probe.ts");
  await expect(error).toContainText("input");
});

test("after a reload, start-up status, widget and title come back from the replay; answered dialogs and old toasts do not", async ({ page }) => {
  await expectExtensionStatus(page, "Probe ready", "mode: testing");
  await expect(page.getByRole("region", { name: "Extension widget probe" })).toContainText("UI probe loaded");
  await expect(page).toHaveTitle("UI probe");

  await run(page, "/probe-confirm");
  await page.getByRole("dialog", { name: "Delete the scratch file?" }).getByRole("button", { name: "Yes" }).click();
  await expect(report(page, "confirm → true")).toBeVisible();

  await page.reload();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expectExtensionStatus(page, "Probe ready");
  await expect(page.getByRole("region", { name: "Extension widget probe" })).toContainText("UI probe loaded");
  await expect(page).toHaveTitle("UI probe");
  // The replay held the answered dialog and the notify: neither comes back.
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Earlier extension requests" })).toHaveCount(0);
  await expect(report(page, "confirm → true")).toHaveCount(0);
});

test("a dialog still open during a reload comes back as the dialog pi waits for, and answering it works", async ({ page }) => {
  await run(page, "/probe-input");
  await expect(page.getByRole("dialog", { name: "Name the branch" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  // The relay says pi still waits for it (hello.dialogs): it is a dialog again, not an "earlier request" of unknown state.
  const dialog = page.getByRole("dialog", { name: "Name the branch" });
  await expect(dialog).toBeVisible();
  await expect(page.getByRole("region", { name: "Earlier extension requests" })).toHaveCount(0);
  await dialog.getByRole("textbox", { name: "Name the branch" }).fill("after-reload");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(report(page, 'input → "after-reload"')).toBeVisible();
  await expect(dialog).toBeHidden();
});

test("a dialog answered in another browser does not come back in a browser that connects later", async ({ page, pier, browser }) => {
  await run(page, "/probe-select");
  await page.getByRole("dialog", { name: "Pick a colour" }).getByRole("option", { name: "Red" }).click();
  await expect(report(page, 'select → "Red"')).toBeVisible();

  // A second browser: its own storage, so only the replay tells it what happened.
  const other = await browser.newContext();
  try {
    const late = await other.newPage();
    await late.goto(await pier.freshUrl());
    await expect(late.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
    await expectExtensionStatus(late, "Probe ready");
    await expect(late.getByRole("region", { name: "Extension widget probe" })).toContainText("UI probe loaded");
    await expect(late.getByRole("dialog")).toHaveCount(0);
    await expect(late.getByRole("region", { name: "Earlier extension requests" })).toHaveCount(0);
  } finally {
    await other.close();
  }
});
