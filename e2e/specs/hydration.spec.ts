// A session whose load answer is a long line (5,000 messages: a 2 MB
// get_entries answer), loaded for real: the page parses it in its worker
// (web/src/lib/relay/long-line.worker.ts, under pier's CSP), puts the slices
// back together and opens at the end; the inspector still holds the answer,
// and a prompt after it is answered in the same transcript.
import type { Page } from "@playwright/test";
import { expect, longSessionPiArgs, test } from "../support/pier.ts";

const MESSAGES = 5000;

test.use({ scenarioName: "long-session", piArgs: longSessionPiArgs(MESSAGES) });

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });

test("a session whose answer is a long line is parsed in a worker and opens at its end", async ({ page, pier }) => {
  test.setTimeout(120_000);
  const workers: string[] = [];
  page.on("worker", (worker) => workers.push(worker.url()));
  const refused: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();

  const lastAnswer = conversation(page).getByRole("article", { name: "pi" }).last();
  await expect(lastAnswer).toContainText(`Answer ${MESSAGES / 2}.`, { timeout: 60_000 });
  await expect(lastAnswer).toBeInViewport();
  expect(workers.some((url) => /long-line\.worker/.test(url))).toBe(true);
  expect(refused).toEqual([]);

  // The answer is in the inspector's records, kept parsed (not as 2 MB of text).
  await page.getByRole("button", { name: "Protocol inspector", exact: true }).click();
  const inspector = page.getByRole("complementary", { name: "Protocol inspector" });
  await expect(
    inspector
      .getByRole("listbox", { name: "Records" })
      .getByRole("option", { name: /get_entries ✓/ })
      .first(),
  ).toBeVisible();
  await page.getByRole("button", { name: "Protocol inspector", exact: true }).click();

  // The composer works, and a new answer follows the loaded session.
  const prompt = page.getByRole("textbox", { name: /prompt|message/i }).first();
  await prompt.fill("Keep going with the next step");
  await prompt.press("Enter");
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("End of the long answer.", { timeout: 60_000 });
});

test("where the worker cannot load, the page parses the long line itself and still opens at its end", async ({ page, pier }) => {
  test.setTimeout(120_000);
  const failed: string[] = [];
  page.on("requestfailed", (request) => {
    if (/long-line\.worker/.test(request.url())) failed.push(request.url());
  });
  await page.context().route(/long-line\.worker-[^/]*\.js$/, (route) => route.abort());
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();

  const lastAnswer = conversation(page).getByRole("article", { name: "pi" }).last();
  await expect(lastAnswer).toContainText(`Answer ${MESSAGES / 2}.`, { timeout: 60_000 });
  await expect(lastAnswer).toBeInViewport();
  expect(failed).toHaveLength(1);
  // No alert: nothing was lost, the page did the work itself.
  await expect(page.getByRole("alert")).toHaveCount(0);
});
