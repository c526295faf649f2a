// Every menu of the page, every item: each one does what it says, on disk
// where it says so. The page has one kind of menu (role="menu"): the file
// tree's, opened with an entry's "…" button or a right click (on a file, a
// folder, or the empty space below the entries). The first test keeps this
// list honest: a new menu anywhere in web/src/components fails it until it
// is covered here.
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import type { RunningPier } from "../../relay/test/support/pier-process.ts";
import { expect, test, UI_ONLY } from "../support/pier.ts";
import { projectDir } from "../support/project-dir.ts";
import { openViewer, revokeViewerLink } from "../support/viewer-link.ts";

// Copy path is checked by reading the clipboard back.
test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const COMPONENTS = fileURLToPath(new URL("../../web/src/components", import.meta.url));

async function openExplorer(page: Page, pier: RunningPier): Promise<void> {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const explorer = page.getByRole("navigation", { name: "Explorer" });
  if (!(await explorer.isVisible())) await page.getByRole("button", { name: "Explorer" }).click();
  await expect(tree(page).getByRole("treeitem", { name: "README.md", exact: true })).toBeVisible();
}

const tree = (page: Page) => page.getByRole("tree", { name: "Files" });
const entry = (page: Page, name: string) => tree(page).getByRole("treeitem", { name, exact: true });
const menu = (page: Page) => page.getByRole("menu", { name: "File actions" });
const workbenchDialog = (page: Page) => page.getByRole("dialog").filter({ has: page.locator("#wb-dialog-title") });

/** Opens an entry's menu with its "…" button (what the user clicked). */
async function menuOf(page: Page, name: string) {
  await entry(page, name).hover();
  await entry(page, name)
    .getByRole("button", { name: `Actions for ${name}` })
    .click();
  await expect(menu(page)).toBeVisible();
  return menu(page);
}

async function choose(page: Page, name: string, item: string): Promise<void> {
  await (await menuOf(page, name)).getByRole("menuitem", { name: item, exact: true }).click();
  await expect(menu(page)).toBeHidden();
}

/** Answers the workbench's name prompt (New file…, New folder…, Rename…). */
async function answerPath(page: Page, value: string, button: string): Promise<void> {
  const field = workbenchDialog(page).getByRole("textbox");
  await expect(field).toBeFocused();
  await field.fill(value);
  await workbenchDialog(page).getByRole("button", { name: button, exact: true }).click();
  await expect(workbenchDialog(page)).toBeHidden();
}

/** Every item drawn whole, inside the tree (which clips what sticks out) and the window, and on top where it is. */
async function expectWholeMenuShown(page: Page): Promise<void> {
  for (const item of await menu(page).getByRole("menuitem").all()) {
    const shown = await item.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const tree = el.closest('[role="tree"]')!.getBoundingClientRect();
      const inside = r.left >= Math.max(0, tree.left) && r.right <= Math.min(window.innerWidth, tree.right) && r.top >= 0 && r.bottom <= window.innerHeight;
      return inside && el.contains(document.elementFromPoint(r.right - 4, r.top + r.height / 2)) && el.contains(document.elementFromPoint(r.left + 4, r.top + r.height / 2));
    });
    expect(shown, `“${await item.textContent()}” shown whole`).toBe(true);
  }
}

const exists = (path: string) =>
  stat(path).then(
    (s) => (s.isDirectory() ? "dir" : "file"),
    () => "missing",
  );

async function filesWith(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(dir, { recursive: true })) {
    const path = join(dir, name);
    if (name.endsWith(".svelte") && (await readFile(path, "utf8")).includes(needle)) found.push(relative(dir, path));
  }
  return found.sort();
}

test("the page's menus are the ones this spec covers", UI_ONLY, async () => {
  expect(await filesWith(COMPONENTS, 'role="menu"')).toEqual(["workbench/FileTree.svelte"]);
  expect(await filesWith(COMPONENTS, 'role="menuitem"')).toEqual(["workbench/FileTree.svelte"]);
});

test("a file's menu: every item, and each does what it says", UI_ONLY, async ({ page, pier }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const dir = await projectDir(pier);
  await openExplorer(page, pier);
  await entry(page, "src").click();

  // Exactly these items, in this order: one more without a test here fails.
  await expect((await menuOf(page, "greet.js")).getByRole("menuitem")).toHaveText(["New file…", "New folder…", "Open", "Rename…", "Delete…", "Copy path"]);
  await expectWholeMenuShown(page);
  await page.screenshot({ path: test.info().outputPath("file-menu-1440x900.png") });
  await page.keyboard.press("Escape");
  await expect(menu(page)).toBeHidden();

  // New file… starts in the file's folder, creates it on disk and opens it.
  await choose(page, "greet.js", "New file…");
  await expect(workbenchDialog(page).getByRole("textbox")).toHaveValue("src/");
  await answerPath(page, "src/farewell.js", "Create");
  await expect.poll(() => exists(join(dir, "src/farewell.js"))).toBe("file");
  await expect(entry(page, "farewell.js")).toBeVisible();
  await expect(page.getByRole("tab", { name: "farewell.js", exact: true })).toBeVisible();

  // New folder… alike.
  await choose(page, "greet.js", "New folder…");
  await answerPath(page, "src/helpers", "Create");
  await expect.poll(() => exists(join(dir, "src/helpers"))).toBe("dir");
  await expect(entry(page, "helpers")).toBeVisible();

  // Open: an editor tab on the file.
  await choose(page, "greetings.js", "Open");
  await expect(page.getByRole("tab", { name: "greetings.js", exact: true })).toHaveAttribute("aria-selected", "true");

  // Copy path: the workspace-relative path is on the clipboard.
  await choose(page, "greet.js", "Copy path");
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("src/greet.js");

  // Rename…: the base name is selected; the file moves on disk.
  await choose(page, "cli.js", "Rename…");
  await expect(workbenchDialog(page).getByRole("textbox")).toHaveValue("src/cli.js");
  await answerPath(page, "src/command-line.js", "Rename");
  await expect.poll(() => exists(join(dir, "src/command-line.js"))).toBe("file");
  expect(await exists(join(dir, "src/cli.js"))).toBe("missing");
  await expect(entry(page, "command-line.js")).toBeVisible();

  // Delete… asks first: Cancel keeps the file, Delete removes it.
  await choose(page, "farewell.js", "Delete…");
  await expect(workbenchDialog(page)).toContainText("“src/farewell.js” will be deleted from disk.");
  await workbenchDialog(page).getByRole("button", { name: "Cancel" }).click();
  expect(await exists(join(dir, "src/farewell.js"))).toBe("file");
  await choose(page, "farewell.js", "Delete…");
  await workbenchDialog(page).getByRole("button", { name: "Delete", exact: true }).click();
  await expect.poll(() => exists(join(dir, "src/farewell.js"))).toBe("missing");
  await expect(entry(page, "farewell.js")).toBeHidden();
});

test("a folder's menu: every item, and each does what it says", UI_ONLY, async ({ page, pier }) => {
  const dir = await projectDir(pier);
  await openExplorer(page, pier);

  // A folder has no Open (a click opens it).
  await expect((await menuOf(page, "src")).getByRole("menuitem")).toHaveText(["New file…", "New folder…", "Rename…", "Delete…", "Copy path"]);
  await page.keyboard.press("Escape");

  // New file… and New folder… start inside the folder.
  await choose(page, "src", "New file…");
  await expect(workbenchDialog(page).getByRole("textbox")).toHaveValue("src/");
  await answerPath(page, "src/notes.md", "Create");
  await expect.poll(() => exists(join(dir, "src/notes.md"))).toBe("file");
  await choose(page, "src", "New folder…");
  await expect(workbenchDialog(page).getByRole("textbox")).toHaveValue("src/");
  await answerPath(page, "src/lib", "Create");
  await expect.poll(() => exists(join(dir, "src/lib"))).toBe("dir");

  await choose(page, "src", "Copy path");
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("src");

  await choose(page, "src", "Rename…");
  await answerPath(page, "source", "Rename");
  await expect.poll(() => exists(join(dir, "source/greet.js"))).toBe("file");
  await expect(entry(page, "source")).toBeVisible();

  // Deleting a folder says it takes everything in it.
  await choose(page, "source", "Delete…");
  await expect(workbenchDialog(page)).toContainText("The folder “source” and everything in it will be deleted from disk.");
  await workbenchDialog(page).getByRole("button", { name: "Delete", exact: true }).click();
  await expect.poll(() => exists(join(dir, "source"))).toBe("missing");
  await expect(entry(page, "source")).toBeHidden();
});

test("the menu of the empty space creates at the root; right click and the keyboard work", UI_ONLY, async ({ page, pier }) => {
  const dir = await projectDir(pier);
  await openExplorer(page, pier);

  // Right click below the entries: only what makes sense without an entry.
  const box = (await tree(page).boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height - 8, { button: "right" });
  await expect(menu(page).getByRole("menuitem")).toHaveText(["New file…", "New folder…"]);
  // The keyboard is in the menu: Down, then Enter runs New folder….
  await expect(menu(page).getByRole("menuitem", { name: "New file…" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(workbenchDialog(page).getByRole("textbox")).toHaveValue("");
  await answerPath(page, "docs", "Create");
  await expect.poll(() => exists(join(dir, "docs"))).toBe("dir");

  await page.mouse.click(box.x + box.width / 2, box.y + box.height - 8, { button: "right" });
  await menu(page).getByRole("menuitem", { name: "New file…" }).click();
  await answerPath(page, "TODO.md", "Create");
  await expect.poll(() => exists(join(dir, "TODO.md"))).toBe("file");
  // The new file opens in Monaco, which takes the focus once loaded: wait for it before going on.
  await expect(page.getByRole("region", { name: "Editor" }).locator(".monaco-editor .view-lines").first()).toBeVisible({ timeout: 30_000 });

  // Right click on an entry opens that entry's menu; Esc closes it and the tree keeps the keyboard.
  await entry(page, "package.json").click({ button: "right" });
  await expect(menu(page).getByRole("menuitem")).toHaveText(["New file…", "New folder…", "Open", "Rename…", "Delete…", "Copy path"]);
  await page.keyboard.press("Escape");
  await expect(menu(page)).toBeHidden();
  await expect(entry(page, "package.json")).toBeFocused();
});

test("a viewer's file menu: what would change files is refused with a reason and changes nothing, on a live or a revoked link", UI_ONLY, async ({ page, pier, browser }) => {
  const dir = await projectDir(pier);
  await openExplorer(page, pier);
  const viewer = await openViewer(page, browser);
  const explorer = viewer.getByRole("navigation", { name: "Explorer" });
  if (!(await explorer.isVisible())) await viewer.getByRole("button", { name: "Explorer" }).click();
  await expect(entry(viewer, "README.md")).toBeVisible();
  const notices = viewer.getByRole("region", { name: "Notifications" });

  // Reading is a viewer's too: Open and Copy path work.
  await choose(viewer, "README.md", "Copy path");
  await expect.poll(() => viewer.evaluate(() => navigator.clipboard.readText())).toBe("README.md");
  for (const [item, what] of [
    ["New file…", "create files"],
    ["New folder…", "create files"],
    ["Rename…", "rename files"],
    ["Delete…", "delete files"],
  ] as const) {
    await choose(viewer, "README.md", item);
    await expect(notices.getByText(`Viewers can't ${what} — ask the driver.`).last()).toBeVisible();
    await expect(workbenchDialog(viewer)).toHaveCount(0);
  }
  expect(await exists(join(dir, "README.md"))).toBe("file");

  // Revoked: the page knows it is no longer authorized, and the menu still changes nothing.
  await revokeViewerLink(page, viewer);
  await choose(viewer, "README.md", "Delete…");
  await expect(workbenchDialog(viewer)).toHaveCount(0);
  expect(await exists(join(dir, "README.md"))).toBe("file");
});

test("on a phone, the file menu opens inside the explorer drawer, every item in reach", UI_ONLY, async ({ page, pier }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openExplorer(page, pier);
  await entry(page, "src").click();
  const items = (await menuOf(page, "greetings.js")).getByRole("menuitem");
  await expect(items).toHaveCount(6);
  await expectWholeMenuShown(page);
  await page.screenshot({ path: testInfo.outputPath("file-menu-390x844.png") });
  await menu(page).getByRole("menuitem", { name: "Copy path" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("src/greetings.js");
});
