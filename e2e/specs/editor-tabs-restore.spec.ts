// Open editor tabs survive a reload: kept per workspace (the hello's cwd) in
// this browser's localStorage, the active tab active again, and a file that
// is gone by then dropped without a word. Real relay, real pi, real files.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import type { RunningPier } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";
import { projectDir } from "../support/project-dir.ts";

async function openPage(page: Page, pier: RunningPier): Promise<void> {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
}

async function showExplorer(page: Page): Promise<void> {
  const explorer = page.getByRole("navigation", { name: "Explorer" });
  if (!(await explorer.isVisible())) await page.getByRole("button", { name: "Explorer" }).click();
  await expect(explorer).toBeVisible();
}

const tree = (page: Page) => page.getByRole("tree", { name: "Files" });
const tabs = (page: Page) => page.getByRole("tablist", { name: "Open editors" }).getByRole("tab");
const activeTab = (page: Page) => page.getByRole("tab", { selected: true }).and(page.locator("[data-tab-id]"));
const editorLines = (page: Page) => page.getByRole("region", { name: "Editor" }).locator(".monaco-editor .view-lines").first();

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

test("two open files come back after a reload, the active one still active", async ({ page, pier }) => {
  await openPage(page, pier);
  await showExplorer(page);
  await openFromTree(page, "README.md");
  await openFromTree(page, "src", "greet.js");
  // The first one is active when the page reloads: not merely the last opened.
  await page.getByRole("tab", { name: "README.md", exact: true }).click();
  await expect(activeTab(page)).toContainText("README.md");

  await page.reload();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(tabs(page)).toHaveText([/README\.md/, /greet\.js/]);
  await expect(activeTab(page)).toContainText("README.md");
  await expect(editorLines(page)).toContainText("tiny-greeter", { timeout: 30_000 });
  // And the other tab is a working editor too, not just a name.
  await page.getByRole("tab", { name: "greet.js", exact: true }).click();
  await expect(editorLines(page)).toContainText("export function greet");
});

test("a tab whose file was deleted meanwhile is dropped quietly; the others come back", async ({ page, pier, context }) => {
  const dir = await projectDir(pier);
  await openPage(page, pier);
  await showExplorer(page);
  await openFromTree(page, "package.json");
  await openFromTree(page, "src", "cli.js");
  await expect(tabs(page)).toHaveCount(2);
  await page.close();

  // Gone while no page was open: nothing could have closed its tab.
  await rm(join(dir, "src/cli.js"));
  const again = await context.newPage();
  await openPage(again, pier);
  await expect(tabs(again)).toHaveText([/package\.json/]);
  await expect(activeTab(again)).toContainText("package.json");
  await expect(editorLines(again)).toContainText('"name"', { timeout: 30_000 });
  // Quietly: no error about a file nobody asked for now.
  await expect(again.getByText("This file does not exist")).toHaveCount(0);
});
