// What an extension puts in the session besides dialogs: a custom entry
// (pi.appendEntry) is a collapsed row where pi appended it, opening to its
// data as JSON; a custom message (pi.sendMessage) is Markdown rendered like
// the model's answers, its HTML shown as text and never run; one with
// display: false is not in the transcript, only in the inspector. The same
// after a reload and in a browser that joins late (pi's replayed output), and after switching back to the
// saved session (pi's entries, no replay). Real relay, real pi with the
// test extension e2e/extensions/custom-entries.ts.
import type { Page } from "@playwright/test";
import { commandId, connectBrowser, type Browser } from "../../relay/test/support/pier-process.ts";
import { extension, expect, test } from "../support/pier.ts";

test.use({ piArgs: ["-e", extension("custom-entries.ts")] });

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const report = (page: Page) => conversation(page).getByRole("region", { name: "Message from an extension" });
const entryRow = (page: Page) => conversation(page).getByRole("region", { name: "Extension entry · probe-state" });
const inspector = (page: Page) => page.getByRole("complementary", { name: "Protocol inspector" });
const records = (page: Page) => inspector(page).getByRole("listbox", { name: "Records" });
const details = (page: Page) => inspector(page).getByRole("region", { name: "Record details" });

async function send(page: Page, text: string): Promise<void> {
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill(text);
  await prompt.press("Enter");
}

async function call(pi: Browser, command: Record<string, unknown>): Promise<Record<string, unknown>> {
  const id = commandId("custom-entries");
  pi.send({ ...command, id });
  const response = await pi.waitForRecord((r) => r.type === "response" && r.id === id, 20_000);
  expect(response.success, JSON.stringify(response)).toBe(true);
  return (response.data ?? {}) as Record<string, unknown>;
}

/** The extension's message and entry, as the transcript must show them. */
async function expectShown(page: Page, { openBefore = false } = {}): Promise<void> {
  const message = report(page);
  await expect(message).toHaveCount(1);
  await expect(message).toContainText("probe-report");
  await expect(message.getByRole("heading", { name: "Probe report" })).toBeVisible();
  await expect(message.getByRole("listitem")).toHaveText(["first finding", "second finding"]);
  await expect(message.getByRole("link", { name: "the docs" })).toHaveAttribute("href", "https://example.com/docs");
  // The HTML is text on the page, not elements, and none of it ran.
  await expect(message).toContainText("<img src=x onerror=");
  await expect(message).toContainText("<script>window.__probePwned = 'script'</script>");
  await expect(message.locator("img, script")).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __probePwned?: unknown }).__probePwned)).toBeUndefined();
  // display: false: in pi's context, not in the transcript.
  await expect(conversation(page)).not.toContainText("the hidden probe text");

  // The entry: one collapsed row, before the message (pi appended it first), opening to its data.
  const row = entryRow(page);
  await expect(row).toHaveCount(1);
  const toggle = row.getByRole("button", { name: /Extension entry · probe-state/ });
  // Collapsed at first; opened, it stays open while this page lives (as other disclosures do).
  if (openBefore) {
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await toggle.click();
  }
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(row).not.toContainText('"count"');
  const [entryBox, messageBox] = [await row.boundingBox(), await message.boundingBox()];
  expect(entryBox!.y).toBeLessThan(messageBox!.y);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const data = row.getByLabel("Entry data (JSON)");
  await expect(data).toContainText('"count": 3');
  await expect(data).toContainText('"title": "<b>not bold</b>"');
  await expect(data).toContainText(/"list": \[\s*"alpha",\s*"beta"\s*\]/);
  await expect(row.locator("b")).toHaveCount(0);
}

test("a custom entry and custom messages: rendered safely live, after a reload, for a late browser, and from the saved session", async ({ page, pier, browser }) => {
  const pi = await connectBrowser(pier);
  try {
    await page.goto(pier.url);
    await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
    await send(page, "/entry-probe");
    await expectShown(page);

    // The inspector names the customType on the records that brought them.
    await page.getByRole("button", { name: "Protocol inspector" }).click();
    await expect(inspector(page)).toBeVisible();
    await inspector(page).getByRole("combobox", { name: "Record type" }).selectOption("entry_appended");
    await inspector(page).getByRole("searchbox", { name: "Search records" }).fill("probe-state");
    await records(page).getByRole("option").filter({ hasText: "entry_appended" }).click();
    await expect(details(page).getByRole("region", { name: "What it did" })).toContainText('An extension saved a custom entry "probe-state" (pi.appendEntry)');
    await inspector(page).getByRole("combobox", { name: "Record type" }).selectOption("message_end");
    await inspector(page).getByRole("searchbox", { name: "Search records" }).fill("probe-hidden");
    const ends = records(page).getByRole("option").filter({ hasText: "message_end" });
    await expect(ends).toHaveCount(1);
    await ends.click();
    await expect(details(page).getByRole("region", { name: "What it did" })).toContainText('an extension\'s message "probe-hidden" (pi.sendMessage; display: false, so not shown in the transcript');
    await page.getByRole("button", { name: "Close protocol inspector" }).click();

    // A prompt, so that pi writes the session file (it does after the first answer).
    await send(page, "hello");
    const answer = conversation(page).getByRole("article", { name: "pi" });
    await expect(answer).toHaveAttribute("aria-busy", "false");
    await expect(answer).toContainText("scripted model");
    const { sessionFile } = await call(pi, { type: "get_state" });
    expect(typeof sessionFile).toBe("string");

    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await entryRow(page).scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`custom-entries-${size.width}x${size.height}.png`) });
    }
    await page.setViewportSize({ width: 1440, height: 900 });

    // A reload: pi's replayed output brings them back, once each.
    await page.reload();
    await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
    await expectShown(page);

    // A browser that joins late sees them the same.
    const late = await (await browser.newContext()).newPage();
    try {
      await late.goto(await pier.freshUrl());
      await expect(late.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
      await expectShown(late);
    } finally {
      await late.context().close();
    }

    // Another session, then back to the saved one: no replay holds it, only pi's entries do.
    await call(pi, { type: "new_session" });
    await expect(entryRow(page)).toHaveCount(0);
    await expect(report(page)).toHaveCount(0);
    await call(pi, { type: "switch_session", sessionPath: sessionFile });
    await expect(conversation(page).getByRole("article", { name: "pi" })).toContainText("scripted model");
    await expectShown(page, { openBefore: true });
  } finally {
    await pi.close();
  }
});
