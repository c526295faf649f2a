import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { expect, test, UI_ONLY } from "../support/pier.ts";

const inspectorButton = (page: Page) => page.getByRole("button", { name: "Protocol inspector" });
const inspector = (page: Page) => page.getByRole("complementary", { name: "Protocol inspector" });
const records = (page: Page) => inspector(page).getByRole("listbox", { name: "Records" });
const details = (page: Page) => inspector(page).getByRole("region", { name: "Record details" });
const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const agent = (page: Page) => page.getByRole("status", { name: /^Agent:/ });

/** Page errors, collected for the test's last assertion. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

async function sendPrompt(page: Page, text: string): Promise<void> {
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill(text);
  await prompt.press("Enter");
}

async function openInspector(page: Page): Promise<void> {
  await inspectorButton(page).click();
  await expect(inspector(page)).toBeVisible();
}

/** Only records of this type in the list (it is virtualized: only rows near the view are in the DOM). */
async function showOnly(page: Page, type: string): Promise<void> {
  await inspector(page)
    .getByRole("combobox", { name: "Record type" })
    .selectOption(type === "" ? { label: "All types" } : type);
}

/** A row of the records list: its arrow, then the type as a word. */
function row(page: Page, type: string, arrow: "↓" | "↑" | "◆" = "↓"): Locator {
  return records(page)
    .getByRole("option")
    .filter({ hasText: new RegExp(`^${arrow}\\s*[\\d:.]+\\s*${type}(\\s|$)`) });
}

/** A lab-like real run breaks nothing pi's protocol promises: no expert warning (expert-checks.ts). */
async function expectNoWarnings(page: Page): Promise<void> {
  const onlyWarnings = inspector(page).getByRole("button", { name: /^Warnings only/ });
  await expect(onlyWarnings).toHaveAccessibleName("Warnings only");
  await onlyWarnings.click();
  await expect(records(page)).toContainText("No record matches.");
  await onlyWarnings.click();
}

test("the inspector is closed on first use and remembers being opened, and its tab, across a reload", UI_ONLY, async ({ page, pier }) => {
  const errors = watchErrors(page);
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(inspectorButton(page)).toHaveAttribute("aria-pressed", "false");
  await expect(inspector(page)).toHaveCount(0);

  await openInspector(page);
  await expect(inspector(page).getByRole("tab", { name: "Records" })).toHaveAttribute("aria-selected", "true");
  // What arrived before it was opened is there too (from the record log).
  await showOnly(page, "hello");
  await expect(row(page, "hello", "◆")).toHaveCount(1);
  await inspector(page).getByRole("tab", { name: "Bytes" }).click();

  await page.reload();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(inspector(page)).toBeVisible();
  await expect(inspector(page).getByRole("tab", { name: "Bytes" })).toHaveAttribute("aria-selected", "true");

  await inspector(page).getByRole("button", { name: "Close protocol inspector" }).click();
  await expect(inspector(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(inspector(page)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a prompt is paired with its response and its run; a delta says what it did and links to the answer, and back", async ({ page, pier }) => {
  const errors = watchErrors(page);
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await openInspector(page);
  await sendPrompt(page, "Hello there");
  const answer = conversation(page).getByRole("article", { name: "pi" }).last();
  await expect(answer).toContainText("Hello from the scripted model!");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");

  // The command: a latency badge and the run it started.
  await showOnly(page, "prompt");
  const prompt = row(page, "prompt", "↑");
  await expect(prompt).toHaveCount(1);
  await expect(prompt).toContainText(/\d+(\.\d+)? m?s\b/);
  await expect(prompt).toContainText(/run \d+/);
  await prompt.click();
  await expect(details(page)).toContainText(/prompt \(id [^)]+\) from this browser: pi answered success in \d+(\.\d+)? m?s\b/);
  await expect(details(page).getByRole("region", { name: /^Lesson: / })).toBeVisible();
  await details(page).getByRole("button", { name: "Go to response" }).click();
  await expect(details(page)).toContainText("response");
  await expect(row(page, "response").filter({ hasText: "prompt ✓" })).toHaveAttribute("aria-selected", "true");
  // Its run ends at agent_settled.
  await expect(details(page).getByRole("region", { name: "Run" })).toContainText(/over at agent_settled after/);
  await details(page).getByRole("button", { name: "Go to end" }).click();
  await expect(row(page, "agent_settled")).toHaveAttribute("aria-selected", "true");
  await expect(row(page, "agent_settled")).toContainText(/run \d+ ends/);

  // The answer's deltas are folded into one row; opened, they are rows of their own.
  await showOnly(page, "message_update");
  await expect(row(page, "message_update")).toHaveCount(0);
  const group = records(page)
    .getByRole("option")
    .filter({ hasText: /\d+ deltas?/ })
    .last();
  await expect(group).toContainText(/text \d+/);
  await group.click();
  await expect(records(page).getByRole("option").filter({ hasText: "thinking_delta" }).first()).toBeVisible();
  // The text search narrows the list to the text deltas (the group stays open).
  await inspector(page).getByRole("searchbox", { name: "Search records" }).fill("text_delta");
  const delta = records(page).getByRole("option").filter({ hasText: "text_delta" }).first();
  await expect(delta).toBeVisible();
  await delta.click();
  const meaning = details(page).getByRole("region", { name: "What it did" });
  await expect(meaning).toContainText(/Appended \d+ characters? to the answer being written \(message \d+, block \d+\)\./);
  await expect(details(page).getByRole("region", { name: /^Lesson: / })).toContainText(/text/i);
  await expect(details(page)).toContainText("docs/json.md");

  // Show in transcript: the answer's text block is outlined, in view.
  await conversation(page).evaluate((el) => el.parentElement!.scrollTo(0, 0));
  await meaning.getByRole("button", { name: /Show in transcript/ }).click();
  const block = answer.locator("[data-block].linked");
  await expect(block).toHaveCount(1);
  await expect(block).toBeInViewport();
  await expect(block).toContainText("Hello from the scripted model!");

  // Keyboard: Esc closes the details, Up/Down move, Enter opens them again.
  await records(page).focus();
  await page.keyboard.press("Escape");
  await expect(details(page)).toHaveCount(0);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(details(page)).toBeVisible();

  // The reverse: inspect the answer, and the records that built it are selected.
  await inspector(page).getByRole("searchbox", { name: "Search records" }).fill("");
  await answer.getByRole("button", { name: "Inspect records" }).click();
  await expect(inspector(page).getByRole("status")).toContainText(/\d+ records changed message \d+/);
  await expect(details(page)).toContainText("message_start");
  await expect(row(page, "message_start").filter({ hasText: "assistant" })).toHaveAttribute("aria-selected", "true");
  await expectNoWarnings(page);
  expect(errors).toEqual([]);
});

test("the bytes view shows chunk boundaries and LF marks, and a record's line", async ({ page, pier }) => {
  const errors = watchErrors(page);
  await page.goto(pier.url);
  await openInspector(page);
  await sendPrompt(page, "Hello there");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  await showOnly(page, "agent_settled");
  await expect(row(page, "agent_settled")).toHaveCount(1);

  await inspector(page).getByRole("tab", { name: "Bytes" }).click();
  const bytes = inspector(page).getByRole("region", { name: "Bytes" });
  await expect(inspector(page)).toContainText(/Live tail/);
  await expect(bytes.getByText("\\n", { exact: true }).first()).toBeVisible();

  await inspector(page).getByRole("tab", { name: "Records" }).click();
  await row(page, "agent_settled").click();
  await details(page).getByRole("button", { name: "View its bytes" }).click();
  await expect(inspector(page)).toContainText(/Line [\d,]+ of pi's output · [\d,]+ bytes \+ LF · (one chunk|split across \d+ chunks)/);
  await expect(bytes).toContainText('{"type":"agent_settled"');
  await expect(bytes.getByText("\\n", { exact: true })).toHaveCount(1);
  // The chunk that carried it, as it arrived: where it began, and every record it held.
  const chunk = inspector(page).getByRole("list", { name: "Chunks that carried it" }).getByRole("button").last();
  const name = (await chunk.textContent())!.match(/chunk (\d+)/)![1];
  await chunk.click();
  await expect(inspector(page)).toContainText(new RegExp(`Chunk ${name} · [\\d,]+ bytes · arrived`));
  await expect(bytes.getByRole("img", { name: `chunk boundary: chunk ${name}` })).toBeVisible();
  await expect(bytes).toContainText('{"type":"agent_settled"');
  expect(errors).toEqual([]);
});

test.describe("separators", () => {
  test.use({ scenarioName: "separators" });

  test("U+2028 and U+2029 inside a record are shown, not taken for line ends", async ({ page, pier }) => {
    const errors = watchErrors(page);
    await page.goto(pier.url);
    await openInspector(page);
    await sendPrompt(page, "Separators please");
    await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
    await showOnly(page, "message_end");
    await expect(row(page, "message_end").filter({ hasText: "assistant" })).toHaveCount(1);
    await row(page, "message_end").filter({ hasText: "assistant" }).click();
    await details(page).getByRole("button", { name: "View its bytes" }).click();
    const bytes = inspector(page).getByRole("region", { name: "Bytes" });
    await expect(bytes.getByText("U+2028", { exact: true }).first()).toBeVisible();
    await expect(bytes.getByText("U+2029", { exact: true }).first()).toBeVisible();
    // One record, one LF: the separators did not split it.
    await expect(bytes.getByText("\\n", { exact: true })).toHaveCount(1);
    expect(errors).toEqual([]);
  });
});

test("reloaded with the inspector open, pi's replayed output is described from its first record", async ({ page, pier }) => {
  const errors = watchErrors(page);
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await openInspector(page);
  await sendPrompt(page, "Hello there");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");

  // As over a slow link: the inspector's code arrives well after pi's replayed output could have.
  await page.route(/\/assets\/inspector-store[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await route.continue();
  });
  await page.reload();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("Hello from the scripted model!");
  // The first record pi ever wrote, replayed by the relay: described too.
  await showOnly(page, "response");
  await row(page, "response").first().click();
  await expect(details(page).getByRole("region", { name: "What it did" })).not.toContainText("Not described");
  // The answer's end: what it did, then the bytes that carried it.
  await showOnly(page, "message_end");
  await row(page, "message_end").last().click();
  const what = details(page).getByRole("region", { name: "What it did" });
  await expect(what).toContainText(/Message \d+ is final: /);
  await expect(what.getByRole("button", { name: /^Show in transcript/ })).toBeVisible();
  await inspector(page).getByRole("tab", { name: "Bytes" }).click();
  await expect(inspector(page)).toContainText(/Line [\d,]+ of pi's output · [\d,]+ bytes \+ LF/);
  // The run again, as the relay replayed it to the reloaded page: still nothing to flag.
  await inspector(page).getByRole("tab", { name: "Records" }).click();
  await expectNoWarnings(page);
  expect(errors).toEqual([]);
});

test("an inspector store that never arrives costs the descriptions, never the session", UI_ONLY, async ({ page, pier }) => {
  // The page applies nothing before the store is there, for at most a few seconds.
  await page.route(/\/assets\/inspector-store[^/]*\.js$/, () => {});
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible({ timeout: 10_000 });
  await sendPrompt(page, "Hello there");
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("Hello from the scripted model!");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
});

test("opened for the first time after an answer, the inspector has described its records: both links and the bytes", async ({ page, pier }) => {
  const errors = watchErrors(page);
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  // A person chats first, and opens the inspector to see how that answer came.
  await sendPrompt(page, "Hello there");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  await expect(inspector(page)).toHaveCount(0);
  await openInspector(page);

  // From the answer to its records.
  const answer = conversation(page).getByRole("article", { name: "pi" }).last();
  await answer.getByRole("button", { name: "Inspect records" }).click();
  await expect(inspector(page).getByRole("status")).toContainText(/\d+ records changed message \d+/);
  await expect(row(page, "message_start").filter({ hasText: "assistant" })).toHaveAttribute("aria-selected", "true");

  // From a record to what it did, to the answer, and to its bytes.
  await showOnly(page, "message_end");
  await row(page, "message_end").filter({ hasText: "assistant" }).click();
  const what = details(page).getByRole("region", { name: "What it did" });
  await expect(what).toContainText(/Message \d+ is final: /);
  await conversation(page).evaluate((el) => el.parentElement!.scrollTo(0, 0));
  await what.getByRole("button", { name: /^Show in transcript/ }).click();
  const linked = conversation(page).locator(".row.linked");
  await expect(linked).toContainText("Hello from the scripted model!");
  await expect(linked).toBeInViewport();
  await details(page).getByRole("button", { name: "View its bytes" }).click();
  await expect(inspector(page)).toContainText(/Line [\d,]+ of pi's output · [\d,]+ bytes \+ LF/);
  await expect(inspector(page).getByRole("region", { name: "Bytes" })).toContainText('{"type":"message_end"');
  expect(errors).toEqual([]);
});

test("a record picked at the bottom of the list stays in view when its details open under it", UI_ONLY, async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await openInspector(page);
  await sendPrompt(page, "Hello there");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  await expect(row(page, "agent_settled")).toBeVisible();
  // Following the live end: the newest record is the list's last row, at its bottom (a row of folded deltas would open, not select).
  const lastId = await records(page)
    .getByRole("option")
    .filter({ hasText: /^[↓↑◆]/ })
    .last()
    .getAttribute("id");
  const last = records(page).locator(`[id="${lastId}"]`);
  await last.click();
  await expect(last).toHaveAttribute("aria-selected", "true");
  await expect(details(page)).toBeVisible();
  await expect
    .poll(async () => {
      const [list, picked] = await Promise.all([records(page).boundingBox(), last.boundingBox()]);
      return list !== null && picked !== null && picked.y >= list.y - 1 && picked.y + picked.height <= list.y + list.height + 1;
    })
    .toBe(true);
});

test("the records download as JSONL that parses", async ({ page, pier }) => {
  const errors = watchErrors(page);
  await page.goto(pier.url);
  await openInspector(page);
  await sendPrompt(page, "Hello there");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  await showOnly(page, "agent_settled");
  await expect(row(page, "agent_settled")).toHaveCount(1);
  const [download] = await Promise.all([page.waitForEvent("download"), inspector(page).getByRole("button", { name: "Export records as JSONL" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^pier-protocol-.*\.jsonl$/);
  const text = await readFile((await download.path())!, "utf8");
  const lines = text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines.length).toBeGreaterThan(10);
  for (const line of lines) {
    expect(line).toMatchObject({ seq: expect.any(Number), time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), direction: expect.stringMatching(/^(in|out|relay)$/) });
  }
  const prompt = lines.find((l) => (l["record"] as { type?: string } | undefined)?.type === "prompt");
  expect(prompt).toMatchObject({ direction: "out", sender: { self: true }, record: { message: "Hello there" } });
  expect(lines.some((l) => l["type"] === "agent_settled" && l["direction"] === "in")).toBe(true);
  expect(errors).toEqual([]);
});

test("a command from another browser shows who sent it", async ({ page, pier, browser }) => {
  const errors = watchErrors(page);
  await page.goto(pier.url);
  await openInspector(page);
  await showOnly(page, "replay_end");
  await expect(row(page, "replay_end", "◆")).toHaveCount(1);
  const context = await browser.newContext();
  try {
    const other = await context.newPage();
    await other.goto(await pier.freshUrl());
    await expect(other.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
    await sendPrompt(other, "Hello from the other browser");
    // Named after its sender (a second driver that gave no name is "Driver 2", not the first's "Driver").
    await expect(conversation(page).getByRole("article", { name: "Driver 2" })).toContainText("Hello from the other browser");
    await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
    await showOnly(page, "prompt");
    const announced = row(page, "prompt", "↑");
    const arrived = await announced
      .first()
      .waitFor({ timeout: 5000 })
      .then(
        () => true,
        () => false,
      );
    // Needs the relay's command_sent frame (another browser's command, announced to the others).
    test.fixme(!arrived, "the relay does not announce other browsers' commands (command_sent) yet");
    await expect(announced.locator(".badge.sender")).toBeVisible();
    await announced.click();
    await expect(details(page)).toContainText(/Sent by .+; the relay announced it \(command_sent\)/);
    await expect(details(page)).toContainText(/pi answered success in \d+(\.\d+)? m?s\b/);
  } finally {
    await context.close();
  }
  expect(errors).toEqual([]);
});

test.describe("while pi streams", () => {
  test.use({ scenarioName: "steady-stream" });

  const distanceFromEnd = (scroller: Locator) => scroller.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);

  /**
   * Five times while it grows, `scroller` shows something new and is back at
   * its end within a moment. (Right after new rows are in the DOM it is not
   * yet: it scrolls after the layout that makes them, before that frame is
   * painted.) Growth is waited for, not timed: on a loaded machine pi's
   * stream can pause for a few hundred milliseconds.
   */
  async function keepsAtEnd(scroller: Locator): Promise<void> {
    // What it shows last, to tell that it changed since the last look.
    const last = () => scroller.evaluate((element) => `${element.scrollHeight} ${element.textContent?.slice(-80)}`);
    let before = await last();
    for (let i = 0; i < 5; i++) {
      await expect.poll(last, { timeout: 5000 }).not.toBe(before);
      await expect.poll(() => distanceFromEnd(scroller), { timeout: 1000 }).toBeLessThanOrEqual(1);
      before = await last();
    }
  }

  test("the records and the bytes keep the newest in view until the person scrolls away", async ({ page, pier }) => {
    const errors = watchErrors(page);
    await page.goto(pier.url);
    await openInspector(page);
    await inspector(page).getByRole("checkbox", { name: "group deltas" }).uncheck();
    await sendPrompt(page, "Stream for a while");
    const answer = conversation(page).getByRole("article", { name: "pi" }).last();
    await expect(answer).toContainText("word5");

    // One row per delta: the list outgrows its view within a second, and follows.
    const list = inspector(page).locator(".records-viewport");
    await expect.poll(() => list.evaluate((element) => element.scrollHeight > 2 * element.clientHeight)).toBe(true);
    await keepsAtEnd(list);

    // Scrolling up in the records stops following: the list stays where the person put it, while rows go on arriving.
    const count = () =>
      inspector(page)
        .getByText(/^[\d,]+ records$/)
        .textContent();
    await list.hover();
    await page.mouse.wheel(0, -600);
    await expect(inspector(page).getByRole("button", { name: "Follow live" })).toHaveAttribute("aria-pressed", "false");
    const top = await list.evaluate((element) => element.scrollTop);
    const counted = await count();
    await page.waitForTimeout(600);
    expect(await list.evaluate((element) => element.scrollTop)).toBe(top);
    expect(await list.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeGreaterThan(100);
    expect(await count()).not.toBe(counted);

    await inspector(page).getByRole("tab", { name: "Bytes" }).click();
    const bytes = inspector(page).getByRole("region", { name: "Bytes" });
    await expect.poll(() => bytes.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
    await keepsAtEnd(bytes);
    // Its header counts what arrived (it once said "of 0 bytes · 0 chunks held" throughout).
    await expect(inspector(page).getByText(/^Live tail: the newest [\d,]+ of [1-9][\d,]* bytes · [1-9][\d,]* chunks held$/)).toBeVisible();

    // Scrolling up in the bytes pauses the tail: the same bytes stay, however many arrive.
    await bytes.hover();
    await page.mouse.wheel(0, -200);
    const paused = inspector(page).getByText(/^Paused on bytes [\d,]+–[\d,]+ of [\d,]+/);
    await expect(paused).toBeVisible();
    const shown = await bytes.textContent();
    const pausedAt = await paused.textContent();
    await page.waitForTimeout(600);
    expect(await bytes.textContent()).toBe(shown);
    expect(await paused.textContent()).not.toBe(pausedAt); // the total went on growing
    await inspector(page).getByRole("button", { name: "Follow live" }).click();
    await expect(inspector(page).getByText(/^Live tail: the newest/)).toBeVisible();
    await expect.poll(() => distanceFromEnd(bytes), { timeout: 1000 }).toBeLessThanOrEqual(1);
    await expect(answer).toContainText("Done streaming.", { timeout: 20_000 });
    expect(errors).toEqual([]);
  });

  test("the answer a selected message_start began is framed, whole, while it streams and after", async ({ page, pier }) => {
    const errors = watchErrors(page);
    await page.goto(pier.url);
    await openInspector(page);
    await sendPrompt(page, "Stream for a while");
    const answer = conversation(page).getByRole("article", { name: "pi" }).last();
    await expect(answer).toContainText("word5");
    await showOnly(page, "message_start");
    await row(page, "message_start").filter({ hasText: "assistant" }).click();
    await expect(details(page)).toContainText("pi begins an answer");

    /** "streaming" or "done", and whether a frame (the row's, or the answer's own) is drawn around the whole answer. */
    const framing = () =>
      answer.evaluate((article) => {
        const state = article.getAttribute("aria-busy") === "true" ? "streaming" : "done";
        const framer = [article.closest(".row"), article].find((element) => element !== null && getComputedStyle(element).boxShadow !== "none");
        if (framer === undefined || framer === null) return `${state}, no frame`;
        const frame = framer.getBoundingClientRect();
        const text = article.getBoundingClientRect();
        const whole = frame.top <= text.top && frame.bottom >= text.bottom && frame.left <= text.left && frame.right >= text.right;
        return `${state}, ${whole ? "framed whole" : "frame cut short"}`;
      });
    // Mid-stream (it once showed no frame at all until the answer was done).
    await expect.poll(framing).toBe("streaming, framed whole");
    // And once it is done.
    await expect(answer).toContainText("Done streaming.", { timeout: 20_000 });
    await expect.poll(framing).toBe("done, framed whole");
    expect(errors).toEqual([]);
  });
});
