// Accessibility: axe-core (the engine behind Lighthouse's and Chrome's
// audits) checks the screens a newcomer goes through, each in light and in
// dark: the first screen, the demo tour's answers and their tool cards
// opened (highlighted code, a terminal's output, a diff), the inspector's
// four tabs, the Sessions panel and its tree, the Share dialog, the usage
// and model popovers, and the explorer with files open in the editor (their
// syntax colours included); and, for sharing, a viewer's page and the
// driver's with the viewer in it. Every rule axe runs by default (WCAG A
// and AA, and its best practices), with these exceptions, each for a
// reason:
// - the records list scrolls inside a listbox that has the focus and moves
//   through the records with the arrow keys (aria-activedescendant): its
//   scroller needs no focus of its own (scrollable-region-focusable);
// - a first screen's way to start is named by its title ("Start the tour"),
//   its text describes it; a session tree row is named by its title and
//   where it stands ("…, current position"), without the time it shows
//   (label-content-name-mismatch: the name holds the visible label, which
//   is what WCAG 2.5.3 asks, not every word on the control); so is the
//   button of the people here ("People here: 2"), whose initials stand for
//   faces, not for its label;
// - with the editor open, the splitter between it and the chat (a focusable
//   separator) stands between two landmarks, in none (region, a best
//   practice, not a WCAG rule).
import type { Page } from "@playwright/test";
import { startPier } from "../../relay/test/support/pier-process.ts";
import { piArgsForVersion } from "../../relay/test/support/pi-under-test.ts";
import { expectAccessible } from "../support/accessible.ts";
import { expect, test } from "../support/pier.ts";

const inspector = (page: Page) => page.getByRole("complementary", { name: "Protocol inspector" });

test("the first screen, the tour, the inspector, sessions, sharing, the header's popovers and the editor pass axe in light and dark", async ({ page, piVersion }) => {
  test.slow(); // the tour is paced to be read: ~15 s
  const pier = await startPier(["--demo", ...piArgsForVersion(piVersion)]);
  try {
    await page.goto(pier.url);
    await expect(page.getByRole("heading", { name: "What should pi work on?" })).toBeVisible();
    await expectAccessible(page, "first screen", ["label-content-name-mismatch"]);

    await page.getByRole("list", { name: "Ways to start" }).getByRole("button", { name: "Start the tour", exact: true }).click();
    const conversation = page.getByRole("log", { name: "Conversation" });
    await expect(conversation.getByText("That's the tour.")).toBeVisible({ timeout: 45_000 });
    await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
    await expectAccessible(page, "the tour's answers");
    // Its tool cards opened: a file's highlighted code, a terminal's output, an edit's diff.
    const cards = conversation.getByRole("group", { name: /^Tool call: / });
    for (const card of await cards.all()) {
      const head = card.locator("button[aria-expanded]").first();
      if ((await head.getAttribute("aria-expanded")) === "false") await head.click();
      await expect(head).toHaveAttribute("aria-expanded", "true");
    }
    await expect(conversation.locator(".hljs-comment").first()).toBeAttached();
    await expectAccessible(page, "the tour's tool cards, open");

    await page.getByRole("button", { name: "Protocol inspector", exact: true }).click();
    await expect(inspector(page).getByRole("listbox", { name: "Records" }).getByRole("option").first()).toBeVisible();
    await expectAccessible(page, "inspector, Records", ["scrollable-region-focusable"]);
    for (const tab of ["Bytes", "Timeline", "Compose"]) {
      await inspector(page).getByRole("tab", { name: tab }).click();
      await expect(inspector(page).getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
      await expect(inspector(page).getByRole("tabpanel")).toBeVisible();
      await expectAccessible(page, `inspector, ${tab}`);
    }
    await inspector(page).getByRole("button", { name: "Close protocol inspector" }).click();

    await page.getByRole("button", { name: "Sessions", exact: true }).click();
    const sessions = page.getByRole("dialog", { name: "Sessions" });
    await expect(sessions.getByRole("list", { name: "Saved sessions" }).getByRole("listitem").first()).toBeVisible();
    await expectAccessible(page, "sessions list");
    await sessions.getByRole("tab", { name: "This session's tree" }).click();
    await expect(sessions.getByRole("treeitem").first()).toBeVisible();
    await expectAccessible(page, "session tree", ["label-content-name-mismatch"]);
    await page.keyboard.press("Escape");
    await expect(sessions).toBeHidden();

    await page.getByRole("button", { name: "Share" }).click();
    await expect(page.getByRole("dialog", { name: "Share" })).toBeVisible();
    await expectAccessible(page, "share dialog");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: /^Usage: / }).click();
    await expect(page.getByRole("dialog", { name: "Session usage" })).toBeVisible();
    await expectAccessible(page, "usage popover");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: /^Model: / }).click();
    await expect(page.getByRole("dialog").getByRole("option").first()).toBeVisible();
    await expectAccessible(page, "model picker");
    await page.keyboard.press("Escape");

    // The explorer and editor tabs (Monaco's own widgets included), with the
    // code's syntax colours: Markdown, then JavaScript (comments, strings,
    // regular expressions, numbers, coloured brackets).
    const code = page.getByRole("region", { name: "Editor" }).locator(".monaco-editor .view-lines").first();
    await page.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name: "README.md", exact: true }).click();
    await expect(code).toContainText("tiny-greeter", { timeout: 30_000 });
    await expectAccessible(page, "explorer and editor (Markdown)", ["region"]);
    await page.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name: "test.js", exact: true }).click();
    await expect(code).toContainText("assert.match");
    await expectAccessible(page, "explorer and editor (JavaScript)", ["region"]);
  } finally {
    await pier.stop();
  }
});

test("sharing: a viewer's page, before and after giving a name, and the driver's with the viewer in it pass axe in light and dark", async ({ page, pier, browser }) => {
  await page.goto(pier.url);
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("hello");
  await prompt.press("Enter");
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
  await page.getByRole("button", { name: "Share" }).click();
  const share = page.getByRole("dialog", { name: "Share" });
  await share.getByRole("button", { name: "Create viewer link" }).click();
  const link = await share.getByRole("textbox", { name: "Link address" }).inputValue();
  await expect(share.getByRole("img", { name: "QR code of the viewer link" })).toBeVisible();
  await expectAccessible(page, "share dialog with a link");
  await page.keyboard.press("Escape");

  const viewer = await (await browser.newContext()).newPage();
  await viewer.goto(link);
  const banner = viewer.getByRole("region", { name: "Introduce yourself" });
  await expect(banner).toBeVisible();
  await expect(viewer.getByRole("log", { name: "Conversation" })).toContainText("Hello from the scripted model!");
  await expectAccessible(viewer, "viewer, asked for a name", ["label-content-name-mismatch"]);
  await banner.getByRole("textbox", { name: "Your name" }).fill("Bob");
  await banner.getByRole("textbox", { name: "Your name" }).press("Enter");
  await expect(banner).toBeHidden();
  await expectAccessible(viewer, "viewer", ["label-content-name-mismatch"]);

  await expect(page.getByRole("button", { name: "People here: 2" })).toBeVisible();
  await expectAccessible(page, "driver with a viewer", ["label-content-name-mismatch"]);
});

test("Tab and Shift+Tab go round a modal panel's own controls, not the page behind it", async ({ page, pier }) => {
  await page.goto(pier.url);
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("hello");
  await prompt.press("Enter");
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();

  await page.getByRole("button", { name: "Sessions", exact: true }).click();
  const sessions = page.getByRole("dialog", { name: "Sessions" });
  await expect(sessions.getByRole("list", { name: "Saved sessions" }).getByRole("listitem").first()).toBeVisible();
  const focusInside = (dialog: typeof sessions) => dialog.evaluate((box) => box.contains(document.activeElement));
  for (const key of ["Tab", "Shift+Tab"]) {
    // More presses than the panel has controls: round at least once.
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press(key);
      expect(await focusInside(sessions), `${key} × ${i + 1}`).toBe(true);
    }
  }
  await page.keyboard.press("Escape");
  await expect(sessions).toBeHidden();

  await page.keyboard.press("Control+p");
  const goTo = page.getByRole("dialog", { name: "Go to file" });
  await expect(goTo).toBeVisible();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    expect(await focusInside(goTo), `Tab × ${i + 1} in Go to file`).toBe(true);
  }
});
