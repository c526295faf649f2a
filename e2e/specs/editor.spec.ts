// The IDE surface: explorer, Monaco editor tabs, saving, conflicts, quick
// open and the git Changes view, against the real relay's workspace file
// service on the demo's scratch copy of relay/demo-project.
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import type { RunningPier } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";
import { projectDir } from "../support/project-dir.ts";

async function openPage(page: Page, pier: RunningPier): Promise<void> {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const explorer = page.getByRole("navigation", { name: "Explorer" });
  if (!(await explorer.isVisible())) await page.getByRole("button", { name: "Explorer" }).click();
  await expect(explorer).toBeVisible();
}

const tree = (page: Page) => page.getByRole("tree", { name: "Files" });
const editorArea = (page: Page) => page.getByRole("region", { name: "Editor" });
const editorLines = (page: Page) => editorArea(page).locator(".monaco-editor .view-lines").first();

async function openFromTree(page: Page, ...segments: string[]): Promise<void> {
  for (const folder of segments.slice(0, -1)) {
    const item = tree(page).getByRole("treeitem", { name: folder, exact: true });
    if ((await item.getAttribute("aria-expanded")) !== "true") await item.click();
  }
  await tree(page)
    .getByRole("treeitem", { name: segments.at(-1)!, exact: true })
    .click();
  await expect(editorLines(page)).toBeVisible({ timeout: 30_000 });
}

/** Monaco shows non-breaking spaces; compare text with ordinary ones. */
async function editorText(page: Page): Promise<string> {
  return (await editorLines(page).innerText()).replace(/\u00a0/g, " ");
}

/** Type at the very end of the document (Monaco uses EditContext: click the lines, then type). */
async function typeAtEnd(page: Page, text: string): Promise<void> {
  await editorLines(page).click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(text);
}

const activeTab = (page: Page) => page.getByRole("tab", { selected: true }).and(page.locator("[data-tab-id]"));

test("open a file from the tree, edit it and save with Ctrl+S", async ({ page, pier }) => {
  const dir = await projectDir(pier);
  await openPage(page, pier);
  await openFromTree(page, "src", "greet.js");
  await expect(activeTab(page)).toContainText("greet.js");
  await expect(editorLines(page)).toContainText("export function greet");

  await typeAtEnd(page, "\n// saved from Pier\n");
  // Dirty: the tab says so (● on its close button, and in its name).
  await expect(page.getByRole("tab", { name: "greet.js (unsaved changes)" })).toBeVisible();

  await page.keyboard.press("Control+s");
  await expect(page.getByRole("tab", { name: "greet.js", exact: true })).toBeAttached();
  await expect.poll(() => readFile(join(dir, "src/greet.js"), "utf8")).toContain("// saved from Pier");
  // Saved through the API: the original text is all still there.
  const onDisk = await readFile(join(dir, "src/greet.js"), "utf8");
  expect(onDisk).toContain('import { DEFAULT_LANGUAGE, GREETINGS } from "./greetings.js";');
});

test("the keyboard closes the focused tab with Delete, and asks first when it has unsaved changes", async ({ page, pier }) => {
  await openPage(page, pier);
  await openFromTree(page, "README.md");
  await openFromTree(page, "package.json");
  await typeAtEnd(page, "\n");
  const dirty = page.getByRole("tab", { name: "package.json (unsaved changes)" });
  await dirty.focus();
  await page.keyboard.press("Delete");
  const ask = page.getByRole("dialog", { name: "Save changes to package.json?" });
  await ask.getByRole("button", { name: "Don't save" }).click();
  await expect(dirty).toHaveCount(0);

  // The tab left has the focus: Delete goes on closing.
  const readme = page.getByRole("tab", { name: "README.md", exact: true });
  await expect(readme).toBeFocused();
  await page.keyboard.press("Delete");
  await expect(page.getByRole("tablist", { name: "Open editors" }).getByRole("tab")).toHaveCount(0);
});

test("a clean editor follows changes on disk", async ({ page, pier }) => {
  const dir = await projectDir(pier);
  await openPage(page, pier);
  await openFromTree(page, "README.md");
  await expect(editorLines(page)).toContainText("tiny-greeter");
  const file = join(dir, "README.md");
  await writeFile(file, `${await readFile(file, "utf8")}\nAppended on disk by the test.\n`);
  await expect(editorLines(page)).toContainText("Appended on disk by the test.");
  // Not dirty: following the disk is not an edit.
  await expect(page.getByRole("tab", { name: "README.md", exact: true })).toBeAttached();
});

test.describe("a save that conflicts with a change on disk", () => {
  async function makeConflict(page: Page, pier: RunningPier): Promise<{ file: string; theirs: string }> {
    const dir = await projectDir(pier);
    await openPage(page, pier);
    await openFromTree(page, "src", "greetings.js");
    await typeAtEnd(page, "\n// mine: typed in the editor\n");
    await expect(page.getByRole("tab", { name: "greetings.js (unsaved changes)" })).toBeVisible();

    const file = join(dir, "src/greetings.js");
    const theirs = `${await readFile(file, "utf8")}\n// theirs: written on disk\n`;
    await writeFile(file, theirs);
    // Dirty buffer + disk change: the editor says so instead of overwriting.
    await expect(page.getByRole("alert", { name: "Changed on disk" })).toBeVisible();

    await page.keyboard.press("Control+s");
    const conflict = page.getByRole("region", { name: "Save conflict" });
    await expect(conflict).toBeVisible();
    await expect(conflict.locator(".monaco-diff-editor")).toBeVisible();
    // The refused save wrote nothing.
    expect(await readFile(file, "utf8")).toBe(theirs);
    return { file, theirs };
  }

  test("keep mine writes the buffer over theirs", async ({ page, pier }) => {
    const { file } = await makeConflict(page, pier);
    await page.getByRole("button", { name: "Keep mine" }).click();
    await expect(page.getByRole("region", { name: "Save conflict" })).toBeHidden();
    const onDisk = await readFile(file, "utf8");
    expect(onDisk).toContain("// mine: typed in the editor");
    expect(onDisk).not.toContain("// theirs: written on disk");
    await expect(editorLines(page)).toContainText("// mine: typed in the editor");
    await expect(page.getByRole("tab", { name: "greetings.js", exact: true })).toBeAttached();
  });

  test("take theirs keeps the disk version and the buffer follows it", async ({ page, pier }) => {
    const { file, theirs } = await makeConflict(page, pier);
    await page.getByRole("button", { name: "Take theirs" }).click();
    await expect(page.getByRole("region", { name: "Save conflict" })).toBeHidden();
    expect(await readFile(file, "utf8")).toBe(theirs);
    await expect(editorLines(page)).toContainText("// theirs: written on disk");
    expect(await editorText(page)).not.toContain("// mine: typed in the editor");
    await expect(page.getByRole("tab", { name: "greetings.js", exact: true })).toBeAttached();
    // Mine is one undo away, not gone.
    await editorLines(page).click();
    await page.keyboard.press("Control+z");
    await expect(editorLines(page)).toContainText("// mine: typed in the editor");
  });

  test("merge by hand: edit the right side of the diff, then save", async ({ page, pier }) => {
    const { file } = await makeConflict(page, pier);
    await page.getByRole("button", { name: "Merge by hand" }).click();
    const modified = page.getByRole("region", { name: "Save conflict" }).locator(".editor.modified .view-lines:not(.line-delete)");
    await modified.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("// theirs: written on disk\n// merged\n");
    await page.getByRole("button", { name: "Save merged" }).click();
    await expect(page.getByRole("region", { name: "Save conflict" })).toBeHidden();
    const onDisk = await readFile(file, "utf8");
    expect(onDisk).toContain("// mine: typed in the editor");
    expect(onDisk).toContain("// theirs: written on disk");
    expect(onDisk).toContain("// merged");
  });
});

test("quick open finds a file by fuzzy name (Ctrl+P)", async ({ page, pier }) => {
  await openPage(page, pier);
  await page.keyboard.press("Control+p");
  const palette = page.getByRole("dialog", { name: "Go to file" });
  await expect(palette).toBeVisible();
  await page.keyboard.type("grtngs");
  const options = palette.getByRole("option");
  await expect(options.first()).toContainText("greetings.js");
  await page.keyboard.press("Enter");
  await expect(palette).toBeHidden();
  await expect(activeTab(page)).toContainText("greetings.js");
  await expect(editorLines(page)).toBeVisible({ timeout: 30_000 });
  // The tree reveals the opened file.
  await expect(tree(page).getByRole("treeitem", { name: "greetings.js", exact: true })).toHaveAttribute("aria-selected", "true");
});

test("the Changes view lists modified files and opens a diff against HEAD", async ({ page, pier }) => {
  const dir = await projectDir(pier);
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: dir,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "Pier Test",
        GIT_AUTHOR_EMAIL: "test@example.invalid",
        GIT_COMMITTER_NAME: "Pier Test",
        GIT_COMMITTER_EMAIL: "test@example.invalid",
        GIT_CONFIG_NOSYSTEM: "1",
      },
      stdio: "pipe",
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "initial");
  const file = join(dir, "src/greet.js");
  await writeFile(file, (await readFile(file, "utf8")).replace("Greets someone by name.", "Greets someone warmly by name."));

  await openPage(page, pier);
  await page.getByRole("tab", { name: /Changes/ }).click();
  const changes = page.getByRole("region", { name: "Changes" });
  await expect(changes).toContainText("main");
  const item = changes.getByRole("button", { name: /greet\.js/ });
  await expect(item).toBeVisible();
  await expect(item).toContainText("M");
  await item.click();

  await expect(activeTab(page)).toContainText("greet.js ↔ HEAD");
  const diff = editorArea(page).locator(".monaco-diff-editor");
  await expect(diff).toBeVisible({ timeout: 30_000 });
  await expect(diff.locator(".editor.modified .view-lines:not(.line-delete)")).toContainText("warmly");
  await expect(diff.locator(".editor.original .view-lines:not(.line-delete)")).toContainText("Greets someone by name.");

  // A commit made outside Pier changes no file, yet the view follows it:
  // nothing is left to list, and HEAD's side of the open diff is the new text.
  git("commit", "-q", "-am", "warmer greeting");
  await expect(changes).toContainText("No changes against HEAD.");
  await expect(item).toHaveCount(0);
  await expect(diff.locator(".editor.original .view-lines:not(.line-delete)")).toContainText("warmly");
});

test.describe("unsaved edits and the agent's own write", () => {
  test.use({ scenarioName: "agent-writes" });

  // pi's write tool rewrites notes.txt while the buffer has unsaved edits,
  // and Ctrl+S comes before, during or after that write (the relay saw one
  // in three such saves clobber the agent's bytes: checked-replace.ts). Every
  // round, whatever the order, the agent's bytes stay on disk, and the page
  // shows either the conflict view or, when the save came first, the
  // agent's text in a clean buffer: never "saved" over a write it had not seen.
  test("a save racing the agent's write never loses the agent's bytes", async ({ page, pier }) => {
    const dir = await projectDir(pier);
    const file = join(dir, "notes.txt");
    const agent = page.getByRole("status", { name: /^Agent:/ });
    // After sending the prompt, how long to wait before Ctrl+S: before the tool call, around it, after it.
    const delays = [0, 60, 150, 400];
    for (const [index, delay] of delays.entries()) {
      const round = index + 1;
      const agentText = `Notes, rewritten by the agent in round ${round}.\n`;
      await writeFile(file, `Notes before round ${round}.\n`);
      await openPage(page, pier);
      await openFromTree(page, "notes.txt");
      await expect(editorLines(page)).toContainText(`Notes before round ${round}.`);
      await typeAtEnd(page, `\nMine, typed in round ${round}.`);
      await expect(page.getByRole("tab", { name: "notes.txt (unsaved changes)" })).toBeVisible();

      const prompt = page.getByRole("textbox", { name: "Prompt" });
      await prompt.fill(`Rewrite notes, round ${round}`);
      await prompt.press("Enter");
      if (delay > 0) await page.waitForTimeout(delay);
      await page.keyboard.press("Control+s");
      await expect(agent).toHaveAccessibleName("Agent: Idle", { timeout: 20_000 });

      const conflict = page.getByRole("region", { name: "Save conflict" });
      const followed = page.getByRole("tab", { name: "notes.txt", exact: true });
      await expect(conflict.or(followed)).toBeVisible();
      if (await followed.isVisible()) await expect(editorLines(page)).toContainText(`rewritten by the agent in round ${round}.`);
      // Whatever the page shows, the disk holds the agent's bytes, and keeps them.
      expect(await readFile(file, "utf8"), `round ${round}, Ctrl+S ${delay} ms after the prompt`).toBe(agentText);
      await page.waitForTimeout(300);
      expect(await readFile(file, "utf8"), `round ${round}, a moment later`).toBe(agentText);
    }
  });
});
