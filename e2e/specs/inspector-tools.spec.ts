// The inspector's timeline and composer against a real pi: the swimlane
// draws the run as nested bars, live, and zooms; the composer writes a
// command from a template, checks it against the command schemas, sends it
// and shows pi's answer, refuses what the relay would refuse, and re-sends
// an earlier command after an edit.
import type { Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";

test.use({ scenarioName: "tools" });

const inspector = (page: Page) => page.getByRole("complementary", { name: "Protocol inspector" });
const composer = (page: Page) => inspector(page).getByRole("region", { name: "Command composer" });
const outcome = (page: Page) => composer(page).getByRole("region", { name: "Outcome" });
const agent = (page: Page) => page.getByRole("status", { name: /^Agent:/ });

async function openTab(page: Page, tab: "Records" | "Timeline" | "Compose") {
  if ((await inspector(page).count()) === 0) await page.getByRole("button", { name: "Protocol inspector", exact: true }).click();
  await inspector(page).getByRole("tab", { name: tab }).click();
}

async function sendPrompt(page: Page, text: string) {
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill(text);
  await prompt.press("Enter");
}

/**
 * Replace the composer's text: Monaco would auto-close brackets typed one by
 * one, so the text is inserted whole. Monaco first: until it loads the
 * composer is a plain textarea, and keys pressed as one replaces the other
 * are lost (on a loaded CI machine the load took long enough to hit that).
 * Then the text is checked, and written again if it did not land.
 */
async function writeCommand(page: Page, json: string) {
  await expect(composer(page).locator(".monaco-editor")).toBeVisible();
  const editor = composer(page).getByRole("textbox", { name: /^Command JSON/ });
  const shown = composer(page).locator(".monaco-editor .view-lines");
  const squeezed = (text: string) => text.replace(/\s+/g, "");
  await expect(async () => {
    await editor.focus(); // Monaco's view lines lie over its input element
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText(json);
    expect(squeezed(await shown.innerText())).toBe(squeezed(json));
  }).toPass({ timeout: 15_000 });
}

test("the timeline shows the run as nested bars in lanes, live, and zooms", async ({ page, pier }) => {
  await page.goto(pier.url);
  await openTab(page, "Timeline");
  const bars = inspector(page).getByRole("group", { name: "Bars and events in view" });
  await sendPrompt(page, "use the tools");
  // Live: the run's bar is there (running) before pi is done.
  await expect(bars.getByRole("button", { name: /^run.*running/ }).first()).toBeAttached({ timeout: 20_000 });
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle", { timeout: 60_000 });

  // agent → turn → message → tool execution, each a bar with its duration.
  await inspector(page).getByRole("button", { name: "Fit all" }).click();
  await expect(bars.getByRole("button", { name: /^run, \d/ }).first()).toBeAttached();
  await expect(bars.getByRole("button", { name: /^turn \d+, / }).first()).toBeAttached();
  await expect(bars.getByRole("button", { name: /^message assistant, .*text deltas?/ }).first()).toBeAttached();
  await expect(bars.getByRole("button", { name: /^tool bash, [\d.]+ m?s/ }).first()).toBeAttached();
  await expect(bars.getByRole("button", { name: /^tool bash, .*failed/ })).toHaveCount(1);
  // The picture says in words what it shows.
  await expect(inspector(page).getByRole("img", { name: /^Timeline/ })).toBeAttached();

  // Zoom in: fewer things fit in view; Fit all brings them back. The page
  // asks pi for its state once the run is over: count once those records are
  // drawn too (the timeline looks again at most every 100 ms). On a loaded
  // machine one more relay frame can still come after that: Fit all shows at
  // least what was there.
  const shown = () => bars.getByRole("button").count();
  let all = -1;
  await expect
    .poll(async () => {
      const before = await shown();
      await page.waitForTimeout(300);
      all = await shown();
      return all === before;
    })
    .toBe(true);
  for (let i = 0; i < 6; i++) await inspector(page).getByRole("button", { name: "Zoom in" }).click();
  await expect.poll(shown).toBeLessThan(all);
  await inspector(page).getByRole("button", { name: "Fit all" }).click();
  await expect.poll(shown).toBeGreaterThanOrEqual(all);
});

test("the composer sends a command from a template, shows pi's answer, refuses what the relay would, and re-sends an edited earlier command", async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await openTab(page, "Compose");

  // A template for any of the commands, with its id prefilled.
  const template = composer(page).getByRole("combobox", { name: "Template: search the commands" });
  await template.fill("get_state");
  await composer(page)
    .getByRole("listbox", { name: "Command templates" })
    .getByRole("option", { name: /^get_state/ })
    .click();
  await expect(composer(page).getByText("A valid get_state command.")).toBeVisible();
  await composer(page).getByRole("button", { name: "Send", exact: true }).click();
  await expect(outcome(page)).toContainText("pi answered");
  await expect(outcome(page)).toContainText('"command": "get_state"');
  await expect(outcome(page)).toContainText('"thinkingLevel"');

  // What pi would mis-handle is caught by the schema, and the relay says the same if sent anyway.
  await writeCommand(page, '{"type": "set_steering_mode", "mode": "bogus"}');
  await expect(composer(page).getByText("The relay would refuse this:")).toBeVisible();
  await composer(page).getByRole("button", { name: "Send anyway (invalid)" }).click();
  await expect(outcome(page)).toContainText("Not accepted.");
  await expect(outcome(page)).toContainText("mode");

  // Edit and resend: an earlier command from the records, back in the composer.
  await sendPrompt(page, "say hello");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle", { timeout: 30_000 });
  await openTab(page, "Records");
  await inspector(page).getByRole("combobox", { name: "Record type" }).selectOption("prompt");
  await inspector(page)
    .getByRole("listbox", { name: "Records" })
    .getByRole("option")
    .filter({ hasText: /prompt/ })
    .first()
    .click();
  await inspector(page).getByRole("region", { name: "Record details" }).getByRole("button", { name: "Edit and resend" }).click();
  await expect(inspector(page).getByRole("tab", { name: "Compose" })).toHaveAttribute("aria-selected", "true");
  await expect(composer(page).getByText("A valid prompt command.")).toBeVisible();
  await expect(composer(page)).toContainText("say hello");
});
