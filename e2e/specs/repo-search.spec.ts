// Search the workspace (issue #34 item 3) in real Chromium against the real
// relay's git grep, on the demo's scratch project: Ctrl+Shift+F opens the
// Search view, results stream in with the matches marked, a result opens
// Monaco at its line, and a replace across two files goes through a preview
// with a checkbox per change and one confirm; the files on disk are checked.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import type { RunningPier } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";
import { expectAccessible } from "../support/accessible.ts";
import { projectDir } from "../support/project-dir.ts";

async function openPage(page: Page, pier: RunningPier): Promise<void> {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
}

/** The first screen's cards and the people button, behind the explorer (label-content-name-mismatch, as in accessibility.spec). */
const BEHIND = ['button[aria-labelledby^="start-title"]', ".people"];

const searchView = (page: Page) => page.getByRole("region", { name: "Search" });
const results = (page: Page) => searchView(page).getByRole("list", { name: "Search results" });

test("Ctrl+Shift+F searches the files, and a result opens the editor at its line", async ({ page, pier }) => {
  await openPage(page, pier);
  await page.keyboard.press("Control+Shift+F");
  const query = searchView(page).getByRole("textbox", { name: "Search in files" });
  await expect(query).toBeFocused();
  await query.fill("DEFAULT_LANGUAGE");
  await expect(searchView(page).getByTestId("search-summary")).toHaveText(/^\d+ results? in 2 files$/);
  const greet = results(page).getByRole("button", { name: /^greet\.js/ });
  await expect(greet).toBeVisible();
  // The match is marked in the line.
  const line = results(page).getByRole("button", { name: /import \{ DEFAULT_LANGUAGE/ });
  await expect(line.locator("mark").first()).toHaveText("DEFAULT_LANGUAGE");
  await expectAccessible(page, "search results", ["region"], BEHIND);

  // Case toggle: nothing is spelled in lower case.
  await searchView(page).getByRole("button", { name: "Match case" }).click();
  await query.fill("default_language");
  await expect(searchView(page).getByTestId("search-summary")).toHaveText("No results.");
  await query.fill("DEFAULT_LANGUAGE");
  await expect(searchView(page).getByTestId("search-summary")).toHaveText(/in 2 files$/);

  await line.click();
  const editor = page.getByRole("region", { name: "Editor" });
  await expect(page.getByRole("tab", { selected: true }).and(page.locator("[data-tab-id]"))).toContainText("greet.js");
  // The cursor is on the match's line (Monaco marks the current line).
  const lineNumber = await line.locator(".ln").innerText();
  await expect(editor.locator(".monaco-editor .current-line ~ .line-numbers, .monaco-editor .line-numbers.active-line-number").first()).toHaveText(lineNumber);
});

test("replace across two files: a preview with a checkbox per change, one confirm, the files on disk", async ({ page, pier }) => {
  const dir = await projectDir(pier);
  await writeFile(join(dir, "notes-a.txt"), "call alpha(1) and alpha(2)\n");
  await writeFile(join(dir, "notes-b.txt"), "then alpha(3)\n");
  await openPage(page, pier);
  await page.keyboard.press("Control+Shift+F");
  const view = searchView(page);
  await view.getByRole("button", { name: "Use regular expression" }).click();
  await view.getByRole("textbox", { name: "Search in files" }).fill("alpha\\((\\d)\\)");
  await expect(view.getByTestId("search-summary")).toHaveText("3 results in 2 files");

  await view.getByRole("button", { name: "Show replace" }).click();
  await view.getByRole("textbox", { name: "Replace with" }).fill("beta[$1]");
  await view.getByRole("button", { name: "Preview" }).click();
  const preview = view.getByRole("group", { name: "Replace preview" });
  await expect(preview.getByRole("checkbox", { name: /^Replace line/ })).toHaveCount(3);
  await expect(preview.locator("ins").first()).toHaveText("beta[1]");
  await expectAccessible(page, "replace preview", ["region"], BEHIND);
  // Keep the second change of notes-a.txt as it is.
  const second = preview.getByRole("checkbox", { name: "Replace line 1 of notes-a.txt" }).nth(1);
  await second.uncheck();
  await preview.getByRole("button", { name: "Replace 2" }).click();
  await expect(view.getByRole("status")).toContainText("Replaced 2 matches in 2 files.");

  expect(await readFile(join(dir, "notes-a.txt"), "utf8")).toBe("call beta[1] and alpha(2)\n");
  expect(await readFile(join(dir, "notes-b.txt"), "utf8")).toBe("then beta[3]\n");
  // The search ran again: only the change left out is still found.
  await expect(view.getByTestId("search-summary")).toHaveText("1 result in 1 file");

  // A file written by someone else (the agent, an editor): the results follow it without a keystroke.
  await writeFile(join(dir, "notes-c.txt"), "and alpha(4)\n");
  await expect(view.getByTestId("search-summary")).toHaveText("2 results in 2 files");
  await expect(view.getByText("notes-c.txt")).toBeVisible();
});
