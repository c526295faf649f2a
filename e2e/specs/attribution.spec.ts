// Pair mode, seen from the other browser: whose prompt a message was, that
// another person aborted the run or started a new session (a toast and a
// marker in the transcript, never silently), that a dialog was answered
// elsewhere, and following a driver's editor. Two browser contexts on one
// real pier + pi; names come from the remembered-name key the page
// introduces after every hello.
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import type { RelayFrame } from "@pier/protocol";
import { connectBrowser, type RunningPier } from "../../relay/test/support/pier-process.ts";
import { expect, extension, test } from "../support/pier.ts";
import { expectExtensionStatus } from "../support/extension-status.ts";

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const agent = (page: Page) => page.getByRole("status", { name: /^Agent:/ });
const announcements = (page: Page) => page.getByRole("status", { name: "Announcements" });
const inspector = (page: Page) => page.getByRole("complementary", { name: "Protocol inspector" });
const editorArea = (page: Page) => page.getByRole("region", { name: "Editor" });
const codeEditor = (page: Page) => page.locator(".code-editor");
const followBar = (page: Page) => page.getByRole("group", { name: "Follow mode" });

/** A browser of its own (its own storage and cookie) whose person goes by `name`. */
async function enter(browser: Browser, url: string, name: string, viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(viewport ? { viewport } : {});
  await context.addInitScript((remembered) => localStorage.setItem("pier.name", remembered), name);
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  return { context, page };
}

async function send(page: Page, text: string): Promise<void> {
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill(text);
  await prompt.press("Enter");
}

/** The scratch project pi (and the file API) works in, and a viewer link, asked of the relay as a driver would. */
async function viewerLinkAndProject(pier: RunningPier): Promise<{ url: string; dir: string }> {
  const driver = await connectBrowser(pier);
  try {
    driver.send({ type: "pier.create_link", role: "viewer" });
    const created = await driver.waitForFrame("link_created");
    const dir = driver.hello.demo?.projectDir;
    if (!dir) throw new Error("pier --demo did not name its project dir");
    return { url: `${pier.origin}/?token=${(created as Extract<RelayFrame, { type: "link_created" }>).token}`, dir };
  } finally {
    await driver.close();
  }
}

/** Row elements of the transcript in order: their text, for "what comes after what". */
async function rowTexts(log: Locator): Promise<string[]> {
  return log.locator("[data-row]").allInnerTexts();
}

test.describe("prompts, aborts and new sessions", () => {
  test.use({ scenarioName: "attribution" });

  test("another person's prompt carries their name; their abort and new session are announced and marked", async ({ pier, browser }) => {
    const ada = await enter(browser, pier.url, "Ada");
    const bob = await enter(browser, await pier.freshUrl(), "Bob");
    try {
      await send(ada.page, "Hello from Ada");
      // Bob's transcript: the message is Ada's, with her name; Ada's own says "You" (someone else is here).
      const fromAda = conversation(bob.page).getByRole("group", { name: "Message from Ada" });
      await expect(fromAda.getByRole("article", { name: "Ada" })).toHaveText("Hello from Ada");
      await expect(fromAda.locator(".author")).toHaveText("Ada");
      await expect(conversation(ada.page).getByRole("group", { name: "Your message" }).locator(".author")).toHaveText("You");
      await expect(conversation(ada.page).getByRole("article", { name: "You" })).toHaveText("Hello from Ada");
      await expect(agent(bob.page)).toHaveAccessibleName("Agent: Idle");
      // Bob's own prompt is his, not Ada's, even with the same text.
      await send(bob.page, "Hello from Ada");
      await expect(conversation(bob.page).getByRole("article", { name: "You" })).toHaveText("Hello from Ada");
      await expect(conversation(ada.page).getByRole("article", { name: "Bob" })).toHaveText("Hello from Ada");
      await expect(agent(ada.page)).toHaveAccessibleName("Agent: Idle");

      // The inspector names who sent a command, in the records, their details and the timeline's lanes.
      await bob.page.getByRole("button", { name: "Protocol inspector" }).click();
      await inspector(bob.page).getByRole("combobox", { name: "Record type" }).selectOption("prompt");
      const adaPrompt = inspector(bob.page).getByRole("listbox", { name: "Records" }).getByRole("option").filter({ hasText: /^↑/ }).first();
      await expect(adaPrompt.locator(".badge.sender")).toHaveText("Ada");
      await adaPrompt.click();
      await expect(inspector(bob.page).getByRole("region", { name: "Record details" })).toContainText("Sent by Ada; the relay announced it (command_sent)");
      await inspector(bob.page).getByRole("tab", { name: "Timeline" }).click();
      await expect(inspector(bob.page).locator(".lane-label", { hasText: /^Ada$/ })).toBeVisible();
      await inspector(bob.page).getByRole("button", { name: "Close protocol inspector" }).click();

      // Ada stops a streaming answer: Bob is told, and the transcript says so under the stopped answer.
      await send(ada.page, "Count slowly, please");
      await expect(conversation(bob.page).getByRole("article", { name: "pi" }).last()).toContainText("Counting slowly: one");
      await ada.page.getByRole("button", { name: "Abort" }).click();
      await expect(announcements(bob.page)).toContainText("Ada aborted the run");
      const abortNote = conversation(bob.page).getByRole("note").filter({ hasText: "Ada aborted the run" });
      await expect(abortNote).toBeVisible();
      await expect(agent(bob.page)).toHaveAccessibleName("Agent: Idle");
      const rows = await rowTexts(conversation(bob.page));
      expect(rows.at(-1)).toContain("Ada aborted the run");
      expect(rows.at(-2)).toContain("Counting slowly: one");
      // Her own abort is not announced to her.
      await expect(announcements(ada.page)).not.toContainText("aborted");

      // Ada starts a new session: Bob's conversation empties, and he is told why, at its top.
      await ada.page.getByRole("button", { name: "Sessions", exact: true }).click();
      const sessions = ada.page.getByRole("dialog", { name: "Sessions" });
      await sessions.getByRole("button", { name: "New session" }).click();
      await expect(sessions.getByRole("status")).toHaveText("New session started.");
      await expect(announcements(bob.page)).toContainText("Ada started a new session");
      await expect(conversation(bob.page).getByRole("article")).toHaveCount(0);
      await expect(conversation(bob.page).getByRole("note").filter({ hasText: "Ada started a new session" })).toBeVisible();
      // First under the system prompt's disclosure, before anything of the new session.
      const newRows = (await rowTexts(conversation(bob.page))).filter((text) => !text.startsWith("System prompt"));
      expect(newRows[0]).toContain("Ada started a new session");
    } finally {
      await ada.context.close();
      await bob.context.close();
    }
  });

  test("a page that reloads, mid-answer or after, and one that joins late still say who sent the earlier prompts", async ({ pier, browser }) => {
    const { url: viewerUrl } = await viewerLinkAndProject(pier);
    const ada = await enter(browser, pier.url, "Ada");
    const bob = await enter(browser, await pier.freshUrl(), "Bob");
    try {
      await send(ada.page, "Hello from Ada");
      await expect(conversation(bob.page).getByRole("group", { name: "Message from Ada" })).toHaveCount(1);
      await expect(agent(bob.page)).toHaveAccessibleName("Agent: Idle");
      // Bob sends the same words: the log must keep them apart by order, as live.
      await send(bob.page, "Hello from Ada");
      await expect(conversation(ada.page).getByRole("group", { name: "Message from Bob" })).toHaveCount(1);
      await expect(agent(ada.page)).toHaveAccessibleName("Agent: Idle");
      await send(ada.page, "Count slowly, please");
      await expect(conversation(bob.page).getByRole("article", { name: "pi" }).last()).toContainText("Counting slowly: one");

      // Bob reloads while Ada's answer is still streaming.
      await bob.page.reload();
      await expect(bob.page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
      const fromAda = conversation(bob.page).getByRole("group", { name: "Message from Ada" });
      await expect(fromAda).toHaveCount(2);
      await expect(fromAda.first().locator(".author")).toHaveText("Ada");
      await expect(fromAda.first().getByRole("article", { name: "Ada" })).toHaveText("Hello from Ada");
      await expect(fromAda.last().getByRole("article", { name: "Ada" })).toHaveText("Count slowly, please");
      // His own prompt is his again ("You"), not someone else's.
      const bobsOwn = conversation(bob.page).getByRole("group", { name: "Your message" });
      await expect(bobsOwn).toHaveCount(1);
      await expect(bobsOwn.locator(".author")).toHaveText("You");
      await expect(bobsOwn.getByRole("article")).toHaveText("Hello from Ada");

      // A viewer who arrives after all of it is told the same (viewers get command_sent live too).
      await expect(agent(ada.page)).toHaveAccessibleName("Agent: Idle", { timeout: 20_000 });
      const viewer = await enter(browser, viewerUrl, "Vera");
      try {
        const seen = conversation(viewer.page);
        await expect(seen.getByRole("group", { name: "Message from Ada" })).toHaveCount(2);
        await expect(seen.getByRole("group", { name: "Message from Bob" })).toHaveCount(1);
        await expect(seen.getByRole("group", { name: "Message from Bob" }).getByRole("article", { name: "Bob" })).toHaveText("Hello from Ada");
      } finally {
        await viewer.context.close();
      }

      // Ada reloads after the run: her prompts are hers ("You"), Bob's is Bob's.
      await ada.page.reload();
      await expect(ada.page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
      await expect(conversation(ada.page).getByRole("group", { name: "Message from Bob" })).toHaveCount(1);
      await expect(conversation(ada.page).getByRole("group", { name: "Your message" }).locator(".author")).toHaveText(["You", "You"]);
    } finally {
      await ada.context.close();
      await bob.context.close();
    }
  });

  test("a name with markup is shown as text", async ({ pier, browser }) => {
    // Within the relay's 40 characters, so it arrives whole.
    const name = "<img src=x onerror=window.__pwned=1>Mal";
    const mallory = await enter(browser, pier.url, name);
    const bob = await enter(browser, await pier.freshUrl(), "Bob");
    try {
      await send(mallory.page, "hi");
      const message = conversation(bob.page).getByRole("group", { name: `Message from ${name}` });
      await expect(message.locator(".author")).toHaveText(name);
      await expect(message.locator("img")).toHaveCount(0);
      expect(await bob.page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    } finally {
      await mallory.context.close();
      await bob.context.close();
    }
  });
});

test.describe("dialogs", () => {
  test.use({ piArgs: ["-e", extension("ui-probe.ts")] });

  test("a dialog answered in one browser closes in the other, saying who answered what; a late answer is refused and says so", async ({ pier, browser }) => {
    const ada = await enter(browser, pier.url, "Ada");
    const bob = await enter(browser, await pier.freshUrl(), "Bob");
    // A relay client of the test's own, to read the dialog's id off pi's stream.
    const watcher = connectBrowser(pier);
    try {
      await watcher;
      await expectExtensionStatus(bob.page, "Probe ready");
      await send(ada.page, "/probe-confirm");
      const inBob = bob.page.getByRole("dialog", { name: "Delete the scratch file?" });
      await expect(inBob).toBeVisible();
      await ada.page.getByRole("dialog", { name: "Delete the scratch file?" }).getByRole("button", { name: "Yes" }).click();
      await expect(inBob).toBeHidden();
      const toasts = bob.page.getByLabel("Extension notifications");
      await expect(toasts).toContainText("Ada answered: Yes");
      // pi took Ada's answer (the probe reports it to everyone).
      await expect(toasts.getByText("confirm → true", { exact: true })).toBeVisible();

      // Bob answers anyway, by hand from the inspector's composer: the relay refuses a second answer, and he is told whose pi took.
      const requests = await watcher;
      const request = await requests.waitForRecord((r) => r.type === "extension_ui_request" && r.method === "confirm");
      await bob.page.getByRole("button", { name: "Protocol inspector" }).click();
      await inspector(bob.page).getByRole("tab", { name: "Compose" }).click();
      const composer = inspector(bob.page).getByRole("region", { name: "Command composer" });
      await composer.getByRole("textbox", { name: /^Command JSON/ }).focus();
      await bob.page.keyboard.press("ControlOrMeta+A");
      await bob.page.keyboard.press("Delete");
      await bob.page.keyboard.insertText(JSON.stringify({ type: "extension_ui_response", id: request.id, confirmed: false }));
      await composer.getByRole("button", { name: "Send", exact: true }).click();
      await expect(toasts).toContainText("Your answer was not used");
      await expect(toasts).toContainText("Ada answered this dialog first; pi has its answer");
      // Not also a generic "Relay refused a command" alert.
      await expect(bob.page.getByLabel("Notifications", { exact: true })).not.toContainText("already_answered");
    } finally {
      await (await watcher).close();
      await ada.context.close();
      await bob.context.close();
    }
  });
});

test.describe("follow mode", () => {
  /** 200 numbered lines: enough to scroll. */
  const LONG = Array.from({ length: 200 }, (_, i) => `line ${i + 1} of the long file`).join("\n") + "\n";

  async function openInExplorer(page: Page, name: string): Promise<void> {
    const explorer = page.getByRole("navigation", { name: "Explorer" });
    if (!(await explorer.isVisible())) await page.getByRole("button", { name: "Explorer" }).click();
    await page.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name, exact: true }).click();
    await expect(editorArea(page).locator(".monaco-editor .view-lines").first()).toBeVisible({ timeout: 30_000 });
  }

  const topLine = async (page: Page) => Number(await codeEditor(page).getAttribute("data-top-line"));

  test("a viewer on a phone follows a driver's file and scroll position, and stops when they scroll themselves", async ({ pier, browser }) => {
    const { url: viewerUrl, dir } = await viewerLinkAndProject(pier);
    await writeFile(join(dir, "long.txt"), LONG);
    const ada = await enter(browser, pier.url, "Ada");
    const vera = await enter(browser, viewerUrl, "Vera", { width: 390, height: 844 });
    try {
      await openInExplorer(ada.page, "long.txt");
      const adaLines = editorArea(ada.page).locator(".view-lines");
      await adaLines.click();
      await ada.page.keyboard.press("PageDown");
      await expect.poll(() => topLine(ada.page)).toBeGreaterThan(10);

      // Vera follows: Ada's file opens in her editor, at Ada's first line.
      const follow = followBar(vera.page).getByRole("button", { name: "Follow Ada" });
      await follow.click();
      await expect(follow).toHaveAttribute("aria-pressed", "true");
      await expect(codeEditor(vera.page)).toHaveAttribute("data-path", "long.txt");
      const sameLine = async (atLeast: number) => {
        await expect(async () => {
          const line = await topLine(ada.page);
          expect(line).toBeGreaterThan(atLeast);
          expect(await topLine(vera.page)).toBe(line);
        }).toPass();
        return topLine(ada.page);
      };
      const first = await sameLine(10);
      // Painted there too, not only scrolled (the phone shows the editor pane now).
      await expect(editorArea(vera.page).locator(".view-lines")).toContainText(`line ${first + 1} of the long file`);
      await expect(editorArea(vera.page).locator(".view-lines")).not.toContainText("line 1 of the long file");

      // Ada scrolls on: Vera's editor goes with her.
      await ada.page.keyboard.press("PageDown");
      await ada.page.keyboard.press("PageDown");
      const line = await sameLine(first);
      await expect(followBar(vera.page).getByRole("status")).toHaveText(`Following Ada: long.txt, line ${line}`);
      await expect(editorArea(vera.page).locator(".view-lines")).toContainText(`line ${line + 2} of the long file`);

      // Vera scrolls herself: following stops, and she is told why.
      await editorArea(vera.page).locator(".view-lines").hover();
      await vera.page.mouse.wheel(0, -300);
      await expect(follow).toHaveAttribute("aria-pressed", "false");
      await expect(followBar(vera.page).getByRole("status")).toHaveText("Stopped following Ada: you scrolled the editor.");
    } finally {
      await ada.context.close();
      await vera.context.close();
    }
  });

  test("a save by someone else to a file open here is told in the editor, not as a toast", async ({ pier, browser }) => {
    const ada = await enter(browser, pier.url, "Ada");
    const bob = await enter(browser, await pier.freshUrl(), "Bob");
    try {
      await openInExplorer(bob.page, "README.md");
      await openInExplorer(ada.page, "README.md");
      await editorArea(ada.page).locator(".view-lines").click();
      await ada.page.keyboard.press("Control+End");
      await ada.page.keyboard.type("\nSaved by Ada.\n");
      await ada.page.keyboard.press("Control+s");
      await expect(editorArea(bob.page).getByRole("status").filter({ hasText: "Ada saved this file" })).toBeVisible();
      // Bob's clean editor follows the file on disk.
      await expect(editorArea(bob.page).locator(".view-lines")).toContainText("Saved by Ada.");
      await expect(announcements(bob.page)).not.toContainText("saved");
    } finally {
      await ada.context.close();
      await bob.context.close();
    }
  });

  test("following a file that is gone says so instead of failing", async ({ pier, browser }) => {
    const { url: viewerUrl, dir } = await viewerLinkAndProject(pier);
    await writeFile(join(dir, "gone.txt"), "soon deleted\n");
    const ada = await enter(browser, pier.url, "Ada");
    const vera = await enter(browser, viewerUrl, "Vera");
    try {
      await openInExplorer(ada.page, "gone.txt");
      await rm(join(dir, "gone.txt"));
      await expect(editorArea(ada.page).getByRole("status").filter({ hasText: "Deleted on disk" })).toBeVisible();
      await followBar(vera.page).getByRole("button", { name: "Follow Ada" }).click();
      await expect(followBar(vera.page).getByRole("status").filter({ hasText: "could not be opened" })).toHaveText(
        "Ada's file gone.txt could not be opened here: This file does not exist (any more).",
      );
      await expect(followBar(vera.page).getByRole("button", { name: "Follow Ada" })).toHaveAttribute("aria-pressed", "true");
    } finally {
      await ada.context.close();
      await vera.context.close();
    }
  });
});
