// A question from pi (an extension's select / confirm / input / editor) comes
// to the top of the page, whatever is open, and takes the keyboard: pi waits
// on the answer. The test extension e2e/extensions/asks-over-panels.ts guards
// new session / switch / fork / clone with a confirm (so it asks while the
// Sessions panel is open), and asks on demand when the spec writes a file,
// after opening each panel, popover, sheet and pane of the page in turn.
import { rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { expect, extension, test } from "../support/pier.ts";
import { projectDir } from "../support/project-dir.ts";
import { openViewer, revokeViewerLink } from "../support/viewer-link.ts";

test.use({ scenarioName: "sessions", piArgs: ["-e", extension("asks-over-panels.ts")] });

const promptBox = (page: Page) => page.getByRole("textbox", { name: "Prompt" });
const sessionsPanel = (page: Page) => page.getByRole("dialog", { name: "Sessions" });
const report = (page: Page, text: string) => page.getByLabel("Extension notifications").getByText(text, { exact: true });

async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
}

async function send(page: Page, text: string): Promise<void> {
  await promptBox(page).fill(text);
  await promptBox(page).press("Enter");
  await expect(page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "pi" }).last()).toBeVisible();
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
}

/**
 * The dialog is the topmost thing at its centre and at its buttons (nothing
 * covers it: a click lands in it), and the keyboard is in it.
 */
async function expectOnTopWithFocus(dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  const covered = () =>
    dialog.evaluate((box) => {
      const points = [box, ...box.querySelectorAll("button")].map((el) => {
        const r = el.getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2] as const;
      });
      return points.filter(([x, y]) => !box.contains(document.elementFromPoint(x, y))).length;
    });
  await expect.poll(covered, { message: "points of the dialog covered by something else" }).toBe(0);
  await expect.poll(() => dialog.evaluate((box) => box.contains(document.activeElement)), { message: "focus inside the dialog" }).toBe(true);
}

/** Makes pi ask now (the extension polls for the file), and returns the dialog. */
async function piAsks(page: Page, dir: string, title: string): Promise<Locator> {
  // Written aside, then renamed: the extension never reads a half-written file.
  await writeFile(join(dir, ".ask-next"), title);
  await rename(join(dir, ".ask-next"), join(dir, ".ask-now"));
  const dialog = page.getByRole("dialog", { name: title });
  await expectOnTopWithFocus(dialog);
  return dialog;
}

test("the session guard's questions come over the Sessions panel, take the keyboard, and their answers count", async ({ page, pier }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPage(page, pier.url);
  await send(page, "first question");

  await page.getByRole("button", { name: "Sessions", exact: true }).click();
  const panel = sessionsPanel(page);
  await expect(panel).toBeVisible();

  // New session: asked over the panel. Esc is the question's (a cancel), not the panel's.
  await panel.getByRole("button", { name: "New session" }).click();
  let question = page.getByRole("dialog", { name: "Start a new session?" });
  await expectOnTopWithFocus(question);
  await page.keyboard.press("Escape");
  await expect(question).toBeHidden();
  await expect(report(page, "Start a new session? → false")).toBeVisible();
  await expect(panel).toBeVisible();
  await expect(panel.getByRole("status")).toHaveText("An extension kept the current session.");

  // Asked again, and a click on Yes reaches pi: the new session starts.
  await panel.getByRole("button", { name: "New session" }).click();
  question = page.getByRole("dialog", { name: "Start a new session?" });
  await expectOnTopWithFocus(question);
  await question.getByRole("button", { name: "Yes" }).click();
  await expect(panel.getByRole("status")).toHaveText("New session started.");

  // Switch back to the first session from the list.
  await panel
    .getByRole("list", { name: "Saved sessions" })
    .getByRole("button", { name: /^first question/ })
    .click();
  question = page.getByRole("dialog", { name: "Open the other session?" });
  await expectOnTopWithFocus(question);
  await question.getByRole("button", { name: "Yes" }).click();
  await expect(report(page, "Open the other session? → true")).toBeVisible();
  await expect(page.getByRole("log", { name: "Conversation" })).toContainText("first question");

  // Clone, from the panel.
  await expect(panel.getByRole("button", { name: "Clone" })).toBeEnabled();
  await panel.getByRole("button", { name: "Clone" }).click();
  question = page.getByRole("dialog", { name: "Clone this session?" });
  await expectOnTopWithFocus(question);
  await question.getByRole("button", { name: "Yes" }).click();
  await expect(panel.getByRole("status")).toHaveText("Cloned: you are in the copy now.");

  // Fork, from the panel's session tree.
  await panel.getByRole("tab", { name: "This session's tree" }).click();
  await panel
    .getByRole("tree", { name: "Session tree" })
    .getByRole("treeitem", { name: /You: first question/ })
    .click();
  await panel.getByRole("button", { name: "Fork from here" }).click();
  question = page.getByRole("dialog", { name: "Fork this session?" });
  await expectOnTopWithFocus(question);
  await question.getByRole("button", { name: "No" }).click();
  await expect(report(page, "Fork this session? → false")).toBeVisible();
});

async function showExplorer(page: Page): Promise<void> {
  const explorer = page.getByRole("navigation", { name: "Explorer" });
  if (!(await explorer.isVisible())) await page.getByRole("button", { name: "Explorer" }).click();
  await expect(page.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name: "README.md", exact: true })).toBeVisible();
}

/** What the page can have open when pi asks, and how to open it. */
type Opener = { name: string; open: (page: Page) => Promise<void> };

const desktop: Opener[] = [
  {
    name: "the Sessions panel",
    open: async (page) => {
      await page.getByRole("button", { name: "Sessions", exact: true }).click();
      await expect(sessionsPanel(page)).toBeVisible();
    },
  },
  {
    name: "the Share dialog",
    open: async (page) => {
      await page.getByRole("button", { name: "Share", exact: true }).click();
      await expect(page.getByRole("dialog", { name: "Share" })).toBeVisible();
    },
  },
  {
    name: "the session settings",
    open: async (page) => {
      await page.getByRole("button", { name: "Session settings" }).click();
      await expect(page.getByRole("dialog", { name: "Session settings" })).toBeVisible();
    },
  },
  {
    name: "the model picker",
    open: async (page) => {
      await page.getByRole("button", { name: /Pier demo model/ }).click();
      await expect(page.getByRole("dialog", { name: "Choose a model" })).toBeVisible();
    },
  },
  {
    name: "the people menu",
    open: async (page) => {
      await page.getByRole("button", { name: /^People here/ }).click();
      await expect(page.getByRole("dialog", { name: "People here" })).toBeVisible();
    },
  },
  {
    name: "the settings",
    open: async (page) => {
      await page.getByRole("button", { name: /^People here/ }).click();
      await page.getByRole("button", { name: "Settings…" }).click();
      await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
    },
  },
  {
    name: "the keyboard shortcuts",
    open: async (page) => {
      // The page's own keys, with nothing focused: a click at a spot of the page could land on the first
      // screen's "Start the tour" card once the page is ready, and a tour run would end pi's question.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press("F1");
      await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    },
  },
  {
    name: "the protocol inspector",
    open: async (page) => {
      await page.getByRole("button", { name: "Protocol inspector" }).click();
      await expect(page.getByRole("complementary", { name: "Protocol inspector" })).toBeVisible();
    },
  },
  {
    name: "quick open",
    open: async (page) => {
      // The page's own keys, with nothing focused: a click at a spot of the page could land on the first
      // screen's "Start the tour" card once the page is ready, and a tour run would end pi's question.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press("Control+p");
      await expect(page.getByRole("listbox", { name: "Matching files" })).toBeVisible();
    },
  },
  {
    name: "the new-file prompt",
    open: async (page) => {
      await showExplorer(page);
      const readme = page.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name: "README.md", exact: true });
      await readme.click({ button: "right" });
      await page.getByRole("menu", { name: "File actions" }).getByRole("menuitem", { name: "New file…" }).click();
      await expect(page.getByRole("dialog", { name: "New file" })).toBeVisible();
    },
  },
];

const phone: Opener[] = [
  desktop[0]!,
  {
    // A phone's header has no Share button: it is in the people list.
    name: "the Share dialog",
    open: async (page) => {
      await page.getByRole("button", { name: /^People here/ }).click();
      await page.getByRole("button", { name: "Share links…" }).click();
      await expect(page.getByRole("dialog", { name: "Share" })).toBeVisible();
    },
  },
  desktop[2]!,
  desktop.find((opener) => opener.name === "the settings")!,
  {
    name: "the inspector sheet",
    open: async (page) => {
      await page.getByRole("button", { name: "Protocol inspector" }).click();
      // Full screen on a phone, over everything else.
      await expect(page.getByRole("complementary", { name: "Protocol inspector" })).toBeVisible();
    },
  },
  {
    name: "the explorer drawer",
    open: async (page) => {
      await showExplorer(page);
    },
  },
  {
    name: "the editor pane",
    open: async (page) => {
      await showExplorer(page);
      await page.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name: "README.md", exact: true }).click();
      // The editor takes the phone's screen: the chat column, where the dialog is mounted, is hidden.
      await expect(page.getByRole("region", { name: "Editor" })).toBeVisible();
      await expect(promptBox(page)).toBeHidden();
    },
  },
];

for (const [size, viewport, openers] of [
  ["1440×900", { width: 1440, height: 900 }, desktop],
  ["390×844", { width: 390, height: 844 }, phone],
] as const) {
  test(`at ${size}, a question from pi comes over every panel, popover, sheet and pane, with the keyboard`, async ({ page, pier }, testInfo) => {
    test.setTimeout(120_000);
    const dir = await projectDir(pier);
    await page.setViewportSize(viewport);
    await openPage(page, pier.url);
    for (const opener of openers) {
      await opener.open(page);
      const title = `Asked over ${opener.name}`;
      const dialog = await piAsks(page, dir, title);
      await page.screenshot({ path: testInfo.outputPath(`over-${opener.name.replace(/\W+/g, "-")}.png`) });
      // A real click (Playwright refuses one that something else would catch).
      await dialog.getByRole("button", { name: "Yes" }).click();
      await expect(dialog).toBeHidden();
      // pi got the answer: it reports it in a notify (attached, not visible: the toasts
      // live in the chat column, which a phone's editor pane hides).
      await expect(report(page, `${title} → true`)).toBeAttached();
      // Next: a fresh page, nothing open.
      await page.reload();
      await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
      // The inspector stays open across a reload (this browser remembers it).
      const inspector = page.getByRole("complementary", { name: "Protocol inspector" });
      if (await inspector.isVisible()) await inspector.getByRole("button", { name: "Close protocol inspector" }).click();
    }
  });
}

test("a viewer is not put under the driver's question, whatever it has open; a revoked link gets nothing", async ({ page, pier, browser }) => {
  const dir = await projectDir(pier);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPage(page, pier.url);
  const viewer = await openViewer(page, browser);
  await viewer.getByRole("button", { name: "Sessions", exact: true }).click();
  await expect(sessionsPanel(viewer)).toBeVisible();

  const dialog = await piAsks(page, dir, "Asked with a viewer watching");
  // The viewer cannot answer (the relay refuses it): a line says what is asked, no modal.
  await expect(viewer.getByRole("status").filter({ hasText: "An extension is asking the driver: “Asked with a viewer watching”" })).toBeVisible();
  await expect(viewer.getByRole("dialog", { name: "Asked with a viewer watching" })).toHaveCount(0);
  await expect(sessionsPanel(viewer)).toBeVisible();
  await dialog.getByRole("button", { name: "No" }).click();
  await expect(viewer.getByRole("status").filter({ hasText: "An extension is asking the driver" })).toHaveCount(0);

  await revokeViewerLink(page, viewer);
  const again = await piAsks(page, dir, "Asked after the revocation");
  await expect(viewer.getByText("Asked after the revocation")).toHaveCount(0);
  await again.getByRole("button", { name: "Yes" }).click();
});

test("an editor that finishes loading behind a question from pi leaves the keyboard in the question", async ({ page, pier }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const dir = await projectDir(pier);
  // Monaco arrives late (a slow network, a busy machine): the file is chosen, pi asks, then the editor is ready.
  let releaseMonaco = () => {};
  const monacoHeld = new Promise<void>((resolve) => (releaseMonaco = resolve));
  await page.route(/\/assets\/monaco-setup-[^/]+\.js$/, async (route) => {
    await monacoHeld;
    await route.continue();
  });
  await openPage(page, pier.url);
  await showExplorer(page);
  await page.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name: "README.md", exact: true }).click();
  const dialog = await piAsks(page, dir, "Asked while the editor loads");
  releaseMonaco();
  await expect(page.getByRole("region", { name: "Editor" }).locator(".view-lines")).toBeVisible();
  // Give the editor's own focus a chance to land, then look.
  await page.waitForTimeout(500);
  expect(await dialog.evaluate((box) => box.contains(document.activeElement))).toBe(true);
  await dialog.getByRole("button", { name: "Yes" }).click();
  await expect(dialog).toBeHidden();
  await expect(report(page, "Asked while the editor loads → true")).toBeAttached();
});
