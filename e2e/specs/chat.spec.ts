import type { Page } from "@playwright/test";
import { expect, test, UI_ONLY } from "../support/pier.ts";

async function sendPrompt(page: Page, text: string): Promise<void> {
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill(text);
  await prompt.press("Enter");
}

const agent = (page: Page) => page.getByRole("status", { name: /^Agent:/ });
const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });

test("a prompt streams an answer live, then the agent settles", async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  await expect(page.getByText("Pier demo model").first()).toBeVisible();

  await sendPrompt(page, "Hello there");
  await expect(conversation(page).getByRole("article", { name: "You" })).toContainText("Hello there");
  // While pi streams, the page says so and offers the streaming controls.
  await expect(agent(page)).toHaveAccessibleName("Agent: Working");
  await expect(page.getByRole("button", { name: "Abort" })).toBeVisible();
  const answer = conversation(page).getByRole("article", { name: "pi" }).last();
  await expect(answer).toContainText("Hello from the scripted model!");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  await expect(answer).toHaveAttribute("aria-busy", "false");
  // The thought is there, collapsed.
  await expect(answer.getByText("Thought")).toBeVisible();
  await expect(answer.getByText("answer briefly")).toBeHidden();

  // The protocol inspector (closed until opened) saw the whole run, ending with agent_settled.
  await page.getByRole("button", { name: "Protocol inspector" }).click();
  const log = page.getByRole("complementary", { name: "Protocol inspector" });
  await expect(log.getByRole("option").filter({ hasText: /^↓\s*[\d:.]+\s*agent_settled/ })).toBeVisible();
});

test("Shift+Enter writes a new line instead of sending", UI_ONLY, async ({ page, pier }) => {
  await page.goto(pier.url);
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("first line");
  await prompt.press("Shift+Enter");
  await prompt.pressSequentially("second line");
  await expect(prompt).toHaveValue("first line\nsecond line");
  await expect(conversation(page).getByRole("article", { name: "You" })).toHaveCount(0);
  await prompt.press("Enter");
  await expect(conversation(page).getByRole("article", { name: "You" })).toContainText("second line");
});

test.describe("mid-answer", () => {
  test.use({ scenarioName: "long-answer" });

  test("a reload mid-answer loses nothing and stays authorized", async ({ page, pier }) => {
    await page.goto(pier.url);
    await sendPrompt(page, "Count for me");
    const answer = conversation(page).getByRole("article", { name: "pi" }).last();
    await expect(answer).toContainText("four, five");
    await page.reload();
    // Same cookie, no token in the URL any more: still authorized.
    expect(page.url()).not.toContain("token=");
    await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
    await expect(conversation(page).getByRole("article", { name: "You" })).toContainText("Count for me");
    const rebuilt = conversation(page).getByRole("article", { name: "pi" }).last();
    await expect(rebuilt).toContainText("Counting slowly: one, two");
    await expect(agent(page)).toHaveAccessibleName("Agent: Working");
    await expect(rebuilt).toContainText("Done counting.", { timeout: 20_000 });
    await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  });

  test("Esc aborts the stream and the answer says it was stopped", async ({ page, pier }) => {
    await page.goto(pier.url);
    await sendPrompt(page, "Count for me");
    const answer = conversation(page).getByRole("article", { name: "pi" }).last();
    await expect(answer).toContainText("three");
    await page.keyboard.press("Escape");
    await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
    await expect(answer.getByRole("note")).toContainText("Stopped");
    await expect(answer).not.toContainText("Done counting.");
  });

  test("a follow-up typed while streaming is queued, shown, then answered", async ({ page, pier }) => {
    await page.goto(pier.url);
    await sendPrompt(page, "Count for me");
    await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("two");
    await page.getByRole("textbox", { name: "Prompt" }).fill("And then?");
    await page.getByRole("button", { name: "Follow-up" }).click();
    await expect(page.getByRole("list", { name: "Queued messages" })).toContainText("And then?");
    await expect(conversation(page).getByText("Short answer to a later prompt.")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("list", { name: "Queued messages" })).toHaveCount(0);
    await expect(conversation(page).getByRole("article", { name: "You" })).toHaveCount(2);
  });

  test("while streaming, Enter does what the person chose last (steer or follow-up)", async ({ page, pier }) => {
    await page.goto(pier.url);
    await sendPrompt(page, "Count for me");
    await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("two");
    const prompt = page.getByRole("textbox", { name: "Prompt" });
    await prompt.fill("Later, please");
    await page.getByRole("button", { name: "Follow-up" }).click();
    const queue = page.getByRole("list", { name: "Queued messages" });
    await expect(queue).toContainText("Later, please");
    // Enter now queues a follow-up too, and the hint says so.
    await expect(page.getByText("Enter follow-up")).toBeVisible();
    await prompt.fill("And after that");
    await prompt.press("Enter");
    await expect(queue.getByRole("listitem").filter({ hasText: "And after that" })).toContainText("Follow-up");
  });
});
