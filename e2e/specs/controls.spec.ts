// The conversation controls: model picker (+ Alt+M), thinking level, session
// settings, slash palette, usage meter, editing the queue. Every change made through
// the UI is checked by asking pi itself (get_state over a second connection).
import type { Page } from "@playwright/test";
import { commandId, connectBrowser, type Browser, type PiRecord } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";

test.use({ scenarioName: "controls" });

const prompt = (page: Page) => page.getByRole("textbox", { name: "Prompt" });
const agent = (page: Page) => page.getByRole("status", { name: /^Agent:/ });
const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const modelButton = (page: Page) => page.getByRole("button", { name: /^Model: / });
const thinking = (page: Page) => page.getByRole("combobox", { name: "Thinking level" });

async function ask(pi: Browser, command: Record<string, unknown>): Promise<PiRecord> {
  const id = commandId("controls");
  pi.send({ id, ...command });
  return pi.waitForRecord((r) => r.type === "response" && r.id === id);
}

async function piState(pi: Browser): Promise<PiRecord> {
  const response = await ask(pi, { type: "get_state" });
  expect(response.success).toBe(true);
  return response.data;
}

/** The thinking levels the page lets you choose (disabled placeholder options excluded). */
async function offeredLevels(page: Page): Promise<string[]> {
  return thinking(page)
    .locator("option:not([disabled])")
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
}

async function openReady(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(modelButton(page)).toHaveAccessibleName("Model: Pier demo model from pier-demo — change model");
  await expect(thinking(page)).toBeEnabled();
}

test("the model picker lists pi's models, switches model and pi confirms; Alt+M cycles back", async ({ page, pier }) => {
  const pi = await connectBrowser(pier);
  try {
    await openReady(page, pier.url);
    await modelButton(page).click();
    const dialog = page.getByRole("dialog", { name: "Choose a model" });
    const options = dialog.getByRole("option");
    await expect(options).toHaveCount(2);
    // The current model is marked, with its context window, reasoning and price.
    const current = dialog.getByRole("option", { selected: true });
    await expect(current).toHaveCount(1);
    await expect(current).toContainText("Pier demo model");
    await expect(current).toContainText("current");
    await expect(current).toContainText("pier-demo/pier-demo-model");
    await expect(current).toContainText("128k context");
    await expect(current).toContainText("reasoning");
    await expect(current).toContainText("free");
    await expect(dialog.getByRole("option", { name: /fast/ })).toContainText("no reasoning");

    // Filter, then Enter chooses the highlighted model.
    await dialog.getByRole("combobox", { name: "Filter models" }).fill("fast");
    await expect(options).toHaveCount(1);
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(modelButton(page)).toHaveAccessibleName("Model: Pier demo model (fast) from pier-demo — change model");
    await expect.poll(async () => (await piState(pi)).model?.id).toBe("pier-demo-model-fast");

    // A model without reasoning offers only "off": nothing else can be sent.
    await expect.poll(() => offeredLevels(page)).toEqual(["off"]);
    await expect(thinking(page)).toHaveValue("off");

    // Alt+M (cycle_model) goes to the next model; the levels are asked again.
    await prompt(page).focus();
    await page.keyboard.press("Alt+m");
    await expect(modelButton(page)).toHaveAccessibleName("Model: Pier demo model from pier-demo — change model");
    await expect(page.getByRole("status").filter({ hasText: "Now using Pier demo model" })).toBeVisible();
    await expect.poll(async () => (await piState(pi)).model?.id).toBe("pier-demo-model");
    await expect.poll(() => offeredLevels(page)).toEqual(["off", "minimal", "low", "medium", "high"]);
  } finally {
    await pi.close();
  }
});

test("the thinking selector offers only the model's levels and sets the one chosen", async ({ page, pier }) => {
  const pi = await connectBrowser(pier);
  try {
    await openReady(page, pier.url);
    const levels = (await ask(pi, { type: "get_available_thinking_levels" })).data.levels as string[];
    await expect.poll(() => offeredLevels(page)).toEqual(levels);
    expect(levels).not.toContain("xhigh");
    await expect(thinking(page)).toHaveValue((await piState(pi)).thinkingLevel);

    await thinking(page).selectOption("high");
    await expect.poll(async () => (await piState(pi)).thinkingLevel).toBe("high");
    await thinking(page).selectOption("low");
    await expect.poll(async () => (await piState(pi)).thinkingLevel).toBe("low");

    // A change made elsewhere (thinking_level_changed) shows up here.
    await ask(pi, { type: "set_thinking_level", level: "minimal" });
    await expect(thinking(page)).toHaveValue("minimal");

    // Alt+T (cycle_thinking_level): pi picks the next offered level, the page says which.
    const next = levels[(levels.indexOf("minimal") + 1) % levels.length]!;
    await page.getByRole("textbox", { name: "Prompt" }).focus();
    await page.keyboard.press("Alt+t");
    await expect.poll(async () => (await piState(pi)).thinkingLevel).toBe(next);
    await expect(thinking(page)).toHaveValue(next);
    await expect(page.getByRole("status").filter({ hasText: `Thinking level: ${next}` })).toBeVisible();
    // The shortcut typed nothing into the prompt.
    await expect(page.getByRole("textbox", { name: "Prompt" })).toHaveValue("");
  } finally {
    await pi.close();
  }
});

test("session settings change pi's queue modes and auto-compaction, set auto-retry, and show a refused compaction in words", async ({ page, pier }) => {
  const pi = await connectBrowser(pier);
  try {
    await openReady(page, pier.url);
    await page.getByRole("button", { name: "Session settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Session settings" });

    const steering = dialog.getByRole("radiogroup", { name: "Steering delivery" });
    await expect(steering.getByRole("radio", { name: "One at a time" })).toBeChecked();
    await steering.getByRole("radio", { name: "All" }).check();
    await expect.poll(async () => (await piState(pi)).steeringMode).toBe("all");
    await expect(steering.getByRole("radio", { name: "All" })).toBeChecked();

    const followUp = dialog.getByRole("radiogroup", { name: "Follow-up delivery" });
    await followUp.getByRole("radio", { name: "All" }).check();
    await expect.poll(async () => (await piState(pi)).followUpMode).toBe("all");

    const compaction = dialog.getByRole("radiogroup", { name: "Auto-compaction" });
    await expect(compaction.getByRole("radio", { name: "On" })).toBeChecked();
    await compaction.getByRole("radio", { name: "Off" }).check();
    await expect.poll(async () => (await piState(pi)).autoCompactionEnabled).toBe(false);

    // pi never reports auto-retry: unknown until set from here.
    const retry = dialog.getByRole("radiogroup", { name: "Auto-retry" });
    await expect(retry).toContainText("unknown");
    await retry.getByRole("radio", { name: "Off" }).check();
    await expect(retry.getByRole("radio", { name: "Off" })).toBeChecked();
    await expect(retry).not.toContainText("unknown");
    // No retry is pending, so there is nothing to abort.
    await expect(page.getByRole("button", { name: "Abort retry" })).toHaveCount(0);

    // A fresh session has nothing to compact: pi's refusal is shown right here.
    await dialog.getByRole("textbox", { name: /Instructions/ }).fill("Keep the decisions");
    await dialog.getByRole("button", { name: "Compact now" }).click();
    await expect(dialog.getByRole("alert")).toContainText("Compaction failed: Nothing to compact");
    // Shown once, where the person acted: not repeated in the global notifications.
    await expect(page.getByLabel("Notifications").getByRole("alert")).toHaveCount(0);

    // Esc closes the popover and gives focus back to its button.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("button", { name: "Session settings" })).toBeFocused();
  } finally {
    await pi.close();
  }
});

test("the slash palette lists the prompt template, completes it, and running it sends the expanded prompt", async ({ page, pier }) => {
  await openReady(page, pier.url);
  await prompt(page).pressSequentially("/");
  const palette = page.getByRole("listbox", { name: "Slash commands" });
  const template = palette.getByRole("option", { name: /\/explain/ });
  await expect(template).toBeVisible();
  await expect(template).toContainText("Prompt template");
  await expect(template).toContainText("Explain a file of this project in plain words");
  await expect(template).toContainText("project · .pi/prompts/explain.md");

  // Filter as you type; arrows move; Tab completes.
  await prompt(page).pressSequentially("xpl");
  await expect(palette.getByRole("option")).toHaveCount(1);
  await page.keyboard.press("ArrowDown");
  await expect(template).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Tab");
  await expect(prompt(page)).toHaveValue("/explain ");
  await expect(palette).toBeHidden();

  await prompt(page).pressSequentially("src/cli.js");
  await prompt(page).press("Enter");
  // pi expanded the template before the model saw it.
  await expect(conversation(page).getByRole("article", { name: "You" })).toContainText("Explain what src/cli.js does in this project");
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("The template reached me expanded");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
});

test("Esc closes the slash palette without aborting the agent", async ({ page, pier }) => {
  await openReady(page, pier.url);
  await prompt(page).fill("Take your time");
  await prompt(page).press("Enter");
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("slowly");
  await expect(agent(page)).toHaveAccessibleName("Agent: Working");

  await prompt(page).pressSequentially("/ex");
  const palette = page.getByRole("listbox", { name: "Slash commands" });
  // Once pi has listed its commands, Enter completes (not steer) while the palette is open.
  await expect(palette.getByRole("option", { name: /\/explain/ })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(prompt(page)).toHaveValue("/explain ");
  await prompt(page).fill("/ex");
  await expect(palette).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(palette).toBeHidden();
  await expect(prompt(page)).toHaveValue("/ex");
  await expect(agent(page)).toHaveAccessibleName("Agent: Working");
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("Done taking my time.", { timeout: 20_000 });
});

test("usage: tokens, cost and the context meter appear after a run", async ({ page, pier }) => {
  await openReady(page, pier.url);
  const usage = page.getByRole("button", { name: /^Usage: / });
  await expect(usage).toHaveAccessibleName(/context 0% of 128k tokens, session cost \$0\.00/);

  await prompt(page).fill("Hello");
  await prompt(page).press("Enter");
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("A short scripted answer.");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  // 900 prompt + 20 completion tokens of a 128k window.
  await expect(usage).toHaveAccessibleName(/context <1% of 128k tokens, session cost \$0\.00/);

  await usage.click();
  const dialog = page.getByRole("dialog", { name: "Session usage" });
  await expect(dialog.getByTestId("context-usage")).toContainText("920 of 128k tokens");
  await expect(dialog.getByTestId("total-tokens")).toHaveText("920");
  await expect(dialog.getByTestId("session-cost")).toHaveText("$0.00");
  await expect(dialog.getByRole("meter", { name: "Context window used" })).toHaveAttribute("aria-valuenow", /^0\.7/);
  await expect(dialog).toContainText("1 from you · 1 from pi");

  // A second run moves the numbers again.
  await page.keyboard.press("Escape");
  await prompt(page).fill("/explain src/cli.js");
  await prompt(page).press("Enter");
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("The template reached me expanded");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  await usage.click();
  await expect(dialog.getByTestId("total-tokens")).toHaveText("2.5k");
});

test("Edit takes queued messages out of the queue and puts their text back in the prompt box", async ({ page, pier }) => {
  const pi = await connectBrowser(pier);
  try {
    await openReady(page, pier.url);
    await prompt(page).fill("Take your time");
    await prompt(page).press("Enter");
    await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("slowly");

    await prompt(page).fill("First queued follow-up");
    await page.getByRole("button", { name: "Follow-up" }).click();
    await prompt(page).fill("A steering note");
    // Enter would now repeat the last choice (follow-up): steer explicitly.
    await page.getByRole("button", { name: "Steer" }).click();
    const queue = page.getByRole("list", { name: "Queued messages" });
    await expect(queue).toContainText("First queued follow-up");
    await expect(queue).toContainText("A steering note");
    // What an abort does to them: queue-after-abort.spec.ts.

    await prompt(page).fill("half typed");
    await page.getByRole("region", { name: "Queue" }).getByRole("button", { name: "Edit" }).click();
    await expect(queue).toHaveCount(0);
    await expect(prompt(page)).toHaveValue("A steering note\n\nFirst queued follow-up\n\nhalf typed");
    expect((await piState(pi)).pendingMessageCount).toBe(0);

    // Nothing queued runs after the answer: one prompt, one answer.
    await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("Done taking my time.", { timeout: 20_000 });
    await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
    await expect(conversation(page).getByRole("article", { name: "You" })).toHaveCount(1);
  } finally {
    await pi.close();
  }
});
