// The marks that say pi is at work (the agent's dot, the Live dot, the caret
// after the streamed text) blink on the page's one clock (an attribute on
// <html>, web/src/lib/blink-clock.ts), not with CSS animations, which made
// Chromium restyle the page and draw a frame 60 times a second while an
// answer streamed. Real pi and the scripted model, streaming slowly.
import { expect, test } from "../support/pier.ts";

test.use({ scenarioName: "slow-answer" });

test("while pi streams, the marks blink on the page's clock with no CSS animation running; when it stops, the clock stops", async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("Count slowly");
  await prompt.press("Enter");

  const answer = page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "pi" }).last();
  await expect(answer).toContainText("Counting slowly: one");
  await expect(page.getByRole("status", { name: "Agent: Working" })).toBeVisible();
  const caret = answer.locator("[data-caret]");
  await expect(caret).toHaveCount(1);

  // The clock flips both ways, and the caret follows it (hidden while "off"): both read in one go, so a flip cannot fall between them.
  const clockAndCaret = () => caret.evaluate((element) => ({ blink: document.documentElement.dataset["blink"] ?? null, opacity: getComputedStyle(element, "::after").opacity }));
  await expect.poll(clockAndCaret, { timeout: 5000, intervals: [50] }).toEqual({ blink: "off", opacity: "0" });
  await expect.poll(clockAndCaret, { timeout: 5000, intervals: [50] }).toEqual({ blink: "on", opacity: "1" });

  // Nothing animates for ever meanwhile (a transition of a moment may).
  const endless = await page.evaluate(() =>
    document
      .getAnimations()
      .filter((animation) => animation.effect?.getTiming().iterations === Infinity)
      .map((animation) => (animation instanceof CSSAnimation ? animation.animationName : String(animation.id))),
  );
  expect(endless).toEqual([]);

  // Stopped: nothing blinks, and no clock is left to wake the page.
  await page.getByRole("button", { name: "Abort" }).click();
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
  await expect(caret).toHaveCount(0);
  await expect(page.locator("html")).not.toHaveAttribute("data-blink");
});
