// Reading an answer while it streams: the transcript holds the streaming
// answer's row at a size it updates only now and then (Conversation.svelte,
// holdSize), and the virtualizer keeps what is in view in place by anchoring
// to it. A person who scrolled up into the answer must see it stay put while
// more streams in below, and when the answer ends and is measured for good.
import type { Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";

// A fresh session (the row of the answer is there from its first delta) and
// an answer of 40 lines that streams for about 4 s.
test.use({ scenarioName: "long-session" });

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const agent = (page: Page) => page.getByRole("status", { name: /^Agent:/ });

/** The first paragraph that reaches into the transcript's viewport, and how far below its top it starts. */
function paragraphAtTop(page: Page): Promise<{ text: string; y: number }> {
  return conversation(page).evaluate((log) => {
    const view = log.parentElement!.getBoundingClientRect();
    const paragraph = [...log.querySelectorAll("p")].find((p) => p.getBoundingClientRect().bottom > view.top);
    if (!paragraph) return { text: "", y: 0 };
    return { text: paragraph.textContent ?? "", y: Math.round(paragraph.getBoundingClientRect().top - view.top) };
  });
}

test("scrolled up to read an answer while it streams, the view stays put, also when the answer ends", async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("Keep going with the next step");
  await prompt.press("Enter");
  const live = conversation(page).getByRole("article", { name: "pi" }).last();
  await expect(live).toContainText("Line 30 of the long streamed answer");
  await expect(agent(page)).toHaveAccessibleName("Agent: Working");

  // Up a little, into the answer, well below where it started: following stops.
  await conversation(page).hover();
  await page.mouse.wheel(0, -200);
  const jump = page.getByRole("button", { name: "Scroll to latest" });
  await expect(jump).toBeVisible();
  const reading = await paragraphAtTop(page);
  expect(reading.text).toMatch(/^Line \d+ of the long streamed answer/);

  // More of the answer streams in below: what is being read does not move…
  await page.waitForTimeout(500);
  expect(await paragraphAtTop(page)).toEqual(reading);
  // …nor when the answer ends (the transcript then measures it for good).
  await expect(live).toContainText("End of the long answer.");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  await page.waitForTimeout(300);
  expect(await paragraphAtTop(page)).toEqual(reading);
  await expect(jump).toBeVisible();
});

test.describe("an answer that grows by more than a screen at once", () => {
  // The answer's second half arrives as one chunk taller than the screen,
  // 120 ms after the transcript last told the list the row's size (it tells
  // at most every 250 ms), then nothing comes for 3 s: what the list knows
  // of the row stays short of what is on screen.
  test.use({ scenarioName: "fast-burst" });

  /** Whether the top of the view is below the streaming row's held size (Conversation.svelte, holdSize). */
  function viewBelowHeldSize(page: Page): Promise<boolean> {
    return conversation(page).evaluate((log) => {
      const held = log.querySelector(".row.held");
      return held !== null && held.getBoundingClientRect().bottom <= log.parentElement!.getBoundingClientRect().top;
    });
  }

  test("read from just above its end, the view stays put when the answer ends", async ({ page, pier }) => {
    await page.goto(pier.url);
    await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
    const prompt = page.getByRole("textbox", { name: "Prompt" });
    await prompt.fill("Answer fast");
    await prompt.press("Enter");
    const live = conversation(page).getByRole("article", { name: "pi" }).last();
    await expect(live).toContainText("Fast line 60 of the burst");

    // The wheel over the transcript's viewport (hovering the log itself would
    // scroll it into view: its box ends at the held size, above the view).
    const view = await conversation(page).evaluate((log) => {
      const { left, top, width, height } = log.parentElement!.getBoundingClientRect();
      return { x: left + width / 2, y: top + height / 2 };
    });
    await page.mouse.move(view.x, view.y);
    await page.mouse.wheel(0, -200);
    await expect(page.getByRole("button", { name: "Scroll to latest" })).toBeVisible();
    // The case this test is about: reading below the size the list knows.
    expect(await viewBelowHeldSize(page)).toBe(true);
    const reading = await paragraphAtTop(page);
    expect(reading.text).toMatch(/^Fast line \d+ of the burst/);

    // When the answer ends the list learns the row's real size; once it was
    // taken for growth above the view, and the view jumped to the answer's end.
    await expect(live).toContainText("End of the fast answer.");
    await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
    await page.waitForTimeout(300);
    expect(await paragraphAtTop(page)).toEqual(reading);
  });
});
