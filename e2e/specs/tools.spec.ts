import type { Locator, Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";

// e2e/scenarios/tools.json: one prompt makes the scripted model call bash
// (ANSI colours, streamed), bash again (prints markup, exits 3), read, write,
// a failing edit (oldText not in the file) and a working one.

test.use({ scenarioName: "tools" });

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const cards = (page: Page) => conversation(page).getByRole("group", { name: /^Tool call: / });
const head = (card: Locator) => card.locator("> button.head");

async function expand(card: Locator): Promise<void> {
  await head(card).click();
  await expect(head(card)).toHaveAttribute("aria-expanded", "true");
}

test.beforeEach(async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("Use the tools please");
  await prompt.press("Enter");
  await expect(conversation(page).getByText("Done: Spanish is now supported")).toBeVisible({ timeout: 30_000 });
  await expect(cards(page)).toHaveCount(6);
});

test("bash cards: one collapsed line, ANSI colours, exit status, escaped output", async ({ page }) => {
  const [colors, failing] = [cards(page).nth(0), cards(page).nth(1)];

  // Collapsed: tool, command, state in words; the body is not rendered.
  await expect(head(colors)).toContainText("bash");
  await expect(head(colors)).toContainText("printf");
  await expect(head(colors)).toContainText("done");
  await expect(head(colors)).toHaveAttribute("aria-expanded", "false");
  await expect(colors.getByLabel("Output")).toHaveCount(0);

  await expand(colors);
  const output = colors.getByLabel("Output");
  await expect(output.locator("span.ansi-red-fg")).toHaveText("red");
  await expect(output.locator("span.ansi-green-fg")).toHaveText("bold green");
  await expect(output).toContainText("step 3");
  await expect(output).not.toContainText("\u001b");
  await expect(colors.getByText("Exit code 0")).toBeVisible();

  // A failing command is visibly a failure, and what it printed stays text.
  await expect(failing).toHaveAttribute("data-state", "failed");
  await expect(head(failing)).toContainText("exit 3");
  await expect(head(failing)).toContainText("failed");
  await expand(failing);
  await expect(failing.getByLabel("Output")).toHaveText("<script>window.__pwned = 1</script>");
  await expect(failing.locator("script")).toHaveCount(0);
  await expect(failing.getByText("Exit code 3")).toBeVisible();
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});

test("read and write cards: path, range, highlighted content, clickable path", async ({ page }) => {
  const [read, write] = [cards(page).nth(2), cards(page).nth(3)];

  await expect(head(read)).toContainText("read");
  await expect(head(read)).toContainText("src/greet.js");
  await expect(head(read)).toContainText("lines 1–12");
  await expect(head(read)).toContainText("done");
  await expand(read);
  const content = read.getByRole("region", { name: "Content of src/greet.js" });
  await expect(content).toHaveAttribute("data-highlighted", "true");
  await expect(content.locator(".hljs-keyword").first()).toHaveText("import");
  await expect(content).toContainText("export function greet(name, language = DEFAULT_LANGUAGE)");
  await expect(read.getByText("5 more lines in file")).toBeVisible();

  await expect(head(write)).toContainText("src/farewell.js");
  await expect(head(write)).toContainText("4 lines");
  await expand(write);
  const written = write.getByRole("region", { name: "Content written to src/farewell.js" });
  await expect(written).toHaveAttribute("data-highlighted", "true");
  await expect(written.locator(".hljs-title").first()).toHaveText("farewell");
  // A write opens as a diff too (the demo copy is no git repo: against an empty file).
  await write.getByRole("button", { name: "Open diff" }).click();
  await expect(page.getByRole("tablist", { name: "Open editors" }).getByRole("tab", { name: /farewell\.js \(pi's write, new file\)/ })).toBeVisible();

  // The path opens the file in the editor.
  await read.getByRole("button", { name: "src/greet.js", exact: true }).click();
  await expect(page.getByRole("tablist", { name: "Open editors" }).getByRole("tab", { name: /greet\.js/ })).toBeVisible();
});

test("edit cards: a failed edit is shown as failed, a working one as a diff", async ({ page }) => {
  const [failed, applied] = [cards(page).nth(4), cards(page).nth(5)];

  await expect(failed).toHaveAttribute("data-state", "failed");
  await expect(head(failed)).toContainText("src/greetings.js");
  await expect(head(failed)).toContainText("failed");
  await expand(failed);
  await expect(failed.getByText("Edit not applied")).toBeVisible();
  await expect(failed.getByText("Could not find the exact text in src/greetings.js")).toBeVisible();
  await expect(failed.getByText("Proposed change (not applied)")).toBeVisible();
  await expect(failed.getByRole("button", { name: "Open diff" })).toHaveCount(0);

  await expect(applied).toHaveAttribute("data-state", "done");
  await expect(head(applied)).toContainText("+1");
  await expect(head(applied)).toContainText("done");
  await expand(applied);
  // pi's own patch, with the file's line numbers.
  const diff = applied.getByRole("table", { name: "Changes to src/greetings.js" });
  await expect(diff.locator('[data-kind="hunk"]')).toHaveText("@@ -3,7 +3,8 @@");
  await expect(diff.locator('[data-kind="add"]')).toHaveCount(1);
  await expect(diff.locator('[data-kind="add"]')).toContainText('es: "¡Hola, {name}!",');
  await expect(diff.locator('[data-kind="add"] .no').nth(1)).toHaveText("7");
  await expect(diff.locator('[data-kind="del"]')).toHaveCount(0);

  await applied.getByRole("button", { name: "Open diff" }).click();
  await expect(page.getByRole("tablist", { name: "Open editors" }).getByRole("tab", { name: /pi's edit/ })).toBeVisible();
});
