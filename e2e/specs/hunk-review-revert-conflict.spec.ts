// A hunk's Revert that meets a file changed meanwhile (issue #34 item 1), in
// real Chromium against a real relay and git: a second browser adds a line
// to the file with the editor's save after the first showed its diff (the
// first browser's diff reloads are held, so its click is certain to name the
// old diff), and the revert opens the conflict view with the disk's text
// beside what the revert would make of it now. Taking the revert writes it;
// keeping the disk's (after a change made from the shell) leaves the disk
// alone. A revert that goes through while the file has unsaved edits in the
// editor opens the conflict view too, and the edits are kept. A whole
// file's Revert meets a file written from the shell the same way (the
// staged text on the right), and "Revert all" whose files are written while
// its question is open opens each such file's conflict view, names them all
// and reverts the rest.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Locator, Page, Request, Route } from "@playwright/test";
import { expect, test } from "../support/pier.ts";
import { commitAll } from "../support/git-repo.ts";
import { projectDir } from "../support/project-dir.ts";
import { requestsInFlight } from "../support/requests-in-flight.ts";

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join("");
const ORIGINAL = lines(12);
const CHANGED = ORIGINAL.replace("line 8\n", "line eight\n");
const ADDED = "added by the other browser\n";

async function openExplorer(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const explorer = page.getByRole("navigation", { name: "Explorer" });
  if (!(await explorer.isVisible())) await page.getByRole("button", { name: "Explorer" }).click();
  await expect(explorer).toBeVisible();
}

/** The first browser: review.txt's Hunks view from the Changes list, once it shows `hunks` hunks. */
async function openHunks(page: Page, hunks = 1): Promise<Locator> {
  // A phone-sized screenshot closes the explorer: open it again.
  const explorer = page.getByRole("navigation", { name: "Explorer" });
  if (!(await explorer.isVisible())) await page.getByRole("button", { name: "Explorer" }).click();
  await page.getByRole("tab", { name: /Changes/ }).click();
  await page
    .getByRole("list", { name: "Changed files" })
    .getByRole("button", { name: /review\.txt/ })
    .click();
  await page.getByRole("button", { name: "Hunks", exact: true }).click();
  const review = page.getByRole("region", { name: "Hunks of review.txt (not staged)" });
  await expect(review.locator("section.hunk")).toHaveCount(hunks);
  return review;
}

/** Each page's diff loads on their way (sent, not yet answered), from its first: a hold waits for those it did not catch. */
const diffLoads = new WeakMap<Page, Set<Request>>();
const isDiffLoad = (request: Request) => new URL(request.url()).pathname.endsWith("/api/git/diff");

test.beforeEach(({ page }) => void diffLoads.set(page, requestsInFlight(page, isDiffLoad)));

/**
 * Holds this page's diff loads until released: the page keeps showing the
 * diff it had, as when a click beats the watcher. A load already on its way
 * when the hold begins (the watcher's, after the test's last write) is let
 * finish first: answered after the test's next write, it would show the
 * page the file as that write left it, and its revert would meet no change.
 */
async function holdDiffs(page: Page): Promise<() => Promise<void>> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held = new Set<Request>();
  const handler = async (route: Route) => {
    held.add(route.request());
    await gate;
    await route.continue().catch(() => {});
  };
  await page.route("**/api/git/diff?**", handler);
  const pending = diffLoads.get(page)!;
  await expect.poll(() => [...pending].filter((request) => !held.has(request)).length, { message: "diff loads sent before the hold are answered" }).toBe(0);
  return async () => {
    release();
    await page.unroute("**/api/git/diff?**", handler);
  };
}

const editorLines = (page: Page) => page.getByRole("region", { name: "Editor" }).locator(".monaco-editor .view-lines").first();
const sideText = async (side: Locator) => (await side.innerText()).replace(/\u00a0/g, " ");

test("a revert that meets a file changed in another browser opens the conflict view; take the revert, then keep the disk's", async ({ page, pier, browser }) => {
  const dir = await projectDir(pier);
  const file = join(dir, "review.txt");
  await writeFile(file, ORIGINAL);
  commitAll(dir);
  await writeFile(file, CHANGED);

  await openExplorer(page, pier.url);
  const review = await openHunks(page);
  const release = await holdDiffs(page);

  // The second browser opens the file, adds a line at the top and saves it.
  const other = await (await browser.newContext()).newPage();
  await openExplorer(other, await pier.freshUrl());
  await other.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name: "review.txt", exact: true }).click();
  await expect(editorLines(other)).toContainText("line eight", { timeout: 30_000 });
  await editorLines(other).click();
  await other.keyboard.press("Control+Home");
  await other.keyboard.type(ADDED);
  await other.keyboard.press("Control+s");
  const now = ADDED + CHANGED;
  await expect.poll(() => readFile(file, "utf8")).toBe(now);

  // The first browser still shows the old diff; its Revert is refused and the conflict view opens.
  await review.getByRole("button", { name: /^Revert hunk/ }).click();
  const conflict = page.getByRole("region", { name: "Revert conflict" });
  await expect(conflict).toBeVisible();
  await expect(conflict).toContainText("the hunk was not reverted yet");
  const left = conflict.locator(".editor.original .view-lines:not(.line-delete)");
  const right = conflict.locator(".editor.modified .view-lines:not(.line-delete)");
  await expect(left).toContainText("added by the other browser");
  await expect(left).toContainText("line eight");
  await expect(right).toContainText("added by the other browser");
  await expect(right).toContainText("line 8");
  expect(await sideText(right)).not.toContain("line eight");
  expect(await readFile(file, "utf8")).toBe(now);
  await snapshots(page, "offer");

  await conflict.getByRole("button", { name: "Take the revert" }).click();
  await expect(conflict).toBeHidden();
  await expect.poll(() => readFile(file, "utf8")).toBe(ADDED + ORIGINAL);
  await release();

  // Again, the change made from the shell this time; keeping the disk's leaves it as it is.
  await writeFile(file, CHANGED);
  const again = await openHunks(page);
  const releaseAgain = await holdDiffs(page);
  await writeFile(file, "from the shell\n" + CHANGED);
  await expect(editorLines(other)).toContainText("from the shell");
  await again.getByRole("button", { name: /^Revert hunk/ }).click();
  const second = page.getByRole("region", { name: "Revert conflict" });
  await expect(second.locator(".editor.modified .view-lines:not(.line-delete)")).toContainText("from the shell");
  await expect(second.locator(".editor.modified .view-lines:not(.line-delete)")).toContainText("line 8");
  await second.getByRole("button", { name: "Keep the disk's" }).click();
  await expect(second).toBeHidden();
  await expect(editorLines(page)).toContainText("line eight");
  // Clean again: the buffer is the disk's text.
  await expect(page.locator('[data-tab-id="file:review.txt"]')).not.toContainText("unsaved changes");
  expect(await readFile(file, "utf8")).toBe("from the shell\n" + CHANGED);
  await releaseAgain();
  await other.context().close();
});

test("a revert under unsaved edits in the editor opens the conflict view; the edits are kept", async ({ page, pier }) => {
  const dir = await projectDir(pier);
  const file = join(dir, "review.txt");
  await writeFile(file, ORIGINAL);
  commitAll(dir);
  await writeFile(file, CHANGED);

  await openExplorer(page, pier.url);
  await page.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name: "review.txt", exact: true }).click();
  await expect(editorLines(page)).toContainText("line eight", { timeout: 30_000 });
  await editorLines(page).click();
  await page.keyboard.press("Control+End");
  // No word of it starts like one of the file's ("line", "eight"): Monaco's word suggestions would take the Enter.
  await page.keyboard.type("my unsaved words\n");
  await expect(page.getByRole("tab", { name: "review.txt (unsaved changes)" })).toBeVisible();

  const review = await openHunks(page);
  await review.getByRole("button", { name: /^Revert hunk/ }).click();
  await expect.poll(() => readFile(file, "utf8")).toBe(ORIGINAL);
  const conflict = page.getByRole("region", { name: "Revert conflict" });
  await expect(conflict).toBeVisible();
  await expect(conflict).toContainText("while it had unsaved edits");
  await expect(conflict.locator(".editor.original .view-lines:not(.line-delete)")).toContainText("line 8");
  await expect(conflict.locator(".editor.modified .view-lines:not(.line-delete)")).toContainText("my unsaved words");
  await expect(conflict.locator(".editor.modified .view-lines:not(.line-delete)")).toContainText("line eight");
  await snapshots(page, "unsaved");

  await conflict.getByRole("button", { name: "Keep my edits" }).click();
  await expect(conflict).toBeHidden();
  await expect.poll(() => readFile(file, "utf8")).toBe(CHANGED + "my unsaved words\n");
});

/** The review's "Revert file", confirmed in the question it asks. */
async function revertWholeFile(page: Page, review: Locator): Promise<void> {
  await review.getByRole("button", { name: "Revert file", exact: true }).click();
  const question = page.getByRole("dialog", { name: "Revert review.txt?" });
  await question.getByRole("button", { name: "Revert file", exact: true }).click();
  await expect(question).toBeHidden();
}

test("a whole file's revert that meets a file changed meanwhile opens the conflict view with the staged text; take the revert, then keep the disk's", async ({ page, pier }) => {
  const dir = await projectDir(pier);
  const file = join(dir, "review.txt");
  await writeFile(file, ORIGINAL);
  commitAll(dir);
  await writeFile(file, CHANGED);

  await openExplorer(page, pier.url);
  const review = await openHunks(page);
  const release = await holdDiffs(page);
  // Written from the shell after the diff was shown: the page's Revert file names the old diff's base.
  const now = "written from the shell\n" + CHANGED;
  await writeFile(file, now);
  await revertWholeFile(page, review);

  const conflict = page.getByRole("region", { name: "Revert conflict" });
  await expect(conflict).toBeVisible();
  await expect(conflict).toContainText("so it was not reverted yet");
  await expect(conflict).toContainText("Reverted (as staged)");
  const left = conflict.locator(".editor.original .view-lines:not(.line-delete)");
  const right = conflict.locator(".editor.modified .view-lines:not(.line-delete)");
  await expect(left).toContainText("written from the shell");
  await expect(left).toContainText("line eight");
  await expect(right).toContainText("line 8");
  expect(await sideText(right)).not.toContain("written from the shell");
  expect(await sideText(right)).not.toContain("line eight");
  expect(await readFile(file, "utf8")).toBe(now);
  await snapshots(page, "file-offer");

  await conflict.getByRole("button", { name: "Take the revert" }).click();
  await expect(conflict).toBeHidden();
  await expect.poll(() => readFile(file, "utf8")).toBe(ORIGINAL);
  await release();

  // Again; keeping the disk's leaves it as it is, and the review behind says nothing stale.
  await writeFile(file, CHANGED);
  await expect(editorLines(page)).toContainText("line eight");
  const again = await openHunks(page);
  const releaseAgain = await holdDiffs(page);
  await writeFile(file, "again from the shell\n" + CHANGED);
  await revertWholeFile(page, again);
  const second = page.getByRole("region", { name: "Revert conflict" });
  await expect(second.locator(".editor.original .view-lines:not(.line-delete)")).toContainText("again from the shell");
  await second.getByRole("button", { name: "Keep the disk's" }).click();
  await expect(second).toBeHidden();
  await expect(page.locator('[data-tab-id="file:review.txt"]')).not.toContainText("unsaved changes");
  expect(await readFile(file, "utf8")).toBe("again from the shell\n" + CHANGED);
  await releaseAgain();
  // The diff as it is now: the line from the shell and line eight, two hunks.
  const reviewNow = await openHunks(page, 2);
  await expect(reviewNow.locator("section.hunk").first()).toContainText("again from the shell");
  await expect(reviewNow.getByRole("button", { name: "Revert file", exact: true })).toBeEnabled();
  await expect(reviewNow.getByRole("alert")).toHaveCount(0);
});

test("Revert all: each file saved after the question opens its own conflict view and is named; the others are reverted", async ({ page, pier }) => {
  const dir = await projectDir(pier);
  const names = ["a.txt", "b.txt", "c.txt"];
  // Each file's text names it, so a conflict view showing another file's text is seen.
  const original = (name: string) => `this is ${name}\n${ORIGINAL}`;
  const changed = (name: string) => `this is ${name}\n${CHANGED}`;
  for (const name of names) await writeFile(join(dir, name), original(name));
  commitAll(dir);
  for (const name of names) await writeFile(join(dir, name), changed(name));

  await openExplorer(page, pier.url);
  await page.getByRole("tab", { name: /Changes/ }).click();
  await expect(page.getByRole("list", { name: "Changed files" }).getByRole("listitem")).toHaveCount(3);
  await page.getByRole("button", { name: "Revert all changes" }).click();
  const question = page.getByRole("dialog", { name: "Revert 3 files?" });
  await expect(question).toBeVisible();
  // While the question is open (the files' state was read before it), two of them are written again.
  await writeFile(join(dir, "a.txt"), "a meanwhile\n" + changed("a.txt"));
  await writeFile(join(dir, "c.txt"), "c meanwhile\n" + changed("c.txt"));
  await question.getByRole("button", { name: "Revert 3 files" }).click();

  await expect.poll(() => readFile(join(dir, "b.txt"), "utf8")).toBe(original("b.txt"));
  const note = page.getByRole("alert").filter({ hasText: "2 files changed since you asked, so they were not reverted" });
  await expect(note).toContainText("a.txt, c.txt");
  expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("a meanwhile\n" + changed("a.txt"));
  expect(await readFile(join(dir, "c.txt"), "utf8")).toBe("c meanwhile\n" + changed("c.txt"));

  // Every one of them has its conflict view, in its own tab.
  const conflict = page.getByRole("region", { name: "Revert conflict" });
  for (const [name, meanwhile] of [
    ["a.txt", "a meanwhile"],
    ["c.txt", "c meanwhile"],
  ] as const) {
    await page.locator(`[data-tab-id="file:${name}"]`).click();
    await expect(conflict).toBeVisible();
    await expect(conflict).toContainText("so it was not reverted yet");
    const left = conflict.locator(".editor.original .view-lines:not(.line-delete)");
    await expect(left).toContainText(meanwhile);
    await expect(left).toContainText(`this is ${name}`);
    // The right side is this file's own buffer (going from one conflict tab to the next once showed the first file's).
    const right = conflict.locator(".editor.modified .view-lines:not(.line-delete)");
    await expect(right).toContainText(`this is ${name}`);
    await expect(right).toContainText("line 8");
    expect(await sideText(right)).not.toContain(meanwhile);
  }
  await expect(conflict.locator(".editor.original .line-delete").first()).toBeAttached();
  await snapshots(page, "all");

  // Take c's revert; keep a's disk.
  await page.locator('[data-tab-id="file:c.txt"]').click();
  await conflict.getByRole("button", { name: "Take the revert" }).click();
  await expect.poll(() => readFile(join(dir, "c.txt"), "utf8")).toBe(original("c.txt"));
  await page.locator('[data-tab-id="file:a.txt"]').click();
  await conflict.getByRole("button", { name: "Keep the disk's" }).click();
  await expect(conflict).toBeHidden();
  expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("a meanwhile\n" + changed("a.txt"));
});

/** Screenshots for a person to look at (PIER_SHOTS=dir), at 1440×900 and a phone's 390×844 (the editor's pane shown), then back. */
async function snapshots(page: Page, name: string): Promise<void> {
  const dir = process.env.PIER_SHOTS;
  if (!dir) return;
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: join(dir, `hunk-review-revert-${name}-1440.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  const editorPane = page.getByRole("tab", { name: /^Editor/ });
  if (await editorPane.isVisible()) await editorPane.click();
  await expect(page.getByRole("region", { name: "Revert conflict" })).toBeVisible();
  await page.screenshot({ path: join(dir, `hunk-review-revert-${name}-390.png`) });
  if (size) await page.setViewportSize(size);
}
