// A worktree agent's card on the board (issue #32 item 5, page side): its
// branch, base and diff summary, a review of the changed file in a diff tab,
// a fast-forward merge into main (the repository's main then has the file),
// and a second agent discarded after the preview named its uncommitted file
// (git then no longer lists its worktree). Real relay, real pi children (the
// scripted model), real git, real Chromium; the agents' "work" is a file
// written into the worktree folder with node fs, as an agent would.
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import type { LiveCard } from "@pier/protocol";
import { expect, test } from "../support/pier.ts";

// Pier commits the agent's uncommitted work before merging: it needs an identity (the fixture passes this worker's env to pier).
process.env.GIT_AUTHOR_NAME = "Ada Tester";
process.env.GIT_AUTHOR_EMAIL = "ada@example.com";
process.env.GIT_COMMITTER_NAME = "Ada Tester";
process.env.GIT_COMMITTER_EMAIL = "ada@example.com";

const SHOTS = process.env.PIER_SHOTS_DIR ?? null;

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, stdio: "pipe" }).toString("utf8").trim();
}

/** A repository on main with one commit, in a temp dir. */
function repository(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pier-wt-card-")));
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "README.md"), "# project\n");
  git(dir, "add", ".");
  git(dir, "commit", "-qm", "first");
  return dir;
}

const boardPanel = (page: Page) => page.getByRole("dialog", { name: "Agents" });
const cardOf = (page: Page, id: string) => boardPanel(page).locator(`[data-card-id="${id}"]`);

/** An agent on a new branch, started as the board's form would (POST worktree, same origin). */
async function startOnBranch(page: Page, workspace: string, branch: string): Promise<LiveCard> {
  const answer = await page.evaluate(
    async ({ workspace, branch }) => {
      const response = await fetch("/api/live/worktree", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ workspace, branch }) });
      return { status: response.status, json: await response.json() };
    },
    { workspace, branch },
  );
  expect(answer.status, JSON.stringify(answer.json)).toBe(201);
  const card = (answer.json as { card: LiveCard }).card;
  expect(card.worktree?.branch).toBe(branch);
  return card;
}

test("a worktree agent's card: summary, review in a diff tab, a fast-forward merge into main, and a discard after its preview", async ({ page, pier }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const repo = repository();

  const first = await startOnBranch(page, repo, "feature-x");
  const folder = first.worktree!.path;
  writeFileSync(join(folder, "hello.txt"), "hello from the agent\n");

  await page.keyboard.press("Alt+KeyA");
  await expect(boardPanel(page)).toBeVisible();
  const card = cardOf(page, first.id);
  const section = card.getByRole("region", { name: "Worktree of feature-x" });
  await expect(section).toContainText("feature-x from main");
  // The agent wrote after the card was first shown (its state may not change): asked again on demand.
  await section.getByRole("button", { name: "Refresh" }).click();
  await expect(section.getByRole("status", { name: "Changes of feature-x" })).toHaveText("1 file changed, +1 −0");
  if (SHOTS !== null) await page.screenshot({ path: join(SHOTS, "worktree-card-1440.png") });

  // Review: the file opens as a diff tab with the agent's text on the current side.
  await section.getByRole("button", { name: "Review" }).click();
  await section
    .getByRole("list", { name: "Changed files of feature-x" })
    .getByRole("button", { name: /hello\.txt/ })
    .click();
  await page.keyboard.press("Escape");
  await expect(boardPanel(page)).toBeHidden();
  await expect(page.getByRole("tablist", { name: "Open editors" }).getByRole("tab", { name: /hello\.txt \(feature-x vs main\)/ })).toBeVisible();
  const diff = page.getByRole("region", { name: "Editor" }).locator(".monaco-diff-editor");
  await expect(diff).toBeVisible({ timeout: 30_000 });
  await expect(diff.locator(".editor.modified .view-lines")).toContainText("hello from the agent");
  if (SHOTS !== null) await page.screenshot({ path: join(SHOTS, "worktree-diff-1440.png") });
  // The file is in the agent's worktree, not this page's workspace: "Open file" leads to the agent's page, which opens it.
  const elsewhere = page.getByRole("region", { name: "Editor" }).getByRole("link", { name: "Open in the agent's page" });
  await expect(elsewhere).toHaveAttribute("href", `/live/${first.id}/#open=hello.txt`);
  const agentPage = await page.context().newPage();
  await agentPage.goto(new URL((await elsewhere.getAttribute("href"))!, page.url()).href);
  await expect(agentPage.getByRole("tablist", { name: "Open editors" }).getByRole("tab", { name: "hello.txt", exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(agentPage.getByRole("region", { name: "Editor" }).locator(".monaco-editor .view-lines")).toContainText("hello from the agent", { timeout: 30_000 });
  // Taken once: a reload does not open it again on its own.
  expect(new URL(agentPage.url()).hash).toBe("");
  await agentPage.close();

  // Merge (fast-forward, the default), confirmed: main has the file, committed by pier.
  await page.keyboard.press("Alt+KeyA");
  await expect(section.getByRole("combobox", { name: "How to merge" })).toHaveValue("ff");
  await section.getByRole("button", { name: "Merge into main" }).click();
  await section.getByRole("button", { name: "Yes, merge" }).click();
  await expect(section.getByRole("status").filter({ hasText: "Merged feature-x into main (fast-forward)" })).toBeVisible();
  await expect(section.getByRole("status", { name: "Changes of feature-x" })).toHaveText("No changes yet");
  await expect(section.getByRole("button", { name: "Merge into main" })).toBeDisabled();
  expect(git(repo, "show", "main:hello.txt")).toBe("hello from the agent");
  expect(git(repo, "log", "-1", "--format=%an", "main")).toBe("Ada Tester");

  // A second agent, on a phone: its discard first names the uncommitted file, then removes the worktree.
  await page.setViewportSize({ width: 390, height: 844 });
  const second = await startOnBranch(page, repo, "scratch");
  writeFileSync(join(second.worktree!.path, "draft.txt"), "half an idea\n");
  const other = cardOf(page, second.id).getByRole("region", { name: "Worktree of scratch" });
  await other.getByRole("button", { name: "Refresh" }).click();
  await expect(other.getByRole("status", { name: "Changes of scratch" })).toHaveText("1 file changed, +1 −0");
  await other.getByRole("button", { name: "Discard…" }).click();
  const confirm = other.getByRole("group", { name: "Discard scratch?" });
  await expect(confirm).toContainText("losing 1 uncommitted file");
  await expect(confirm.getByRole("listitem")).toHaveText(["draft.txt"]);
  await confirm.scrollIntoViewIfNeeded();
  if (SHOTS !== null) await page.screenshot({ path: join(SHOTS, "worktree-card-390.png") });
  expect(git(repo, "worktree", "list")).toContain(second.worktree!.path);
  await confirm.getByRole("button", { name: "Yes, discard" }).click();
  await expect(cardOf(page, second.id)).toHaveCount(0, { timeout: 30_000 });
  // The card leaves when the agent is archived, a moment before git has removed the worktree.
  await expect.poll(() => git(repo, "worktree", "list"), { timeout: 15_000 }).not.toContain(second.worktree!.path);
  await expect.poll(() => git(repo, "branch", "--list", "scratch")).toBe("");
});
