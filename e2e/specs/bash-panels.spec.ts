// Terminal panels: shell commands run with pi's RPC `bash` (not the model's
// tool), one panel each, output in xterm.js, results from pi's response.
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";

async function openTerminal(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await page.getByRole("button", { name: "Show terminal" }).click();
  await expect(page.getByRole("region", { name: "Terminal" })).toBeVisible();
}

async function run(page: Page, command: string, options: { exclude?: boolean } = {}): Promise<Locator> {
  const input = page.getByRole("textbox", { name: "Shell command" });
  await input.fill(command);
  const exclude = page.getByRole("checkbox", { name: "Exclude from context" });
  await exclude.setChecked(options.exclude === true);
  await input.press("Enter");
  await expect(input).toHaveValue("");
  return panel(page, command);
}

const panel = (page: Page, command: string) => page.getByRole("region", { name: `Command ${command}`, exact: true });
const rows = (panel: Locator) => panel.locator(".xterm-rows");
const state = (panel: Locator) => panel.getByRole("status", { name: /^State:/ });

test("a command gets its own panel: streamed output in a terminal, exit code, context note", async ({ page, pier }) => {
  await openTerminal(page, pier.url);

  const listing = await run(page, "printf '\\033[32mgreen\\033[0m\\n'; ls");
  await expect(state(listing)).toHaveText("exit 0");
  await expect(rows(listing)).toContainText("green");
  await expect(rows(listing)).toContainText("README.md");
  // pi 0.87.1 strips ANSI escapes from RPC bash output, so "green" arrives
  // uncoloured; the terminal's own exit line shows ANSI colour does render.
  const green = rows(listing).locator("span", { hasText: /^green$/ });
  await expect(green).toHaveCount(1);
  await expect(green).not.toHaveAttribute("class", /xterm-fg-/);
  await expect(rows(listing).locator("span.xterm-dim", { hasText: "[exit 0]" })).toBeVisible();

  const failing = await run(page, "echo oops >&2; exit 3");
  await expect(state(failing)).toHaveText("exit 3");
  await expect(rows(failing)).toContainText("oops");
  await expect(rows(failing).locator("span.xterm-fg-1", { hasText: "[exit 3]" })).toBeVisible();

  // The output joins the model's context with the next prompt…
  await expect(listing.getByText("Joins context with next prompt")).toBeVisible();
  const excluded = await run(page, "echo private", { exclude: true });
  await expect(state(excluded)).toHaveText("exit 0");
  await expect(excluded.getByText("Excluded from context")).toBeVisible();

  // …and is marked once a prompt carried it.
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("Hello there");
  await prompt.press("Enter");
  await expect(listing.getByText("Sent to the model")).toBeVisible();
  await expect(failing.getByText("Sent to the model")).toBeVisible();
  await expect(excluded.getByText("Excluded from context")).toBeVisible();

  // The transcript shows the commands where pi stored them, as shell commands the person ran.
  const ran = page.getByRole("log", { name: "Conversation" }).getByRole("region", { name: "Shell command you ran" });
  await expect(ran.filter({ hasText: "exit 3" })).toContainText("echo oops");
  await expect(ran.filter({ hasText: "echo private" })).toContainText(/not sent/i);
});

test("the dock's top edge resizes it, by keyboard and by dragging, within its bounds", async ({ page, pier }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openTerminal(page, pier.url);
  const dock = page.getByRole("region", { name: "Terminal" });
  const edge = page.getByRole("separator", { name: "Resize terminal" });
  const height = async () => Math.round((await dock.boundingBox())!.height);
  const before = await height();
  await expect(edge).toHaveAttribute("aria-valuenow", String(before));
  await edge.focus();
  await page.keyboard.press("ArrowUp");
  await expect.poll(height).toBe(before + 24);
  await page.keyboard.press("Shift+ArrowDown");
  await expect.poll(height).toBe(before + 24 - 96);
  // Dragged up past 80% of the window: it stops there.
  const box = (await edge.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, 10, { steps: 5 });
  await page.mouse.up();
  await expect.poll(height).toBe(Math.round(900 * 0.8));
});

test("two commands run at once; Abort cancels the running one, the other still exits 0", async ({ page, pier }) => {
  await openTerminal(page, pier.url);

  const slow = await run(page, "sleep 30");
  const quick = await run(page, "sleep 3; echo done");
  await expect(state(slow)).toHaveText("running");
  await expect(state(quick)).toHaveText("running");
  // While both run, the abort control says it stops both (pi's abort_bash has no target).
  await expect(slow.getByRole("button", { name: "Abort all 2" })).toBeVisible();

  await expect(state(quick)).toHaveText("exit 0");
  await expect(rows(quick)).toContainText("done");
  await expect(state(slow)).toHaveText("running");

  await slow.getByRole("button", { name: "Abort", exact: true }).click();
  await expect(state(slow)).toHaveText("cancelled");
  await expect(rows(slow)).toContainText("^C cancelled");
  await expect(state(quick)).toHaveText("exit 0");
});

test("a reload rebuilds the panels from the replay: commands, output, results; closed ones stay closed", async ({ page, pier }) => {
  await openTerminal(page, pier.url);
  const listing = await run(page, "printf 'one\\ntwo\\n'; ls");
  await expect(state(listing)).toHaveText("exit 0");
  const failing = await run(page, "exit 3");
  await expect(state(failing)).toHaveText("exit 3");
  const aborted = await run(page, "sleep 30");
  await expect(state(aborted)).toHaveText("running");
  await aborted.getByRole("button", { name: "Abort" }).click();
  await expect(state(aborted)).toHaveText("cancelled");
  const closed = await run(page, "echo close me");
  await expect(state(closed)).toHaveText("exit 0");
  await closed.getByRole("button", { name: "Close panel" }).click();
  await expect(closed).toHaveCount(0);
  const excluded = await run(page, "echo private", { exclude: true });
  await expect(state(excluded)).toHaveText("exit 0");

  await page.reload();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  // The dock stays open and every panel comes back from pi's replayed stdout.
  await expect(page.getByRole("region", { name: "Terminal" })).toBeVisible();
  await expect(state(listing)).toHaveText("exit 0");
  await expect(rows(listing)).toContainText("two");
  await expect(rows(listing)).toContainText("README.md");
  await expect(state(failing)).toHaveText("exit 3");
  await expect(state(aborted)).toHaveText("cancelled");
  await expect(excluded.getByText("Excluded from context")).toBeVisible();
  await expect(closed).toHaveCount(0);
  await expect(page.getByRole("region", { name: /^Command / })).toHaveCount(4);
});

test.describe("phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the terminal opens as a full-screen sheet", async ({ page, pier }) => {
    await openTerminal(page, pier.url);
    const dock = page.getByRole("region", { name: "Terminal" });
    await expect(dock).toHaveCSS("position", "fixed");
    const box = await dock.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
    const listing = await run(page, "ls");
    await expect(rows(listing)).toContainText("README.md");
    await page.getByRole("button", { name: "Hide terminal" }).click();
    await expect(dock).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Show terminal" })).toContainText("1");
  });
});
