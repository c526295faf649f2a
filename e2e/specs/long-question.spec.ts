// A long question from pi (a 60-line command to approve in a select) shows
// its start, where what is approved begins (`rm -rf build`), and its answer
// buttons at once, without scrolling the dialog: the question scrolls in its
// own monospace block, the buttons stay put. On a desktop and on a phone.
import type { Locator, Page } from "@playwright/test";
import { expectAccessible } from "../support/accessible.ts";
import { expect, extension, test } from "../support/pier.ts";

test.use({ piArgs: ["-e", extension("asks-over-panels.ts")] });

/** Is `text` inside `box`, drawn within the part of `box` that shows and within the window? */
function showsText(box: Locator, text: string): Promise<boolean> {
  return box.evaluate((el, needle) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = (node as Text).data.indexOf(needle);
      if (at === -1) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      const line = range.getBoundingClientRect();
      const shown = el.getBoundingClientRect();
      return line.top >= shown.top && line.bottom <= shown.bottom && line.top >= 0 && line.bottom <= window.innerHeight && line.right <= window.innerWidth;
    }
    return false;
  }, text);
}

/** Fully in the window, and the topmost thing at its centre (a tap lands on it). */
function inView(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const whole = r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
    return whole && el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
  });
}

async function ask(page: Page): Promise<Locator> {
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("/ask-long");
  await prompt.press("Enter");
  const dialog = page.getByRole("dialog", { name: /^Allow this command\?/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("listbox")).toBeFocused();
  return dialog;
}

for (const [size, viewport] of [
  ["1440×900", { width: 1440, height: 900 }],
  ["390×844", { width: 390, height: 844 }],
] as const) {
  test(`at ${size}, a 60-line command to approve shows its first lines and the answers, without scrolling`, async ({ page, pier }, testInfo) => {
    await page.setViewportSize(viewport);
    await page.goto(pier.url);
    await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
    await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
    const dialog = await ask(page);
    const question = dialog.getByRole("heading");

    // The start of the question and of the command are in view ...
    await expect.poll(() => showsText(question, "Allow this command?")).toBe(true);
    await expect.poll(() => showsText(question, "rm -rf build")).toBe(true);
    await expect(dialog).toContainText("61 lines");
    // ... and so is every answer, with nothing scrolled.
    for (const option of ["Allow once", "Always allow", "Deny"]) await expect.poll(() => inView(dialog.getByRole("option", { name: option }))).toBe(true);
    await expect.poll(() => inView(dialog.getByRole("button", { name: "Cancel" }))).toBe(true);
    expect(await dialog.evaluate((el) => el.scrollTop)).toBe(0);
    // A command shows as code.
    expect(await question.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);
    await page.screenshot({ path: testInfo.outputPath(`long-question-${viewport.width}x${viewport.height}.png`) });
    // The scrolling question is reachable with the keyboard (Tab), and the dialog passes axe.
    await page.keyboard.press("Shift+Tab");
    await expect(question).toBeFocused();
    // (label-content-name-mismatch: the first screen's cards behind, as in accessibility.spec.)
    await expectAccessible(page, `long question at ${size}`, ["label-content-name-mismatch"]);

    // The rest of the command is there, in the question's own scroll.
    await question.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect.poll(() => showsText(question, "echo done: the last line")).toBe(true);
    await expect.poll(() => inView(dialog.getByRole("option", { name: "Deny" }))).toBe(true);
    await page.screenshot({ path: testInfo.outputPath(`long-question-${viewport.width}x${viewport.height}-end.png`) });

    // The answer reaches pi.
    await dialog.getByRole("option", { name: "Deny" }).click();
    await expect(page.getByLabel("Extension notifications").getByText("long → Deny", { exact: true })).toBeVisible();
  });
}
