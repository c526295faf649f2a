// "What this run changed" (issue #34 item 1) in real Chromium against a real
// relay, pi and git: the scripted model rewrites notes.txt with pi's write
// tool; the finished run ends with a collapsed "Changed 1 file" row whose
// file opens the Hunks view of notes.txt; reverting that hunk there leaves
// the row saying "no changes now". A viewer sees the same list and hunks,
// with the actions disabled (the relay refuses them anyway).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";
import { commitAll } from "../support/git-repo.ts";
import { projectDir } from "../support/project-dir.ts";
import { openViewer } from "../support/viewer-link.ts";

test.use({ scenarioName: "agent-writes" });

const BEFORE = "Notes before the run.\n";

test("a finished run lists the file it wrote, which opens in the Hunks view", async ({ page, pier, browser }) => {
  const dir = await projectDir(pier);
  const file = join(dir, "notes.txt");
  await writeFile(file, BEFORE);
  commitAll(dir);

  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("Rewrite notes, round 1");
  await prompt.press("Enter");
  await expect(page.getByRole("status", { name: /^Agent:/ })).toHaveAccessibleName("Agent: Idle", { timeout: 20_000 });
  await expect.poll(() => readFile(file, "utf8")).toBe("Notes, rewritten by the agent in round 1.\n");

  const run = page.getByRole("region", { name: "What this run changed" });
  const head = run.getByRole("button", { name: "Changed 1 file" });
  // Collapsed until asked.
  await expect(head).toHaveAttribute("aria-expanded", "false");
  await head.click();
  const entry = run.getByRole("list", { name: "Files this run changed" }).getByRole("button", { name: /notes\.txt/ });
  await expect(entry).toContainText("modified");
  // Its lines added and removed against HEAD, from git (one line became another), read out by name too.
  await expect(entry).toContainText("+1 −1");
  await expect(entry).toHaveAccessibleName(/notes\.txt.*1 added, 1 removed/);
  await snapshot(page, "list");
  await entry.click();

  // The Hunks view, not side by side, even on a wide page.
  const review = page.getByRole("region", { name: "Hunks of notes.txt (not staged)" });
  await expect(review.locator("section.hunk")).toHaveCount(1);
  await expect(review.locator("section.hunk")).toContainText("rewritten by the agent in round 1");
  await snapshot(page, "hunks");

  // A viewer: the same list, the same hunks, nothing to press.
  // Its git status answers slowly (held 3 s, then passed on to the real relay), so the click below lands while the row still says "…".
  const viewer = await openViewer(page, browser, (context) =>
    context.route("**/api/git/status*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue();
    }),
  );
  const viewerRun = viewer.getByRole("region", { name: "What this run changed" });
  await viewerRun.getByRole("button", { name: "Changed 1 file" }).click();
  // Clicked before the viewer's git status answered: it still opens the hunks, not the file as text.
  const viewerEntry = viewerRun.getByRole("list", { name: "Files this run changed" }).getByRole("button", { name: /notes\.txt/ });
  await viewerEntry.click();
  await expect(viewerEntry).toContainText("modified");
  const viewerReview = viewer.getByRole("region", { name: "Hunks of notes.txt (not staged)" });
  await expect(viewerReview.locator("section.hunk")).toContainText("rewritten by the agent in round 1");
  await expect(viewerReview).toContainText("only a driver can stage, unstage or revert");
  await expect(viewerReview.getByRole("button", { name: /^Revert hunk/ })).toBeDisabled();
  await viewer.context().close();

  await review
    .locator("section.hunk")
    .getByRole("button", { name: /^Revert hunk/ })
    .click();
  await expect.poll(() => readFile(file, "utf8")).toBe(BEFORE);
  await expect(entry).toContainText("no changes now");
});

/** Screenshots for a person to look at (PIER_SHOTS=dir), at a desktop's size and a phone's; the page gets its own size back. */
async function snapshot(page: Page, name: string): Promise<void> {
  const dir = process.env.PIER_SHOTS;
  if (!dir) return;
  const own = page.viewportSize();
  for (const size of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300); // only for the picture: the layout settles after a resize
    await page.screenshot({ path: join(dir, `run-changes-${name}-${size.width}.png`) });
  }
  if (own) await page.setViewportSize(own);
}
