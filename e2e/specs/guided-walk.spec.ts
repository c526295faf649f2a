// A guided walk (issue #36 item 2): the demo tour shipped as a capture with
// notes (web/public/walks/demo-tour.jsonl, made by
// scripts/record-demo-walk.mjs) opens from the first screen in the player;
// Next and Previous, by button and by key, move the player to each note's
// position and select the records it names in the inspector. An author adds
// a note about the selected record, saves the capture (its event lines byte
// for byte), and the saved file, opened with `pier replay`, has the note.
// Viewers get the walk too; a revoked link does not.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "@playwright/test";
import { startPierReplay } from "../../relay/test/support/pier-process.ts";
import { readCapture } from "../../web/src/lib/wire-log/capture.ts";
import { replaySteps } from "../../web/src/lib/wire-log/capture-replay.ts";
import { expect, test } from "../support/pier.ts";
import { openViewer, revokeViewerLink } from "../support/viewer-link.ts";

const WALK_FILE = fileURLToPath(new URL("../../web/public/walks/demo-tour.jsonl", import.meta.url));

const replayBar = (page: Page) => page.getByRole("region", { name: "Replay" });
const walkBar = (page: Page) => page.getByRole("group", { name: "Guided walk" });
const walkPosition = (page: Page) => walkBar(page).getByRole("status", { name: "Walk position" });
const where = (page: Page) => replayBar(page).getByRole("status", { name: "Replay position" });
const inspector = (page: Page) => page.getByRole("complementary", { name: "Protocol inspector" });
const details = (page: Page) => inspector(page).getByRole("region", { name: "Record details" });

type Note = { at: number; records: number[]; text: string };
type Walk = { text: string; events: number; notes: Note[]; types: Map<number, string> };

/** The shipped walk as the test reads it: its events' count, its notes in walking order, each record's type (by number), and its text. */
async function shippedWalk(): Promise<Walk> {
  const text = await readFile(WALK_FILE, "utf8");
  const lines = text.trimEnd().split("\n").slice(1);
  const values = lines.map((line) => JSON.parse(line) as { k: string } & Partial<Note>);
  const notes = values.filter((v) => v.k === "note").map((v) => ({ at: v.at!, records: v.records ?? [], text: v.text! }));
  // The tour has one hello and no restart of pi: the replay's entries are the page's records, one for one.
  const read = readCapture(text);
  if (!read.ok) throw new Error(read.error.message);
  const types = new Map<number, string>();
  for (const step of replaySteps(read.header, read.events)) {
    if (step.kind === "entry") types.set(step.entry.seq, String((step.entry.value as { type?: unknown } | undefined)?.type));
  }
  return { text, events: values.filter((v) => v.k !== "note").length, notes: notes.sort((a, b) => a.at - b.at), types };
}

/** The page shows note `i` (from 0): the count, the player at its position, its first record selected. */
async function expectAtNote(page: Page, walk: Walk, i: number): Promise<void> {
  const note = walk.notes[i]!;
  await expect(walkPosition(page)).toHaveText(`Note ${i + 1} of ${walk.notes.length}`);
  await expect(where(page)).toContainText(`record ${note.at.toLocaleString("en")} of ${walk.events.toLocaleString("en")}`);
  if (note.records.length > 0) {
    await expect(details(page)).toContainText(walk.types.get(note.records[0]!)!);
    const label = note.records.length === 1 ? `Record ${note.records[0]} of note ${i + 1}` : `${note.records.length} records of note ${i + 1}`;
    await expect(inspector(page).getByRole("status").filter({ hasText: label })).toBeVisible();
  }
}

async function seek(range: Locator, value: number): Promise<void> {
  await range.evaluate((input, v) => {
    (input as HTMLInputElement).value = String(v);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }, value);
}

async function openShippedWalk(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Walk through a recorded tour" }).click();
  await expect(replayBar(page)).toContainText("Replaying demo-tour.jsonl");
}

test("the shipped walk steps note by note, by button and by key; the player and the selected record follow", async ({ page, pier }, testInfo) => {
  test.setTimeout(120_000);
  const walk = await shippedWalk();
  expect(walk.notes.length).toBeGreaterThanOrEqual(5);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await openShippedWalk(page);
  // It opens on its first note, with the inspector beside the transcript.
  await expectAtNote(page, walk, 0);
  await expect(walkBar(page).getByRole("note", { name: "Note 1" })).toContainText("A guided walk through Pier's demo tour");
  await expect(walkBar(page).getByRole("button", { name: "Previous note" })).toBeDisabled();
  // Before the tour's prompt the transcript says where the capture is, not that it is connecting (a replay never sends).
  await expect(page.getByRole("heading", { name: "No prompt yet at this point of the capture" })).toBeVisible();

  await walkBar(page).getByRole("button", { name: "Next note" }).click();
  await expectAtNote(page, walk, 1);
  await page.keyboard.press("n");
  await expectAtNote(page, walk, 2);
  await page.keyboard.press("n");
  await expectAtNote(page, walk, 3);
  await page.keyboard.press("p");
  await expectAtNote(page, walk, 2);
  await walkBar(page).getByRole("button", { name: "Previous note" }).click();
  await expectAtNote(page, walk, 1);

  // Far ahead and back (the page is reset and fed again): the last note's records, then the first's.
  for (let i = 2; i < walk.notes.length; i++) await walkBar(page).getByRole("button", { name: "Next note" }).click();
  await expectAtNote(page, walk, walk.notes.length - 1);
  await expect(walkBar(page).getByRole("button", { name: "Next note" })).toBeDisabled();
  // The note about agent_end, with the record selected, and the transcript at that moment.
  const agentEnd = walk.notes.findIndex((n) => n.text.includes("`agent_end` arrives"));
  expect(agentEnd).toBeGreaterThan(0);
  for (let i = walk.notes.length - 1; i > agentEnd; i--) await page.keyboard.press("p");
  await expectAtNote(page, walk, agentEnd);
  await expect(details(page)).toContainText("agent_end");
  await expect(walkBar(page).getByRole("note")).toContainText("not over");
  await page.screenshot({ path: testInfo.outputPath("walk-1440.png") });

  // The keys are in the shortcuts list while a walk is shown.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("?");
  const shortcuts = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(shortcuts.locator('[data-shortcut="walk-next"]')).toContainText("N");
  await expect(shortcuts.locator('[data-shortcut="walk-previous"]')).toContainText("P");
  await page.keyboard.press("Escape");
  await expect(shortcuts).toHaveCount(0);
});

test("on a phone the walk bar fits and steps", async ({ page, pier }, testInfo) => {
  const walk = await shippedWalk();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(pier.url);
  await openShippedWalk(page);
  await expect(walkPosition(page)).toHaveText(`Note 1 of ${walk.notes.length}`);
  await walkBar(page).getByRole("button", { name: "Next note" }).click();
  await expect(walkPosition(page)).toHaveText(`Note 2 of ${walk.notes.length}`);
  await expect(where(page)).toContainText(`record ${walk.notes[1]!.at} of`);
  const box = (await walkBar(page).boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: testInfo.outputPath("walk-390.png") });
  await walkBar(page).getByRole("button", { name: "Edit notes" }).click();
  await page.screenshot({ path: testInfo.outputPath("walk-author-390.png") });
});

test("an author adds a note about the selected record and saves; the saved capture keeps every event line and opens with the note", async ({ page, pier }, testInfo) => {
  test.setTimeout(120_000);
  const walk = await shippedWalk();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(pier.url);
  await openShippedWalk(page);
  await expectAtNote(page, walk, 0);

  // A few records after a note (before the next one), with that note's record still selected in the inspector.
  const i = walk.notes.findIndex((n, k) => n.records.length > 0 && k + 1 < walk.notes.length && walk.notes[k + 1]!.at - n.at > 3);
  expect(i).toBeGreaterThanOrEqual(0);
  for (let k = 0; k < i; k++) await walkBar(page).getByRole("button", { name: "Next note" }).click();
  await expectAtNote(page, walk, i);
  const selected = walk.notes[i]!.records[0]!;
  const at = walk.notes[i]!.at + 2;
  await seek(replayBar(page).getByRole("slider", { name: "Position" }), at);
  await expect(where(page)).toContainText(`record ${at} of`);
  const mine = i + 2;

  await walkBar(page).getByRole("button", { name: "Edit notes" }).click();
  const author = walkBar(page).getByRole("region", { name: "Notes of this capture" });
  await author.getByRole("button", { name: "Add a note here" }).click();
  const form = author.getByRole("form", { name: "New note" });
  await expect(form.getByRole("textbox", { name: "Records" })).toHaveValue(String(selected));
  // Markdown is rendered; HTML in a note stays text.
  await form.getByRole("textbox", { name: "Note text" }).fill("**My note** about this record <img src=x onerror=alert(1)>");
  await page.screenshot({ path: testInfo.outputPath("walk-author-1440.png") });
  await form.getByRole("button", { name: "Add note" }).click();
  await expect(walkPosition(page)).toHaveText(`Note ${mine} of ${walk.notes.length + 1}`);
  const shown = walkBar(page).getByRole("note", { name: `Note ${mine}` });
  await expect(shown.locator("strong")).toHaveText("My note");
  await expect(shown).toContainText("<img src=x onerror=alert(1)>");
  await expect(shown.locator("img")).toHaveCount(0);

  // A record the page does not show there yet is refused, in words.
  await author.getByRole("button", { name: `Edit note ${mine}` }).click();
  const edit = author.getByRole("form", { name: `Edit note ${mine}` });
  await edit.getByRole("textbox", { name: "Records" }).fill("999999");
  await edit.getByRole("button", { name: "Save note" }).click();
  await expect(author.getByRole("alert")).toContainText(`Record 999999 is not shown at position ${at}`);
  await edit.getByRole("button", { name: "Cancel" }).click();

  const download = page.waitForEvent("download");
  await author.getByRole("button", { name: "Save capture with notes" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("demo-tour.jsonl");
  const savedPath = testInfo.outputPath("demo-tour-with-my-note.jsonl");
  await file.saveAs(savedPath);
  const saved = await readFile(savedPath);
  const original = Buffer.from(walk.text);
  // Header: the same but for nothing; event lines: the same bytes.
  const eventsOf = (bytes: Buffer) => {
    const start = bytes.indexOf(0x0a) + 1;
    const notes = bytes.indexOf(Buffer.from('\n{"k":"note"'));
    return bytes.subarray(start, notes + 1);
  };
  expect(Buffer.compare(eventsOf(saved), eventsOf(original))).toBe(0);
  expect(saved.subarray(0, saved.indexOf(0x0a)).toString()).toBe(original.subarray(0, original.indexOf(0x0a)).toString());
  expect(saved.toString()).toContain(JSON.stringify({ k: "note", at, records: [selected], text: "**My note** about this record <img src=x onerror=alert(1)>" }));

  // Opened again (pier replay, no pi): the note is there, at its place in the walk.
  const replay = await startPierReplay(savedPath);
  try {
    const player = await page.context().newPage();
    await player.setViewportSize({ width: 1440, height: 900 });
    await player.goto(replay.url);
    await expect(walkPosition(player)).toHaveText(`Note 1 of ${walk.notes.length + 1}`);
    for (let k = 1; k < mine; k++) await player.keyboard.press("n");
    await expect(walkPosition(player)).toHaveText(`Note ${mine} of ${walk.notes.length + 1}`);
    await expect(where(player)).toContainText(`record ${at} of`);
    await expect(
      walkBar(player)
        .getByRole("note", { name: `Note ${mine}` })
        .locator("strong"),
    ).toHaveText("My note");
    await expect(details(player)).toContainText(walk.types.get(selected)!);
    await player.close();
  } finally {
    await replay.stop();
  }
});

test("a viewer walks the recorded tour too; a revoked link gets no walk", async ({ page, pier, browser }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const viewer = await openViewer(page, browser);
  await openShippedWalk(viewer);
  await expect(walkPosition(viewer)).toHaveText(/^Note 1 of \d+$/);
  await replayBar(viewer).getByRole("button", { name: "Exit replay" }).click();
  await expect(replayBar(viewer)).toHaveCount(0);
  await revokeViewerLink(page, viewer);
  expect(await viewer.evaluate(() => fetch("/walks/demo-tour.jsonl").then((r) => r.status))).not.toBe(200);
});
