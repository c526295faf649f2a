import type { Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";

test.use({ scenarioName: "retry-compaction" });

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });

async function sendPrompt(page: Page, text: string): Promise<void> {
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill(text);
  await prompt.press("Enter");
}

test("a failed model call shows a live retry countdown where it happened, then the retried answer", async ({ page, pier }) => {
  await page.goto(pier.url);
  await sendPrompt(page, "Please answer even if the provider is overloaded");
  const waiting = conversation(page).getByText(/Retrying in \d s \(attempt 1 of \d\)/);
  await expect(waiting).toBeVisible();
  const first = await waiting.textContent();
  // The countdown is live: the number goes down while pi waits.
  await expect(waiting).not.toHaveText(first ?? "", { timeout: 3000 });
  await expect(conversation(page).getByText("529")).toBeVisible();
  await expect(conversation(page).getByText("Recovered after one retry.")).toBeVisible({ timeout: 15_000 });
  await expect(conversation(page).getByText("The retry worked (attempt 1).")).toBeVisible();
  await expect(page.getByRole("status", { name: /^Agent:/ })).toHaveAccessibleName("Agent: Idle");
});

test("Compact now summarises the conversation and the transcript says so in words", async ({ page, pier }) => {
  await page.goto(pier.url);
  // Each answer streams in ~0.1 s: wait for it whole and the agent idle (a
  // glimpse of "Working" that short is easily missed between two polls).
  for (const [i, text] of ["First question", "Second question"].entries()) {
    await sendPrompt(page, text);
    await expect(conversation(page).getByRole("article", { name: "pi" })).toHaveCount(i + 1);
    await expect(conversation(page).getByRole("article", { name: "pi" }).nth(i)).toContainText("doubles as the compaction summary.");
    await expect(page.getByRole("status", { name: /^Agent:/ })).toHaveAccessibleName("Agent: Idle");
  }
  await page.getByRole("button", { name: "Session settings" }).click();
  await page.getByRole("button", { name: "Compact now" }).click();
  await expect(conversation(page).getByText(/Conversation compacted on request/)).toBeVisible();
  const summary = conversation(page).getByRole("region", { name: "Conversation compacted" });
  await expect(summary).toBeVisible();
  // The usage meter must not claim 0 tokens right after a compaction.
  await expect(page.getByRole("button", { name: /^Usage: context unknown/ })).toBeVisible();
  // It was announced, once.
  await expect(page.getByRole("status").filter({ hasText: /^Conversation compacted on request/ })).toHaveCount(1);

  // What left the model's context is still there, collapsed above the summary.
  const history = conversation(page)
    .getByRole("group")
    .filter({ hasText: /Earlier conversation: \d+ messages? before the compaction/ });
  await expect(history).toBeVisible();
  await expect(history.getByText("First question")).toBeHidden();
  await history.getByText(/Earlier conversation/).click();
  await expect(history.getByRole("article", { name: "You" }).first()).toHaveText("First question");
  // Reloading keeps it (rebuilt from pi's entries), and announces nothing again.
  await page.reload();
  await expect(conversation(page).getByRole("region", { name: "Conversation compacted" })).toBeVisible();
  await expect(
    conversation(page)
      .getByRole("group")
      .filter({ hasText: /Earlier conversation/ }),
  ).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Conversation compacted on request/ })).toHaveCount(0);
});
