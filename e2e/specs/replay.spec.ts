// Record and replay: a real session (a prompt, six tool calls, an extension
// dialog) recorded from the inspector and downloaded; then the capture is
// played with no pi at all (`pier replay FILE`) and dropped onto a live page,
// and the page rebuilds as it was, record by record. A corrupt capture is
// refused in words.
import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { startPierReplay, type RunningPier } from "../../relay/test/support/pier-process.ts";
import { expectAccessible } from "../support/accessible.ts";
import { expect, extension, test } from "../support/pier.ts";
import { expectExtensionStatus } from "../support/extension-status.ts";

test.use({ scenarioName: "tools", piArgs: ["-e", extension("ui-probe.ts")] });
test.describe.configure({ mode: "serial" });

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const articles = (page: Page) => conversation(page).getByRole("article");
const cards = (page: Page) => conversation(page).getByRole("group", { name: /^Tool call: / });
const inspector = (page: Page) => page.getByRole("complementary", { name: "Protocol inspector" });
const replayBar = (page: Page) => page.getByRole("region", { name: "Replay" });
const slider = (page: Page) => replayBar(page).getByRole("slider", { name: "Position" });
const where = (page: Page) => replayBar(page).getByRole("status", { name: "Replay position" });

/** What the transcript says, element by element. */
async function transcript(page: Page): Promise<string[]> {
  return (await articles(page).allInnerTexts()).map((text) => text.trim());
}

async function seek(range: Locator, value: number): Promise<void> {
  await range.evaluate((input, v) => {
    (input as HTMLInputElement).value = String(v);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }, value);
}

/** The capture's events (header excluded), parsed. */
function events(text: string): { t: number; k: string; b?: string; f?: unknown; c?: string }[] {
  return text
    .trimEnd()
    .split("\n")
    .slice(1)
    .map((line) => JSON.parse(line));
}

let capturePath = "";
let liveTranscript: string[] = [];

test("a session recorded in the inspector replays with no pi: play to the end, scrub, step", async ({ page, pier }, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await page.getByRole("button", { name: "Protocol inspector" }).click();
  await inspector(page).getByRole("button", { name: "Record the wire" }).click();
  await expect(inspector(page).getByRole("button", { name: "Stop recording" })).toBeVisible();
  // Recording starts from a fresh connection (a hello, pi's output replayed).
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expectExtensionStatus(page, "Probe ready");

  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("Use the tools please");
  await prompt.press("Enter");
  await expect(conversation(page).getByText("Done: Spanish is now supported")).toBeVisible({ timeout: 30_000 });
  await expect(cards(page)).toHaveCount(6);
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
  await prompt.fill("/probe-confirm");
  await prompt.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Delete the scratch file?" });
  await dialog.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByLabel("Extension notifications").getByText("confirm → true", { exact: true })).toBeVisible();
  liveTranscript = await transcript(page);
  // Tools, an extension's dialog answered: a real session breaks no promise of the protocol (expert-checks.ts).
  await expect(inspector(page).getByRole("button", { name: /^Warnings only/ })).toHaveAccessibleName("Warnings only");

  const download = page.waitForEvent("download");
  await inspector(page).getByRole("button", { name: "Stop recording" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^pier-capture-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.jsonl$/);
  capturePath = testInfo.outputPath("session.jsonl");
  await file.saveAs(capturePath);

  const text = await readFile(capturePath, "utf8");
  const header = JSON.parse(text.slice(0, text.indexOf("\n")));
  expect(header).toMatchObject({ type: "pier-capture", version: 1, redacted: ["secrets"] });
  const recorded = events(text);
  // It starts with the relay's hello, holds pi's bytes, and the commands this page sent.
  expect((recorded[0]!.f as { type: string }).type).toBe("hello");
  expect(recorded.some((e) => e.k === "bytes")).toBe(true);
  expect(recorded.some((e) => e.k === "sent" && e.c!.includes('"message":"Use the tools please"'))).toBe(true);
  expect(recorded.some((e) => e.k === "sent" && e.c!.includes('"confirmed":true'))).toBe(true);

  // (a) pier replay FILE, in a page of its own.
  const replay = await startPierReplay(capturePath);
  try {
    const player = await page.context().newPage();
    await player.goto(replay.url);
    await expect(replayBar(player)).toContainText("Replaying session.jsonl");
    await expect(replayBar(player)).toContainText("Replay — read-only");
    await expect(where(player)).toContainText(`record 0 of ${recorded.length.toLocaleString("en")}`);
    // Nothing can be sent.
    await expect(player.getByRole("textbox", { name: "Prompt" })).toBeDisabled();
    // The inspector rebuilds too (it was open while recording).
    await player.getByRole("button", { name: "Protocol inspector" }).click();
    await expect(inspector(player).getByRole("button", { name: "Record the wire" })).toHaveCount(0);

    await replayBar(player).getByRole("combobox", { name: "Speed" }).selectOption("max");
    await replayBar(player).getByRole("button", { name: "Play", exact: true }).click();
    await expect(where(player)).toContainText(`record ${recorded.length.toLocaleString("en")} of ${recorded.length.toLocaleString("en")}`, { timeout: 30_000 });
    await expect(replayBar(player).getByRole("button", { name: "Play", exact: true })).toBeVisible();
    await expect.poll(() => transcript(player)).toEqual(liveTranscript);
    await expect(cards(player)).toHaveCount(6);
    // The replay bar and the rebuilt page pass axe (the records' scroller: see accessibility.spec).
    await expectAccessible(player, "replay at its end, inspector open", ["scrollable-region-focusable"]);
    const records = inspector(player).getByRole("listbox", { name: "Records" });
    await expect(records.getByRole("option").filter({ hasText: /↑\s*[\d:.]+\s*extension_ui_response\b/ })).toHaveCount(1);
    // Replayed, the same session gets the same checks, and passes them.
    await expect(inspector(player).getByRole("button", { name: /^Warnings only/ })).toHaveAccessibleName("Warnings only");
    // The dialog was answered then: it is closed now.
    await expect(player.getByRole("dialog", { name: "Delete the scratch file?" })).toHaveCount(0);

    // Back to just after the prompt was sent: the transcript shows the prompt, not the answer.
    const promptSent = recorded.findIndex((e) => e.k === "sent" && e.c!.includes('"message":"Use the tools please"'));
    const userEcho = recorded.findIndex((e, i) => i > promptSent && e.k === "bytes" && Buffer.from(e.b!, "base64").toString().includes('"role":"user"'));
    await seek(slider(player), userEcho + 1);
    await expect(where(player)).toContainText(`record ${(userEcho + 1).toLocaleString("en")} of`);
    await expect(conversation(player).getByRole("article", { name: "You" }).last()).toContainText("Use the tools please");
    await expect(conversation(player).getByText("Done: Spanish is now supported")).toHaveCount(0);
    await expect(cards(player)).toHaveCount(0);

    // The extension's dialog was open here: it is again (read-only).
    const asked = recorded.findIndex((e) => e.k === "bytes" && Buffer.from(e.b!, "base64").toString().includes('"method":"confirm"'));
    await seek(slider(player), asked + 1);
    await expect(player.getByRole("dialog", { name: "Delete the scratch file?" })).toBeVisible();
    await expect(cards(player)).toHaveCount(6);
    await expectAccessible(player, "replay with an extension's dialog open", ["scrollable-region-focusable"]);

    // Step: one record at a time.
    await replayBar(player).getByRole("button", { name: "Next record" }).click();
    await expect(where(player)).toContainText(`record ${(asked + 2).toLocaleString("en")} of`);
    await player.close();
  } finally {
    await replay.stop();
  }
});

test("a capture dropped on a live page opens the player (after asking); Exit goes back; a corrupt one is refused", async ({ page, pier }) => {
  expect(capturePath).not.toBe("");
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const text = await readFile(capturePath, "utf8");

  const drop = (name: string, content: string) =>
    page.locator("main").evaluate(
      (main, { name, content }) => {
        const data = new DataTransfer();
        data.items.add(new File([content], name, { type: "application/x-ndjson" }));
        for (const type of ["dragenter", "dragover", "drop"]) main.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      },
      { name, content },
    );

  // (c) Corrupt: the header is fine, a later line is not JSON.
  const lines = text.split("\n");
  lines.splice(3, 0, "{not json");
  await drop("broken.jsonl", lines.join("\n"));
  await expect(page.getByRole("alert").filter({ hasText: "broken.jsonl cannot be replayed: Line 4: not JSON." })).toBeVisible();
  await drop("notes.txt", "just some notes\n");
  await expect(page.getByRole("alert").filter({ hasText: "notes.txt cannot be replayed: Line 1 is not JSON: this is not a Pier capture file." })).toBeVisible();
  await expect(replayBar(page)).toHaveCount(0);

  // (b) A real capture: asked first, then the player replaces the live session.
  await page.getByRole("button", { name: "Protocol inspector" }).click();
  await drop("session.jsonl", text);
  const ask = page.getByRole("alertdialog", { name: "Replay session.jsonl?" });
  await expect(ask).toBeVisible();
  await ask.getByRole("button", { name: "Replay capture" }).click();
  await expect(replayBar(page)).toContainText("Replaying session.jsonl");
  await replayBar(page).getByRole("combobox", { name: "Speed" }).selectOption("max");
  await replayBar(page).getByRole("button", { name: "Play", exact: true }).click();
  await expect(conversation(page).getByText("Done: Spanish is now supported")).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => transcript(page)).toEqual(liveTranscript);

  // Exit: back to the live session (this pier's pi, which ran nothing).
  await replayBar(page).getByRole("button", { name: "Exit replay" }).click();
  await expect(replayBar(page)).toHaveCount(0);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(conversation(page).getByText("Done: Spanish is now supported")).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Prompt" })).toBeEnabled();
});
