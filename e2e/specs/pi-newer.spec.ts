// What pi ≥ 1.x adds to the wire, as a person sees it (run by the pi-1.6.0
// Playwright project): nested tool calls inside their caller's card with
// durations, live and after a reload, and a prompt an extension handles,
// which starts no run and leaves nothing waiting.
import type { Page } from "@playwright/test";
import { PINNED_PI_VERSION } from "../../relay/test/support/pi-under-test.ts";
import { expect, extension, test } from "../support/pier.ts";

test.use({ scenarioName: "nested", piArgs: ["-e", extension("nested-tools.ts")] });
test.skip(({ piVersion }) => piVersion === PINNED_PI_VERSION, "pi 0.87.1 has neither nested tool calls nor dispositions");

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const cards = (page: Page) => conversation(page).getByRole("group", { name: /^Tool call: / });
const agent = (page: Page) => page.getByRole("status", { name: /^Agent:/ });

async function send(page: Page, text: string) {
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill(text);
  await prompt.press("Enter");
}

test("nested tool calls show inside their caller's card, with durations, live and after a reload", async ({ page, pier }) => {
  await page.goto(pier.url);
  await send(page, "nest");
  const card = cards(page).first();
  const nested = card.getByRole("list", { name: "Calls this tool made to other tools" });
  // Live: the nested bash streams while nested_probe runs.
  await expect(nested.getByRole("listitem").first()).toContainText("bash");
  await expect(conversation(page).getByText("Done nesting.")).toBeVisible({ timeout: 20_000 });
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");

  // One card: the nested calls are not transcript rows of their own.
  await expect(cards(page)).toHaveCount(1);
  await expect(card).toContainText("nested_probe");
  await expect(card).toContainText(/\d+(\.\d)? (ms|s)\b/);
  const check = async () => {
    await card.locator("> button.head").click();
    const rows = card.getByRole("list", { name: "Calls this tool made to other tools" }).getByRole("listitem");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toHaveAttribute("data-state", "done");
    await expect(rows.nth(0)).toContainText(/bash[\s\S]*\d+(\.\d)? (ms|s)/);
    await expect(rows.nth(1)).toHaveAttribute("data-state", "failed");
    await expect(rows.nth(1)).toContainText("read");
  };
  await check();
  await page.reload();
  await expect(conversation(page).getByText("Done nesting.")).toBeVisible();
  await check();
});

test("on a phone, a card whose header sums up its nested calls still says its state whole", async ({ page, pier }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(pier.url);
  await send(page, "nest");
  await expect(conversation(page).getByText("Done nesting.")).toBeVisible({ timeout: 20_000 });
  const head = cards(page).first().locator("> button.head");
  await expect(head).toContainText("nested calls");
  const status = head.locator(".status");
  await expect(status).toHaveText(/\S/);
  // The summary gives way (an ellipsis), not the state at the end of the line.
  expect(await status.evaluate((el) => el.getBoundingClientRect().right <= el.closest("button")!.getBoundingClientRect().right + 0.5)).toBe(true);
});

test("a prompt an extension handles starts no run, and nothing is left waiting", async ({ page, pier }) => {
  await page.goto(pier.url);
  await send(page, "/probe-handled");
  await expect(page.getByText("probe-handled: consumed, no run")).toBeVisible();
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  await expect(page.getByRole("textbox", { name: "Prompt" })).toHaveValue("");
  // The next prompt runs as usual.
  await send(page, "hello");
  await expect(conversation(page).getByText("Plain answer.")).toBeVisible();
});
