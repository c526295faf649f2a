// A session with thousands of messages, loaded for real: pi opens a generated
// session file (`pi --session <file>`), Pier shows it. The transcript is
// virtualized: only what is on screen (plus overscan) is in the DOM, yet the
// first message is reachable by scrolling and new output is still followed.
import type { Page } from "@playwright/test";
import { expect, longSessionPiArgs, test } from "../support/pier.ts";

const MESSAGES = 2000;

test.use({ scenarioName: "long-session", piArgs: longSessionPiArgs(MESSAGES) });

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const agent = (page: Page) => page.getByRole("status", { name: /^Agent:/ });

/**
 * Pixels between the bottom of the scrolled transcript and the bottom of its
 * viewport, read once the current frame's layout (and the transcript's
 * resize-following) is done: a delta that just arrived is followed in the
 * frame that shows it, not in the same task.
 */
function distanceFromBottom(page: Page): Promise<number> {
  return conversation(page).evaluate(
    (log) =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() =>
          setTimeout(() => {
            const scroller = log.parentElement!;
            resolve(scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight);
          }),
        ),
      ),
  );
}

/**
 * Rendered rows whose content reaches into the next row: the streaming
 * answer's row overflows a held size while it streams (Conversation.svelte),
 * and must be measured for real once it ends, or what comes after it lands
 * on top of it.
 */
function overlappingRows(page: Page): Promise<string[]> {
  return conversation(page).evaluate((log) => {
    const rows = [...log.querySelectorAll<HTMLElement>(".row")]
      .map((row) => ({
        top: row.getBoundingClientRect().top,
        bottom: Math.max(row.getBoundingClientRect().bottom, ...[...row.children].map((child) => child.getBoundingClientRect().bottom)),
        text: (row.textContent ?? "").trim().slice(0, 40),
      }))
      .sort((a, b) => a.top - b.top);
    const overlaps: string[] = [];
    for (let i = 1; i < rows.length; i++) {
      if (rows[i]!.top < rows[i - 1]!.bottom - 1) overlaps.push(`"${rows[i]!.text}" over "${rows[i - 1]!.text}"`);
    }
    return overlaps;
  });
}

test("a 2,000-message session opens at its end with only a window of messages in the DOM", async ({ page, pier }) => {
  test.setTimeout(90_000);
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();

  // The end of the session is what shows.
  const lastAnswer = conversation(page).getByRole("article", { name: "pi" }).last();
  await expect(lastAnswer).toContainText(`Answer ${MESSAGES / 2}.`);
  await expect(lastAnswer).toBeInViewport();
  await expect(page.getByRole("button", { name: "Scroll to latest" })).toBeHidden();
  await expect.poll(() => distanceFromBottom(page)).toBeLessThan(48);

  // The DOM holds a window, not 2,000 articles.
  const inDom = await conversation(page).locator("article").count();
  expect(inDom).toBeGreaterThan(2);
  expect(inDom).toBeLessThan(100);
  await expect(conversation(page).getByText("Question 1:", { exact: false })).toHaveCount(0);

  // A thought opened near the end (answer 996 has one)…
  const thoughtful = conversation(page)
    .getByRole("article", { name: "pi" })
    .filter({ hasText: `Answer ${MESSAGES / 2 - 4}.` });
  const thought = thoughtful.getByText(`Step ${MESSAGES / 2 - 4}: the user wants the short version.`);
  await thoughtful.locator("summary", { hasText: "Thought" }).click();
  await expect(thought).toBeVisible();

  // Scrolling (the wheel, as a person would) reaches the very first message.
  await conversation(page).hover();
  const firstQuestion = conversation(page).getByText("Question 1: how does step 1 of the refactor work?");
  await expect
    .poll(
      async () => {
        await page.mouse.wheel(0, -40_000);
        return firstQuestion.isVisible();
      },
      { timeout: 30_000, intervals: [50] },
    )
    .toBe(true);
  await expect(firstQuestion).toBeInViewport();
  expect(await conversation(page).locator("article").count()).toBeLessThan(100);
  // Reading old messages: following stops and the way back is offered.
  const jump = page.getByRole("button", { name: "Scroll to latest" });
  await expect(jump).toBeVisible();
  await expect(conversation(page).getByText(`Answer ${MESSAGES / 2}.`)).toHaveCount(0);

  // Scrolling down with the wheel from the top lands on real messages, not blanks.
  await page.mouse.wheel(0, 3000);
  await expect.poll(() => conversation(page).getByRole("article").filter({ visible: true }).count()).toBeGreaterThan(3);
  // The rendered rows cover the whole viewport: no gap where a message should be.
  await expect
    .poll(() =>
      conversation(page).evaluate((log) => {
        const view = log.parentElement!.getBoundingClientRect();
        const rows = [...log.querySelectorAll(".row")].map((r) => r.getBoundingClientRect()).sort((a, b) => a.top - b.top);
        let covered = view.top;
        for (const r of rows) {
          if (r.bottom <= covered) continue;
          if (r.top > covered + 1) break;
          covered = r.bottom;
        }
        return covered >= view.bottom - 1;
      }),
    )
    .toBe(true);

  // "Scroll to latest" goes back to the end.
  await jump.click();
  await expect(lastAnswer).toContainText(`Answer ${MESSAGES / 2}.`);
  await expect(lastAnswer).toBeInViewport();
  await expect(jump).toBeHidden();
  // …is still open after its row left the DOM and came back.
  await expect(thought).toBeVisible();
});

test("a new prompt in a long session streams and the transcript follows it", async ({ page, pier }) => {
  test.setTimeout(90_000);
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText(`Answer ${MESSAGES / 2}.`);

  // Scrolled up to read, then send: sending brings the transcript back to the latest.
  await conversation(page).hover();
  await page.mouse.wheel(0, -5000);
  await expect(page.getByRole("button", { name: "Scroll to latest" })).toBeVisible();

  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("Keep going with the next step");
  await prompt.press("Enter");
  await expect(conversation(page).getByRole("article", { name: "You" }).last()).toContainText("Keep going with the next step");
  await expect(agent(page)).toHaveAccessibleName("Agent: Working");

  // While the long answer streams, the view stays at the bottom, sample after sample.
  const live = conversation(page).getByRole("article", { name: "pi" }).last();
  await expect(live).toContainText("Line 5 of the long streamed answer");
  const jump = page.getByRole("button", { name: "Scroll to latest" });
  const samples: number[] = [];
  for (let i = 0; i < 6; i++) {
    await page.waitForTimeout(250);
    samples.push(await distanceFromBottom(page));
    // Still following: the way back to the latest is never offered meanwhile.
    expect(await jump.isVisible()).toBe(false);
  }
  // At most a freshly streamed line below the fold at any sample.
  expect(Math.max(...samples)).toBeLessThan(48);

  await expect(live).toContainText("End of the long answer.");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  await expect(live.getByText("End of the long answer.")).toBeInViewport();
  await expect.poll(() => distanceFromBottom(page)).toBeLessThan(48);
  expect(await conversation(page).locator("article").count()).toBeLessThan(100);

  // What comes after the finished answer is laid out below all of it.
  await prompt.fill("Thanks");
  await prompt.press("Enter");
  const next = conversation(page).getByRole("article", { name: "pi" }).last();
  await expect(next).toContainText("Another answer from the scripted model.");
  await expect(next).toBeInViewport();
  expect(await overlappingRows(page)).toEqual([]);
  const answerBottom = await conversation(page)
    .getByRole("article", { name: "pi" })
    .filter({ hasText: "End of the long answer." })
    .evaluate((article) => article.getBoundingClientRect().bottom);
  const thanksTop = await conversation(page)
    .getByRole("article", { name: "You" })
    .last()
    .evaluate((article) => article.getBoundingClientRect().top);
  expect(thanksTop).toBeGreaterThan(answerBottom);
});

test("Ctrl+F finds text in messages that are not rendered, and steps through the matches", async ({ page, pier }) => {
  test.setTimeout(90_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText(`Answer ${MESSAGES / 2}.`);
  const early = conversation(page).getByText("Question 3: how does step 3 of the refactor work?");
  await expect(early).toHaveCount(0); // far above: not in the DOM

  await page.getByRole("textbox", { name: "Prompt" }).focus();
  await page.keyboard.press("Control+f");
  const find = page.getByRole("searchbox", { name: "Find in conversation" });
  await expect(find).toBeFocused();
  await find.fill("question 3: how");
  const count = page.getByRole("search", { name: "Find in conversation" }).getByRole("status");
  await expect(count).toHaveText("1 of 1");
  await expect(early).toBeInViewport();
  // The match itself is marked (a CSS highlight over the rendered text).
  await expect.poll(() => page.evaluate(() => CSS.highlights.get("pier-find-current")?.size ?? 0)).toBe(1);
  // Reading an old match: the transcript stopped following.
  await expect(page.getByRole("button", { name: "Scroll to latest" })).toBeVisible();

  // Many matches: Enter goes down, Shift+Enter back up, wrapping around.
  await find.fill("Please keep the answer short");
  await expect(count).toHaveText(/^\d+ of 333$/);
  const at = async () => Number((await count.textContent())!.split(" ")[0]);
  const first = await at();
  await find.press("Enter");
  await expect.poll(at).toBe(first + 1);
  await find.press("Shift+Enter");
  await expect.poll(at).toBe(first);
  const shown = conversation(page).locator("[data-find-current]");
  await expect(shown).toHaveCount(1);
  await expect(shown).toBeInViewport();
  await expect(shown).toContainText("Please keep the answer short");

  await find.fill("no such words anywhere");
  await expect(count).toHaveText("No matches");

  // Esc closes the find bar (and is not the agent's Esc); focus goes back.
  await find.press("Escape");
  await expect(find).toBeHidden();
  await expect(page.getByRole("textbox", { name: "Prompt" })).toBeFocused();
  expect(await page.evaluate(() => CSS.highlights.has("pier-find"))).toBe(false);
  expect(errors).toEqual([]);
});
