// Expert warnings (issue #36 item 4): a crafted capture that breaks each
// promise of pi's protocol a page can see, played by `pier replay` (no pi):
// the records list marks and filters the flagged records, the details say
// why and where pi's docs explain it, the timeline marks them. That none fire
// on real runs is asserted in inspector.spec.ts.
import { writeFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { startPierReplay } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";

const inspector = (page: Page) => page.getByRole("complementary", { name: "Protocol inspector" });
const records = (page: Page) => inspector(page).getByRole("listbox", { name: "Records" });
const details = (page: Page) => inspector(page).getByRole("region", { name: "Record details" });
const replayBar = (page: Page) => page.getByRole("region", { name: "Replay" });
const where = (page: Page) => replayBar(page).getByRole("status", { name: "Replay position" });

const line = (value: unknown, end = "\n") => Buffer.from(`${JSON.stringify(value)}${end}`).toString("base64");

/** t (ms), then the event; each breaks one promise (the comment says which). */
const EVENTS = [
  { t: 0, k: "frame", f: { type: "child_started", child: { state: "running", epoch: 1, pid: 4242, startedAt: Date.parse("2026-12-01T10:00:00.000Z") } } },
  // Never answered (a get_state gets its answer within milliseconds).
  { t: 10, k: "sent", c: JSON.stringify({ id: "req-1", type: "get_state" }) },
  // An answer to an id no command carried.
  { t: 20, k: "bytes", b: line({ id: "req-9", type: "response", command: "get_state", success: true, data: {} }) },
  // A run's event with no run going on.
  { t: 30, k: "bytes", b: line({ type: "turn_start" }) },
  // CR LF.
  { t: 40, k: "bytes", b: line({ type: "agent_start" }, "\r\n") },
  // Not JSON: a diagnostic on stdout.
  { t: 50, k: "bytes", b: Buffer.from("Debugger listening on ws://127.0.0.1:9229\n").toString("base64") },
  // A field pi 0.87.1 does not send.
  { t: 60, k: "bytes", b: line({ type: "agent_end", messages: [], willRetry: false, mood: "good" }) },
  { t: 70, k: "bytes", b: line({ type: "agent_settled" }) },
  // A dialog whose timeout passes unanswered.
  { t: 80, k: "bytes", b: line({ type: "extension_ui_request", id: "d1", method: "confirm", title: "Keep going?", message: "Nobody answers this", timeout: 1000 }) },
  { t: 40_000, k: "frame", f: { type: "keepalive" } },
  // The capture's last event: a command nothing answers in it (its bound has not passed, but the capture's end is the end).
  { t: 40_010, k: "sent", c: JSON.stringify({ id: "req-2", type: "get_messages" }) },
];

test("a capture that breaks the protocol: each break flagged in the records, the details and the timeline", async ({ page }, testInfo) => {
  const file = testInfo.outputPath("broken.jsonl");
  const header = { type: "pier-capture", version: 1, startedAt: "2026-12-01T10:00:00.000Z", pier: "0.1.0", redacted: [] };
  await writeFile(file, [header, ...EVENTS].map((e) => `${JSON.stringify(e)}\n`).join(""));
  const replay = await startPierReplay(file);
  try {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(replay.url);
    await expect(replayBar(page)).toContainText("Replaying broken.jsonl");
    await page.getByRole("button", { name: "Protocol inspector" }).click();
    await replayBar(page).getByRole("combobox", { name: "Speed" }).selectOption("max");
    await replayBar(page).getByRole("button", { name: "Play", exact: true }).click();
    await expect(where(page)).toContainText(`record ${EVENTS.length} of ${EVENTS.length}`, { timeout: 30_000 });

    const onlyWarnings = inspector(page).getByRole("button", { name: /^Warnings only/ });
    await expect(onlyWarnings).toHaveAccessibleName("Warnings only (8)");
    await onlyWarnings.click();
    await expect(onlyWarnings).toHaveAttribute("aria-pressed", "true");
    const rows = records(page).getByRole("option");
    await expect(rows).toHaveCount(8);
    await expect(rows).toContainText(["get_state", "response", "turn_start", "agent_start", "", "agent_end", "extension_ui_request", "get_messages"]);

    // The rows in order (a row's text holds its warning's words too, so they are picked by place).
    await rows.nth(1).click();
    const warnings = details(page).getByRole("region", { name: "Warnings" });
    await expect(warnings).toContainText('No command sent the id "req-9" that this response carries.');
    await expect(warnings).toContainText("pi docs: docs/rpc.md, “Correlate commands and responses”");
    await page.screenshot({ path: testInfo.outputPath("warnings-1440x900.png") });
    const why = [
      "pi has not answered this get_state after",
      null,
      "turn_start arrived outside a run",
      "This line ended with CR LF.",
      "This line of pi's stdout is not JSON.",
      'pi does not define a "mood" field on agent_end.',
      "This confirm dialog was never answered: its timeout passed",
      "The capture ends 0 s after this get_messages with no response to it.",
    ];
    for (const [i, words] of why.entries()) {
      if (words === null) continue;
      await rows.nth(i).click();
      await expect(warnings).toContainText(words);
    }

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(warnings).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("warnings-390x844.png") });

    await page.setViewportSize({ width: 1440, height: 900 });
    await inspector(page).getByRole("tab", { name: "Timeline" }).click();
    await expect(inspector(page).locator("canvas.axis")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("warnings-timeline-1440x900.png") });
    expect(errors).toEqual([]);
  } finally {
    await replay.stop();
  }
});
