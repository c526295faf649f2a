// A large capture (issue #36 item 1, "stays usable"): `pier replay` opens it
// on its first slice and reads the rest while the player already works
// (replay/capture-progress.ts). A jump to the end waits for the reading and
// gets there; a bad line near the end is refused in the same words as a
// small file's, naming its line, after the records before it were playable.
import { writeFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { startPierReplay } from "../../relay/test/support/pier-process.ts";
import { CaptureWriter } from "../../web/src/lib/wire-log/capture.ts";
import { expect, test } from "../support/pier.ts";

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const replayBar = (page: Page) => page.getByRole("region", { name: "Replay" });
const where = (page: Page) => replayBar(page).getByRole("status", { name: "Replay position" });

const PROMPTS = 4;
const DELTAS = 6000;

/** About 24,000 events (≈ 9 MB): prompts answered in many streamed deltas, as bench/export.bench.ts at a quarter of its size. */
function bigCapture(): { text: string; events: number } {
  const start = Date.parse("2026-12-01T10:00:00.000Z");
  const writer = new CaptureWriter({ startedAt: start, pier: "e2e" });
  const encoder = new TextEncoder();
  let t = start;
  const you = { clientId: "c1", name: "Reader", role: "driver", colour: "#3b5bdb" };
  writer.addFrame(
    JSON.stringify({
      type: "hello",
      protocolVersion: 1,
      clientId: "c1",
      relayVersion: "e2e",
      cwd: "/tmp/e2e",
      piCommand: ["pi", "--mode", "rpc"],
      demo: null,
      child: { state: "running", epoch: 1, pid: 1, startedAt: start },
      replay: { bytes: 0, truncated: false },
      recentStderr: [],
      peers: 1,
      limits: { maxCommandBytes: 16777216 },
      sessions: null,
      you,
      people: [you],
    }),
    t,
  );
  writer.addFrame(JSON.stringify({ type: "replay_end" }), t);
  const bytes = (record: unknown) => writer.addBytes(encoder.encode(`${JSON.stringify(record)}\n`), (t += 1));
  const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  for (let p = 1; p <= PROMPTS; p++) {
    writer.addSent(JSON.stringify({ id: `c1:${p}`, type: "prompt", message: `Question ${p}` }), (t += 200));
    bytes({ type: "response", id: `c1:${p}`, command: "prompt", success: true });
    bytes({ type: "agent_start" });
    bytes({ type: "turn_start" });
    const user = { role: "user", content: [{ type: "text", text: `Question ${p}` }], timestamp: t };
    bytes({ type: "message_start", message: user });
    bytes({ type: "message_end", message: user });
    const shell = { role: "assistant", content: [], api: "openai-completions", provider: "e2e", model: "e2e", usage, stopReason: "stop", timestamp: t };
    bytes({ type: "message_start", message: shell });
    bytes({ type: "message_update", usage, assistantMessageEvent: { type: "text_start", contentIndex: 0 } });
    let text = "";
    for (let d = 0; d < DELTAS; d++) {
      const delta = d % 40 === 39 ? "\n\n" : `word${d} `;
      text += delta;
      bytes({ type: "message_update", usage, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta } });
    }
    text += `The end of answer ${p}.`;
    bytes({ type: "message_update", usage, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: `The end of answer ${p}.` } });
    bytes({ type: "message_update", usage, assistantMessageEvent: { type: "text_end", contentIndex: 0, content: text } });
    bytes({ type: "message_end", message: { ...shell, content: [{ type: "text", text }] } });
    bytes({ type: "turn_end" });
    bytes({ type: "agent_end", messages: [] });
    bytes({ type: "agent_settled" });
  }
  writer.finish();
  return { text: writer.text(), events: writer.eventCount };
}

async function seek(page: Page, value: number): Promise<void> {
  await replayBar(page)
    .getByRole("slider", { name: "Position" })
    .evaluate((input, v) => {
      (input as HTMLInputElement).value = String(v);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }, value);
}

const { text, events } = bigCapture();
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
    await expect(where(page)).toContainText(`record 0 of ${count}`, { timeout: 60_000 });
    await expect(page.getByRole("alert").filter({ hasText: `big-bad.jsonl cannot be replayed: Line ${bad}: not JSON. The replay stops before that line.` })).toBeVisible({
      timeout: 120_000,
    });
    const kept = (bad - 2).toLocaleString("en");
    await seek(page, events);
    await expect(where(page)).toContainText(`record ${kept} of ${kept}`, { timeout: 120_000 });
    await expect(where(page)).not.toContainText("catching up", { timeout: 60_000 });
    await page.screenshot({ path: testInfo.outputPath("refused-late.png") });
    await context.close();
  } finally {
    await replay.stop();
  }
});
