// A large capture (issue #36 item 1, "stays usable"): `pier replay` opens it
// on its first slice and reads the rest while the player already works
// (replay/capture-progress.ts). A jump to the end waits for the reading and
// gets there; a bad line near the end is refused in the same words as a
// small file's, naming its line, after the records before it were playable.
import { writeFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { startPierReplay } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";
import { streamedCapture } from "../../bench/support/streamed-capture.ts";

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const replayBar = (page: Page) => page.getByRole("region", { name: "Replay" });
const where = (page: Page) => replayBar(page).getByRole("status", { name: "Replay position" });

const PROMPTS = 4;
const DELTAS = 6000;

async function seek(page: Page, value: number): Promise<void> {
  await replayBar(page)
    .getByRole("slider", { name: "Position" })
    .evaluate((input, v) => {
      (input as HTMLInputElement).value = String(v);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }, value);
}

const { text, events } = streamedCapture({ prompts: PROMPTS, deltasPerAnswer: DELTAS, by: "e2e" });
const count = events.toLocaleString("en");

test("a large capture plays from its first records while it is read; a jump to the end waits for the reading and gets there", async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const path = testInfo.outputPath("big.jsonl");
  await writeFile(path, text);
  const replay = await startPierReplay(path);
  try {
    for (const [name, viewport] of [
      ["wide", { width: 1440, height: 900 }],
      ["phone", { width: 390, height: 844 }],
    ] as const) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      // A link opens pier once: the second page signs in with the first one's cookie.
      if (name === "wide") await page.goto(replay.url);
      else {
        const at = replay.cookie.indexOf("=");
        await context.addCookies([{ name: replay.cookie.slice(0, at), value: replay.cookie.slice(at + 1), url: replay.origin, httpOnly: true, sameSite: "Strict" }]);
        await page.goto(`${replay.origin}/?replay`);
      }
      await expect(where(page)).toContainText(`record 0 of ${count}`, { timeout: 60_000 });
      await replayBar(page).getByRole("button", { name: "Next record" }).click();
      await expect(where(page)).toContainText(`record 1 of ${count}`);
      await page.screenshot({ path: testInfo.outputPath(`opening-${name}.png`) });
      await seek(page, events);
      await expect(where(page)).toContainText(`record ${count} of ${count}`, { timeout: 120_000 });
      await expect(where(page)).not.toContainText(/reading the file|catching up/, { timeout: 60_000 });
      await expect(replayBar(page).getByText(/^Going to record/)).toHaveCount(0);
      await expect(conversation(page).getByText(`The end of answer ${PROMPTS}.`)).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`at-the-end-${name}.png`) });
      await context.close();
    }
  } finally {
    await replay.stop();
  }
});

test("a bad line near the end of a large capture is refused naming its line; the records before it stay playable", async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const lines = text.split("\n");
  // The header is line 1: the bad line is the file's line `bad`, event `bad - 1`.
  const bad = lines.length - 30;
  lines[bad - 1] = "{not json";
  const path = testInfo.outputPath("big-bad.jsonl");
  await writeFile(path, lines.join("\n"));
  const replay = await startPierReplay(path);
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(replay.url);
    // It opened (a small file with a bad line never does): the line is far beyond the first slice.
    // Its count is the whole file's until the reading reaches the bad line, then what comes before it
    // (a fast reading may get there before this looks).
    const kept = (bad - 2).toLocaleString("en");
    await expect(where(page)).toContainText(new RegExp(`record 0 of (${count}|${kept})\\b`), { timeout: 60_000 });
    await expect(page.getByRole("alert").filter({ hasText: `big-bad.jsonl cannot be replayed: Line ${bad}: not JSON. The replay stops before that line.` })).toBeVisible({
      timeout: 120_000,
    });
    await seek(page, events);
    await expect(where(page)).toContainText(`record ${kept} of ${kept}`, { timeout: 120_000 });
    await expect(where(page)).not.toContainText("catching up", { timeout: 60_000 });
    await page.screenshot({ path: testInfo.outputPath("refused-late.png") });
    await context.close();
  } finally {
    await replay.stop();
  }
});
