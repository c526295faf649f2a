// The hunk review (issue #34 item 1) in real Chromium against a real relay
// and git: a file changed in three places, one hunk staged from the page
// (`git diff --cached` then holds exactly it), another reverted (the file on
// disk gets its line back), and a second browser's Changes view follows the
// index without a reload.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";
import { commitAll } from "../support/git-repo.ts";
import { projectDir } from "../support/project-dir.ts";

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join("");
const ORIGINAL = lines(40);
const CHANGED = ORIGINAL.replace("line 2\n", "line two\n").replace("line 20\n", "line twenty\n").replace("line 38\n", "line thirty-eight\n");

async function openChanges(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const explorer = page.getByRole("navigation", { name: "Explorer" });
  if (!(await explorer.isVisible())) await page.getByRole("button", { name: "Explorer" }).click();
  await page.getByRole("tab", { name: /Changes/ }).click();
}

test("stage one hunk of three and revert another from the page; a second browser sees the index move", async ({ page, pier, browser }) => {
  const dir = await projectDir(pier);
  const file = join(dir, "review.txt");
  await writeFile(file, ORIGINAL);
  const git = commitAll(dir);
  await writeFile(file, CHANGED);

  await openChanges(page, pier.url);
  const other = await (await browser.newContext()).newPage();
  await openChanges(other, await pier.freshUrl());
  const otherStaged = other.getByRole("list", { name: "Staged files" });
  await expect(other.getByRole("list", { name: "Changed files" }).getByRole("button", { name: /review\.txt/ })).toBeVisible();
  await expect(otherStaged).toHaveCount(0);

  await page
    .getByRole("list", { name: "Changed files" })
    .getByRole("button", { name: /review\.txt/ })
    .click();
  await page.getByRole("button", { name: "Hunks", exact: true }).click();
  const review = page.getByRole("region", { name: "Hunks of review.txt (not staged)" });
  const hunk = (text: string) => review.locator("section.hunk").filter({ hasText: text });
  await expect(review.locator("section.hunk")).toHaveCount(3);
  await snapshot(page, "hunks");

  await hunk("line twenty")
    .getByRole("button", { name: /^Stage hunk/ })
    .click();
  await expect.poll(() => git("diff", "--cached", "--no-color", "-U0", "--", "review.txt").replace(/^(diff|index|---|\+\+\+).*\n/gm, "")).toMatch(/^@@ -20 \+20 @@.*\n-line 20\n\+line twenty\n$/);
  // The page follows: two hunks left to stage, and the file listed as staged in both browsers.
  await expect(review.locator("section.hunk")).toHaveCount(2);
  await expect(page.getByRole("list", { name: "Staged files" }).getByRole("button", { name: /review\.txt/ })).toBeVisible();
  await expect(otherStaged.getByRole("button", { name: /review\.txt/ })).toBeVisible();

  await hunk("line thirty-eight")
    .getByRole("button", { name: /^Revert hunk/ })
    .click();
  await expect.poll(() => readFile(file, "utf8")).toBe(CHANGED.replace("line thirty-eight\n", "line 38\n"));
  await expect(review.locator("section.hunk")).toHaveCount(1);
  // Revert changed the file, not the index.
  expect(git("show", ":review.txt")).toBe(ORIGINAL.replace("line 20\n", "line twenty\n"));
  await snapshot(page, "after");
});

/** Screenshots for a person to look at (PIER_SHOTS=dir), at the page's size and a phone's. */
async function snapshot(page: Page, name: string): Promise<void> {
  const dir = process.env.PIER_SHOTS;
  if (!dir) return;
  await page.screenshot({ path: join(dir, `hunk-review-${name}-${page.viewportSize()?.width}.png`) });
}
