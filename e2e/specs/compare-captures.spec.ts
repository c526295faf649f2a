// Compare captures: the same prompt (six tool calls) recorded in the
// inspector against a real pi 0.87.1 and a real pi 1.6.0, each behind its own
// pier; then `pier replay` plays the 0.87.1 one and "Compare with…" opens the
// 1.6.0 one beside it. What 1.6.0 added on the wire shows as a difference
// (agent_settled's aborted, the prompt answer's data.disposition, a tool's
// durationMs) and the records both send alike are not flagged. A file that is
// no capture is refused in words that name it. `pier replay A B` opens the
// player on A with that comparison already open.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { startPier, startPierReplay, type RunningPier } from "../../relay/test/support/pier-process.ts";
import { piArgsForVersion } from "../../relay/test/support/pi-under-test.ts";
import { expectAccessible } from "../support/accessible.ts";
import { expect, scenario, test } from "../support/pier.ts";

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const inspector = (page: Page) => page.getByRole("complementary", { name: "Protocol inspector" });
const replayBar = (page: Page) => page.getByRole("region", { name: "Replay" });
const compareView = (page: Page) => page.getByRole("dialog", { name: "Compare captures" });
const rows = (page: Page) => compareView(page).getByRole("listbox", { name: "Aligned records" }).getByRole("option");

/** Records "Use the tools please" against a pier's pi in the inspector, and saves the capture. */
async function recordCapture(page: Page, pier: RunningPier, path: string): Promise<string> {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await page.getByRole("button", { name: "Protocol inspector" }).click();
  await inspector(page).getByRole("button", { name: "Record the wire" }).click();
  await expect(inspector(page).getByRole("button", { name: "Stop recording" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await expect(prompt).toBeEnabled();
  await prompt.fill("Use the tools please");
  await prompt.press("Enter");
  await expect(conversation(page).getByText("Done: Spanish is now supported")).toBeVisible({ timeout: 45_000 });
  // Idle comes with agent_settled: the run is in the capture to its end.
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
  const download = page.waitForEvent("download");
  await inspector(page).getByRole("button", { name: "Stop recording" }).click();
  await (await download).saveAs(path);
  return readFile(path, "utf8");
}

/**
 * Selects `row` from the keyboard: unless it is in the page already (only
 * the rows on screen and a few around are), Home, then Page Down until it
 * is, then ↑/↓ onto it.
 */
async function selectRow(page: Page, row: Locator): Promise<void> {
  const list = compareView(page).getByRole("listbox", { name: "Aligned records" });
  if ((await row.count()) === 0) {
    await list.press("Home");
    for (let i = 0; i < 200 && (await row.count()) === 0; i++) await list.press("PageDown");
  }
  expect(await row.count(), "the row is in the page").toBeGreaterThan(0);
  const target = Number(await row.first().getAttribute("data-index"));
  const current = Number((await list.getAttribute("aria-activedescendant"))?.replace("compare-row-", ""));
  for (let i = 0; i < Math.abs(target - current); i++) await list.press(target > current ? "ArrowDown" : "ArrowUp");
  await expect(row.first()).toHaveAttribute("aria-selected", "true");
}

// Recorded once for the file's tests (a worker started again after a failure records them again).
let oldPath = "";
let newPath = "";
test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const dir = await mkdtemp(join(tmpdir(), "pier-compare-captures-"));
  oldPath = join(dir, "pi-0.87.1.jsonl");
  newPath = join(dir, "pi-1.6.0.jsonl");
  for (const [version, path] of [
    ["0.87.1", oldPath],
    ["1.6.0", newPath],
  ] as const) {
    const pier = await startPier(["--demo", "--demo-scenario", scenario("tools"), ...piArgsForVersion(version)]);
    const context = await browser.newContext();
    try {
      const text = await recordCapture(await context.newPage(), pier, path);
      // The hello in the capture names the pi that ran.
      expect(JSON.parse(text.split("\n")[1]!).f.pi.version).toBe(version);
    } finally {
      await context.close();
      await pier.stop();
    }
  }
});
test.afterAll(async () => {
  if (oldPath !== "") await rm(dirname(oldPath), { recursive: true, force: true });
});

test("the same prompt against pi 0.87.1 and 1.6.0, compared side by side", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const replay = await startPierReplay(oldPath);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(replay.url);
    await expect(replayBar(page)).toContainText("Replaying pi-0.87.1.jsonl");

    // Not a capture: refused, naming the file.
    await replayBar(page)
      .getByLabel("Capture to compare with")
      .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("just some notes\n") });
    await expect(page.getByRole("alert").filter({ hasText: "notes.txt cannot be compared: Line 1 is not JSON: this is not a Pier capture file." })).toBeVisible();
    await expect(compareView(page)).toHaveCount(0);

    await expect(replayBar(page).getByRole("button", { name: "Compare with…" })).toBeEnabled();
    await replayBar(page).getByLabel("Capture to compare with").setInputFiles(newPath);
    const view = compareView(page);
    await expect(view).toBeVisible();
    await expect(view).toContainText("A: pi-0.87.1.jsonl (pi 0.87.1");
    await expect(view).toContainText("B: pi-1.6.0.jsonl (pi 1.6.0");

    // The summary names what 1.6.0 added.
    const summary = view.getByRole("list", { name: "Differences" });
    await expect(summary).toContainText(/\d+ fields? only in B/);
    await expect(summary).toContainText(/of [\d,]+ rows the same/);
    await view.getByText("Which fields").click();
    const fields = view.getByRole("list", { name: "Fields that differ" });
    await expect(fields.getByRole("listitem").filter({ hasText: "agent_settled › aborted only in B" })).toHaveCount(1);
    await expect(fields.getByRole("listitem").filter({ hasText: "response prompt › data only in B" })).toHaveCount(1);
    await expect(fields.getByRole("listitem").filter({ hasText: "tool_execution_end › durationMs only in B" })).toHaveCount(1);
    // What both send alike is not among them.
    await expect(fields.getByRole("listitem").filter({ hasText: /agent_start|turn_start|timestamp/ })).toHaveCount(0);
    await view.getByText("Which fields").click();

    // Both sides ran one prompt: one run faces the other.
    await expect(rows(page).filter({ hasText: /^Run 1: “Use the tools please”$/ })).toHaveCount(1);
    // The records both send alike are aligned and not flagged.
    await expect(rows(page).filter({ hasText: /^↑ prompt\s+↑ prompt\s*: same$/ })).toHaveCount(1);
    await expect(
      rows(page)
        .filter({ hasText: /^agent_start\s+agent_start\s*: same$/ })
        .first(),
    ).toBeVisible();
    await expect(
      rows(page)
        .filter({ hasText: /^turn_start\s+turn_start\s*: same$/ })
        .first(),
    ).toBeVisible();

    // The prompt's answer: 1.6.0 says what became of it (data.disposition); 0.87.1 has no data.
    // A click on a row shows it (near the top: on screen).
    const promptAnswer = rows(page).filter({ hasText: /^response prompt\s*≠\s*response prompt\s*\+1 field\s*: differs$/ });
    await promptAnswer.click();
    await expect(promptAnswer).toHaveAttribute("aria-selected", "true");
    const details = view.getByRole("region", { name: "Row details" });
    await expect(details.getByRole("list", { name: "Field differences" })).toHaveText("data only in B");
    await expect(details.getByLabel("Record in B")).toContainText('"disposition": "started"');
    await expect(details.getByLabel("Record in A")).not.toContainText("disposition");
    // Values (the command ids of two pages) are no difference until asked for.
    await expect(details.getByRole("table", { name: "Values that differ" })).toHaveCount(0);
    await details.getByRole("button", { name: "Show values that differ" }).click();
    await expect(details.getByRole("table", { name: "Values that differ" }).getByRole("row", { name: /^id / })).toHaveCount(1);

    // Differences only: the identical rows go; a tool's end (1.6.0 times it) and agent_settled (aborted, pi ≥ 1.1) stay.
    await view.getByRole("checkbox", { name: "Differences only" }).check();
    await expect(rows(page).filter({ hasText: /: same$/ })).toHaveCount(0);
    const toolEnd = rows(page)
      .filter({ hasText: /^tool_execution_end\s*≠\s*tool_execution_end\s*\+1 field\s*: differs$/ })
      .first();
    await selectRow(page, toolEnd);
    await expect(details.getByRole("list", { name: "Field differences" })).toHaveText("durationMs only in B");
    const settled = rows(page).filter({ hasText: /^agent_settled\s*≠\s*agent_settled\s*\+1 field\s*: differs$/ });
    await selectRow(page, settled);
    await expect(details.getByRole("list", { name: "Field differences" })).toHaveText("aborted only in B");
    await expect(details.getByLabel("Record in B")).toContainText('"aborted": false');
    await details.getByRole("button", { name: "Show values that differ" }).click();
    await expect(details.getByText("No value differs.")).toBeVisible();

    // The view, not the replayed page at record 0 behind it (its first screen: accessibility.spec).
    await expectAccessible(page, "compare view, a row open", ["scrollable-region-focusable"], ["main"]);
    await page.emulateMedia({ colorScheme: "light" });
    await page.screenshot({ path: testInfo.outputPath("compare-1440x900.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(details).toBeVisible();
    await selectRow(page, settled);
    await page.screenshot({ path: testInfo.outputPath("compare-390x844.png") });

    // A file dropped on the view replaces B: one that is no capture is refused there, naming it.
    const drop = (name: string, content: string) =>
      view.evaluate(
        (element, { name, content }) => {
          const data = new DataTransfer();
          data.items.add(new File([content], name, { type: "application/x-ndjson" }));
          for (const type of ["dragenter", "dragover", "drop"]) element.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
        },
        { name, content },
      );
    const oldText = await readFile(oldPath, "utf8");
    await drop("broken.jsonl", oldText.split("\n").toSpliced(2, 0, "{not json").join("\n"));
    await expect(view.getByRole("alert")).toHaveText("broken.jsonl cannot be compared: Line 3: not JSON.");
    await expect(view).toContainText("B: pi-1.6.0.jsonl");
    // A shorter B while a row is open whose records lie past its end: B is replaced, the row closes.
    await expect(details).toBeVisible();
    await drop("short.jsonl", `${oldText.split("\n").slice(0, 12).join("\n")}\n`);
    await expect(view).toContainText("B: short.jsonl (pi 0.87.1");
    await expect(details).toHaveCount(0);
    await expect(view.getByRole("button", { name: "Another B…" })).toBeEnabled();
    // The same capture as B: nothing differs.
    await drop("same.jsonl", oldText);
    await expect(view).toContainText("B: same.jsonl (pi 0.87.1");
    await expect(view.getByRole("alert")).toHaveCount(0);
    await expect(summary.getByRole("listitem")).toHaveCount(1);
    await expect(summary).toHaveText(/^([\d,]+) of \1 rows the same$/);
    await expect(rows(page).filter({ hasText: /: (differs|only in [AB])$/ })).toHaveCount(0);

    // Esc closes the view; the replay is as it was.
    await page.keyboard.press("Escape");
    await expect(view).toHaveCount(0);
    await expect(replayBar(page)).toContainText("Replaying pi-0.87.1.jsonl");
    await expect(replayBar(page).getByRole("button", { name: "Compare with…" })).toBeFocused();
    await replayBar(page).screenshot({ path: testInfo.outputPath("replay-bar-390.png") });
  } finally {
    await context.close();
    await replay.stop();
  }
});

test("pier replay A B opens A with the comparison of A and B already open; closed, A plays and Compare with… still picks", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const replay = await startPierReplay(oldPath, { compareWith: newPath });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(replay.url);
    const view = compareView(page);
    await expect(view).toBeVisible();
    await expect(view).toContainText("A: pi-0.87.1.jsonl (pi 0.87.1");
    await expect(view).toContainText("B: pi-1.6.0.jsonl (pi 1.6.0");
    // What 1.6.0 added is highlighted, as when B is picked by hand.
    await expect(view.getByRole("list", { name: "Differences" })).toContainText(/\d+ fields? only in B/);
    await expect(rows(page).filter({ hasText: /^response prompt\s*≠\s*response prompt\s*\+1 field\s*: differs$/ })).toHaveCount(1);
    await expect(rows(page).filter({ hasText: /^↑ prompt\s+↑ prompt\s*: same$/ })).toHaveCount(1);
    await page.screenshot({ path: testInfo.outputPath("replay-two-1440x900.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(view).toContainText("B: pi-1.6.0.jsonl");
    await page.screenshot({ path: testInfo.outputPath("replay-two-390x844.png") });
    await page.setViewportSize({ width: 1440, height: 900 });

    // Closed: A's player, which plays.
    await view.getByRole("button", { name: "Close", exact: true }).click();
    await expect(view).toHaveCount(0);
    await expect(replayBar(page)).toContainText("Replaying pi-0.87.1.jsonl");
    await expect(replayBar(page).getByRole("button", { name: "Compare with…" })).toBeFocused();
    await replayBar(page).getByRole("combobox", { name: "Speed" }).selectOption("max");
    await replayBar(page).getByRole("button", { name: "Play", exact: true }).click();
    await expect(conversation(page).getByText("Done: Spanish is now supported")).toBeVisible({ timeout: 30_000 });
    // It does not come back by itself, and Compare with… picks as before.
    await expect(view).toHaveCount(0);
    await replayBar(page).getByLabel("Capture to compare with").setInputFiles(newPath);
    await expect(view).toBeVisible();
    await expect(view).toContainText("B: pi-1.6.0.jsonl (pi 1.6.0");
  } finally {
    await context.close();
    await replay.stop();
  }
});

test("pier replay A B with a B that breaks past its header: Cannot compare, naming it, and A plays", async ({ browser }, testInfo) => {
  test.setTimeout(60_000);
  // Its first line is a capture header, so pier serves it; the page reads it all and refuses it.
  const broken = testInfo.outputPath("broken.jsonl");
  await writeFile(broken, (await readFile(newPath, "utf8")).split("\n").toSpliced(2, 0, "{not json").join("\n"));
  const replay = await startPierReplay(oldPath, { compareWith: broken });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(replay.url);
    await expect(page.getByRole("alert").filter({ hasText: "broken.jsonl cannot be compared: Line 3: not JSON." })).toBeVisible();
    await expect(compareView(page)).toHaveCount(0);
    await expect(replayBar(page)).toContainText("Replaying pi-0.87.1.jsonl");
    await expect(replayBar(page).getByRole("button", { name: "Compare with…" })).toBeEnabled();
    await replayBar(page).getByRole("combobox", { name: "Speed" }).selectOption("max");
    await replayBar(page).getByRole("button", { name: "Play", exact: true }).click();
    await expect(conversation(page).getByText("Done: Spanish is now supported")).toBeVisible({ timeout: 30_000 });
  } finally {
    await context.close();
    await replay.stop();
  }
});
