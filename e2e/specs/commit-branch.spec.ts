// Commit and branch from the page (issue #34 item 2), in real Chromium against
// the real relay and real git: a change staged outside the page is committed
// from the commit box (the subject hint on the way), `git log` shows it; a
// branch made in the branch menu is pushed to a bare repository; a second
// browser (a viewer) sees the new branch without reloading, and is told it
// cannot commit. While the repository is still being read, the commit box
// already takes its room: the lists under it do not jump under a click.
import { execFileSync } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test, UI_ONLY } from "../support/pier.ts";
import { commitAll } from "../support/git-repo.ts";
import { projectDir } from "../support/project-dir.ts";
import { openViewer } from "../support/viewer-link.ts";

const IDENTITY = {
  GIT_AUTHOR_NAME: "Pier Test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "Pier Test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
};

/** The Explorer's Changes view (the Explorer opened first where the screen starts without it). */
async function openChanges(page: Page) {
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const explorer = page.getByRole("navigation", { name: "Explorer" });
  if (!(await explorer.isVisible())) await page.getByRole("button", { name: "Explorer" }).click();
  await page.getByRole("tab", { name: /Changes/ }).click();
  return page.getByRole("region", { name: "Changes", exact: true });
}

test("commit a staged change from the page, make a branch and push it; a second browser sees the branch", UI_ONLY, async ({ page, browser, pier }) => {
  const dir = await projectDir(pier);
  const remote = await mkdtemp(join(tmpdir(), "pier-e2e-remote-"));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, env: { ...process.env, ...IDENTITY }, encoding: "utf8", stdio: "pipe" }).trim();
  try {
    execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "initial");
    git("remote", "add", "origin", remote);
    const file = join(dir, "src/greet.js");
    await writeFile(file, (await readFile(file, "utf8")).replace("Greets someone by name.", "Greets someone kindly by name."));
    git("add", "src/greet.js");

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(pier.url);
    const changes = await openChanges(page);
    const box = changes.getByRole("region", { name: "Commit" });
    const message = box.getByRole("textbox", { name: "Commit message" });
    await expect(box).toContainText("1 staged");

    // The subject hint: over 50 warned, over 72 clearly.
    await message.fill("Greet people kindly, which the old wording did not quite say");
    await expect(box).toContainText("Subject is 60 characters: keep it within 50");
    await message.fill(`${"x".repeat(80)}`);
    await expect(box).toContainText("Subject is 80 characters: over 72");
    await message.fill("Greet people kindly\n\nThe old wording sounded curt.");
    await expect(box).not.toContainText("Subject is");

    // A pre-commit hook that refuses until it is allowed: its words are shown, the message kept, nothing committed.
    const hook = join(dir, ".git", "hooks", "pre-commit");
    await writeFile(hook, `#!/bin/sh\n[ -e '${hook}-ok' ] || { echo 'lint: src/greet.js: 1 problem (no-console)' >&2; exit 1; }\n`);
    await chmod(hook, 0o755);
    await box.getByRole("button", { name: "Commit" }).click();
    await expect(box.getByRole("alert")).toContainText("lint: src/greet.js: 1 problem (no-console)");
    await expect(message).toHaveValue("Greet people kindly\n\nThe old wording sounded curt.");
    expect(git("log", "--format=%s")).toBe("initial");
    await changes.screenshot({ path: test.info().outputPath("commit-box.png") });
    await writeFile(`${hook}-ok`, "");
    await message.press("Control+Enter");
    await expect(box.getByRole("status")).toContainText(/Committed [0-9a-f]+: Greet people kindly/);
    await expect(message).toHaveValue("");
    expect(git("log", "-1", "--format=%B")).toBe("Greet people kindly\n\nThe old wording sounded curt.");
    await expect(changes).toContainText("No changes against HEAD.");

    const viewer = await openViewer(page, browser);
    const viewerChanges = await openChanges(viewer);
    await expect(viewerChanges.getByRole("button", { name: /^Branch: main/ })).toBeVisible();
    await expect(viewerChanges.getByRole("region", { name: "Commit" })).toContainText("Only a driver can commit");

    // A branch from HEAD, switched to, then pushed: its first push sets the upstream.
    const trigger = changes.getByRole("button", { name: /^Branch: main/ });
    await trigger.click();
    const menu = page.getByRole("dialog", { name: "Branches" });
    await menu.getByRole("textbox", { name: "New branch name" }).fill("feature/kind");
    await menu.getByRole("button", { name: "Create" }).click();
    await expect(changes.getByRole("button", { name: /^Branch: feature\/kind/ })).toBeVisible();
    await expect(menu.getByRole("list", { name: "Local branches" }).getByRole("button", { name: /feature\/kind/ })).toHaveAttribute("aria-current", "true");
    await menu.getByRole("button", { name: "Push" }).click();
    await expect(menu.getByRole("status")).toHaveText("Pushed feature/kind");
    expect(execFileSync("git", ["-C", remote, "branch", "--format=%(refname:short)"], { encoding: "utf8" }).trim()).toBe("feature/kind");
    await expect(menu).toContainText("tracks origin/feature/kind: up to date");
    await menu.screenshot({ path: test.info().outputPath("branch-menu.png") });

    // The viewer's page follows without a reload.
    await expect(viewerChanges.getByRole("button", { name: /^Branch: feature\/kind/ })).toBeVisible();
    await viewerChanges.getByRole("button", { name: /^Branch: feature\/kind/ }).click();
    const viewerMenu = viewer.getByRole("dialog", { name: "Branches" });
    await expect(viewerMenu).toContainText("Only a driver can switch, create or delete branches");
    await expect(viewerMenu.getByRole("button", { name: "Push" })).toHaveCount(0);
  } finally {
    await rm(remote, { recursive: true, force: true });
  }
});

test("the Changes lists stay where they are when the repository's facts arrive after them", UI_ONLY, async ({ page, pier }) => {
  const dir = await projectDir(pier);
  commitAll(dir);
  await writeFile(join(dir, "README.md"), "changed\n");
  // The repository's facts (branch, staged count, last commit) held until the list is shown, as when git status answers first.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/git/repo", async (route) => {
    await held;
    await route.continue().catch(() => {});
  });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(pier.url);
  const changes = await openChanges(page);
  await expect(changes.getByRole("list", { name: "Changed files" }).getByRole("listitem")).toHaveCount(1);
  const message = changes.getByRole("textbox", { name: "Commit message" });
  await expect(message).toBeDisabled();
  await expect(message).toHaveAttribute("placeholder", "Reading the repository…");
  await expect(changes.getByRole("button", { name: "Commit", exact: true })).toBeDisabled();
  const revertAll = changes.getByRole("button", { name: "Revert all changes" });
  const before = await revertAll.boundingBox();
  await changes.screenshot({ path: test.info().outputPath("changes-reading.png") });

  release();
  await expect(message).toBeEnabled();
  await expect(message).toHaveAttribute("placeholder", "Message (Ctrl+Enter to commit 0 staged files)");
  await expect(changes.getByRole("region", { name: "Commit" })).toContainText("0 staged");
  expect(await revertAll.boundingBox()).toEqual(before);
  await changes.screenshot({ path: test.info().outputPath("changes-read.png") });
});
