// A replay anyone can open (issue #36, item 1): a real session recorded in
// the inspector, written as one HTML page by `pier export`, opened from disk
// (file://) with no pier running: it plays to the end, the transcript and the
// inspector rebuild, and the page makes no request at all beyond its own
// file. Then the page made in the browser ("Export as a page", from
// `pier replay`) is the same kind of page.
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "@playwright/test";
import { runPier, startPierReplay } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";

test.use({ scenarioName: "tools" });
test.describe.configure({ mode: "serial" });

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const cards = (page: Page) => conversation(page).getByRole("group", { name: /^Tool call: / });
const inspector = (page: Page) => page.getByRole("complementary", { name: "Protocol inspector" });
const replayBar = (page: Page) => page.getByRole("region", { name: "Replay" });
const where = (page: Page) => replayBar(page).getByRole("status", { name: "Replay position" });

let capturePath = "";
let events = 0;
let liveTranscript: string[] = [];

/** A page of its own for a file:// URL, with every request it makes (a failure, not a wait, if anything but the file is asked for). */
async function openFromDisk(browser: Browser, path: string, viewport = { width: 1440, height: 900 }): Promise<{ page: Page; requests: string[] }> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  // A worker's or a popup's requests would not show on the page.
  context.on("request", (request) => requests.push(`context: ${request.url()}`));
  await page.goto(pathToFileURL(path).href);
  return { page, requests };
}

async function playToEnd(page: Page, count: number): Promise<void> {
  await expect(where(page)).toContainText(`record 0 of ${count.toLocaleString("en")}`, { timeout: 30_000 });
  await replayBar(page).getByRole("combobox", { name: "Speed" }).selectOption("max");
  await replayBar(page).getByRole("button", { name: "Play", exact: true }).click();
  await expect(where(page)).toContainText(`record ${count.toLocaleString("en")} of ${count.toLocaleString("en")}`, { timeout: 30_000 });
}

test("a real session exported with pier export plays from file:// to the end, with its inspector, and requests nothing", async ({ page, pier, browser }, testInfo) => {
  test.setTimeout(180_000);
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await page.getByRole("button", { name: "Protocol inspector" }).click();
  await inspector(page).getByRole("button", { name: "Record the wire" }).click();
  await expect(inspector(page).getByRole("button", { name: "Stop recording" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  // A prompt that would end the page's element if the capture were embedded as it is.
  await prompt.fill("Use the tools please </script><script>document.title='owned'</script>");
  await prompt.press("Enter");
  await expect(conversation(page).getByText("Done: Spanish is now supported")).toBeVisible({ timeout: 30_000 });
  await expect(cards(page)).toHaveCount(6);
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
  liveTranscript = (await conversation(page).getByRole("article").allInnerTexts()).map((text) => text.trim());
  const download = page.waitForEvent("download");
  await inspector(page).getByRole("button", { name: "Stop recording" }).click();
  capturePath = testInfo.outputPath("session.jsonl");
  await (await download).saveAs(capturePath);
  events = (await readFile(capturePath, "utf8")).trimEnd().split("\n").length - 1;

  const htmlPath = testInfo.outputPath("session.html");
  const exported = await runPier(["export", capturePath, "-o", htmlPath], { piFromPath: true, timeoutMs: 60_000 });
  expect(exported.stderr).toMatch(/^pier: .*session\.html: [\d.]+ (MB|KB) \(the capture: [\d.]+ (MB|KB|bytes), [\d,]+ events; redacted: secrets.*\)\n$/);
  expect({ code: exported.code, stdout: exported.stdout }).toEqual({ code: 0, stdout: `${htmlPath}\n` });
  // Refused the second time, the page left as it is.
  const again = await runPier(["export", capturePath, "-o", htmlPath], { piFromPath: true });
  expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 1, stderr: `pier: ${htmlPath} exists: pass --force to replace it\n` });

  // pier is no longer needed: the page is opened as a file.
  const { page: player, requests } = await openFromDisk(browser, htmlPath);
  await expect(replayBar(player)).toContainText("Replaying session.jsonl");
  await expect(replayBar(player)).toContainText("secrets");
  // Open as it was while recording (a message's "Inspect records" shows with it).
  await player.getByRole("button", { name: "Protocol inspector" }).click();
  await playToEnd(player, events);
  await expect(conversation(player).getByText("Done: Spanish is now supported")).toBeVisible();
  await expect(cards(player)).toHaveCount(6);
  await expect.poll(async () => (await conversation(player).getByRole("article").allInnerTexts()).map((text) => text.trim())).toEqual(liveTranscript);
  // The prompt's </script> is text in the transcript, and ran nothing.
  await expect(conversation(player).getByText("</script><script>document.title='owned'</script>")).toBeVisible();
  // The page's title: the session's name (its first prompt, as text), then the capture's.
  expect(await player.title()).toMatch(/^Use the tools please .* · session\.jsonl — Pier replay$/);
  const records = inspector(player).getByRole("listbox", { name: "Records" });
  await expect(
    records
      .getByRole("option")
      .filter({ hasText: /tool_execution_end/ })
      .first(),
  ).toBeVisible();
  await expect(
    records
      .getByRole("option")
      .filter({ hasText: /agent_settled/ })
      .first(),
  ).toBeAttached();
  await player.screenshot({ path: testInfo.outputPath("exported-1440.png") });
  await player.setViewportSize({ width: 390, height: 844 });
  await player.getByRole("button", { name: "Close protocol inspector" }).click();
  await player.screenshot({ path: testInfo.outputPath("exported-390.png") });
  // The document itself, seen by the page and by its context (in either order), and nothing else.
  expect([...requests].sort()).toEqual([`context: ${pathToFileURL(htmlPath).href}`, pathToFileURL(htmlPath).href]);
  await player.context().close();
});

test("Export as a page from pier replay: the size is shown first, and the downloaded page plays from file://", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  expect(capturePath).not.toBe("");
  const replay = await startPierReplay(capturePath);
  try {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(replay.url);
    await expect(replayBar(page)).toContainText("Replaying session.jsonl");
    await replayBar(page).getByRole("button", { name: "Export as a page" }).click();
    const ready = replayBar(page).getByRole("status", { name: "Page to export" });
    await expect(ready).toContainText(/session\.html: [\d.]+ MB \(capture [\d.]+ (KB|MB)\); redacted: secrets/);
    const download = page.waitForEvent("download");
    await replayBar(page).getByRole("button", { name: "Download page" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("session.html");
    const path = testInfo.outputPath("from-the-page.html");
    await file.saveAs(path);
    await context.close();

    const { page: player, requests } = await openFromDisk(browser, path);
    await playToEnd(player, events);
    await expect(cards(player)).toHaveCount(6);
    // The exported page exports itself again, from its own code.
    await replayBar(player).getByRole("button", { name: "Export as a page" }).click();
    await expect(replayBar(player).getByRole("status", { name: "Page to export" })).toContainText("session.html");
    expect(requests.filter((url) => !url.endsWith("from-the-page.html"))).toEqual([]);
    await player.context().close();
  } finally {
    await replay.stop();
  }
});
