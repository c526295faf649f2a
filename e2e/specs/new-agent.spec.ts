// The board's New agent form (issue #32 items 2 and 5, page side): a folder
// picked from the workspace list, one browsed to with the folder chooser, a
// git repository started "on a new branch" (a real worktree, seen with `git
// worktree list`), a bad branch name's sentence, and a folder another agent
// works in (folder_busy) started anyway; at 1440x900 and 390x844. Real relay,
// real pi children (the scripted model), real Chromium, real git.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";

const boardPanel = (page: Page) => page.getByRole("dialog", { name: "Agents" });
const cards = (page: Page) => boardPanel(page).getByRole("list", { name: "Live sessions" }).getByRole("listitem");
const form = (page: Page) => boardPanel(page).getByRole("form", { name: "New agent" });
const folderField = (page: Page) => form(page).getByRole("textbox", { name: "New agent in folder" });
const workspaceList = (page: Page) => form(page).getByRole("list", { name: "Workspaces" });

/** A temp folder with a repository inside, a plain folder, and a hidden one. */
function tempTree(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pier-new-agent-")));
  mkdirSync(join(root, "plain"));
  mkdirSync(join(root, ".hidden-one"));
  mkdirSync(join(root, "repo"));
  execFileSync("git", ["init", "-q"], { cwd: join(root, "repo") });
  return root;
}

/** A real repository with one commit. */
function gitRepo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pier-new-branch-")));
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=T", ...args], { cwd: dir, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  writeFileSync(join(dir, "README.md"), "# repo\n");
  git("add", ".");
  git("commit", "-qm", "first");
  return dir;
}

async function openBoard(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
  await page.keyboard.press("Alt+KeyA");
  await expect(boardPanel(page)).toBeVisible();
  await expect(cards(page)).toHaveCount(1);
}

async function startedCard(page: Page, count: number, text: string) {
  await expect(cards(page)).toHaveCount(count, { timeout: 30_000 });
  const card = cards(page).filter({ hasText: text });
  await expect(card).toHaveCount(1);
  await expect(card.getByRole("status").filter({ hasText: /^Idle/ })).toHaveText("Idle, waiting for a prompt", { timeout: 30_000 });
  return card;
}

for (const size of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`a folder from the list, one browsed to, one on a new branch, a busy one started anyway (${size.width}x${size.height})`, async ({ page, pier }, testInfo) => {
    // Four pi children on two shared cores.
    test.setTimeout(180_000);
    await page.setViewportSize(size);
    await openBoard(page, pier.url);

    // The primary agent's folder is in the list; picking it fills the field, and Start finds it busy.
    await expect(workspaceList(page).getByRole("listitem").first()).toBeVisible();
    const first = workspaceList(page).getByRole("listitem").first().getByRole("button").first();
    const firstPath = await first.getAttribute("title");
    expect(firstPath).toMatch(/^\//);
    await first.click();
    await expect(folderField(page)).toHaveValue(firstPath!);
    await form(page).getByRole("button", { name: "Start" }).click();
    const busy = form(page).getByRole("alert").filter({ hasText: "two agents in one folder edit the same files" });
    await expect(busy).toBeVisible();
    await expect(cards(page)).toHaveCount(1);
    // "Use a branch instead" ticks the option (and asks for a name); untick it and start anyway.
    await busy.getByRole("button", { name: "Use a branch instead" }).click();
    await expect(form(page).getByRole("checkbox", { name: "On a new branch" })).toBeChecked();
    await expect(form(page).getByRole("textbox", { name: "Branch name" })).toBeFocused();
    await form(page).getByRole("checkbox", { name: "On a new branch" }).uncheck();
    await form(page).getByRole("button", { name: "Start" }).click();
    await expect(busy).toBeVisible();
    await busy.getByRole("button", { name: "Start anyway" }).click();
    await expect(cards(page)).toHaveCount(2, { timeout: 30_000 });

    // The chooser: home by default; then into a temp tree, repositories marked, hidden folders behind the toggle, Up, choose.
    const tree = tempTree();
    await form(page).getByRole("button", { name: "Browse…" }).click();
    const chooser = form(page).getByRole("dialog", { name: "Choose a folder" });
    await expect(chooser.locator("code")).toHaveText(homedir());
    await chooser.getByRole("button", { name: "Cancel" }).click();
    await expect(chooser).toHaveCount(0);
    await folderField(page).fill(tree);
    await form(page).getByRole("button", { name: "Browse…" }).click();
    await expect(chooser.locator("code")).toHaveText(tree);
    const folders = chooser.getByRole("list", { name: "Folders" }).getByRole("button");
    await expect(folders).toHaveText(["plain", /^repo\s*repository$/]);
    await chooser.getByRole("checkbox", { name: "Hidden folders" }).check();
    await expect(folders).toHaveText(["plain", /^repo\s*repository$/, ".hidden-one"]);
    await folders.filter({ hasText: "plain" }).click();
    await expect(chooser.locator("code")).toHaveText(join(tree, "plain"));
    await chooser.getByRole("button", { name: "Up" }).click();
    await expect(chooser.locator("code")).toHaveText(tree);
    await folders.filter({ hasText: "plain" }).click();
    await expect(chooser.locator("code")).toHaveText(join(tree, "plain"));
    await testInfo.attach(`chooser-${size.width}`, { body: await page.screenshot(), contentType: "image/png" });
    await chooser.getByRole("button", { name: "Choose this folder" }).click();
    await expect(chooser).toHaveCount(0);
    await expect(folderField(page)).toHaveValue(join(tree, "plain"));
    // "Add" keeps it in the list; then start there.
    await form(page).getByRole("button", { name: "Add" }).click();
    await expect(workspaceList(page).getByRole("button", { name: new RegExp(`^plain\\s*${join(tree, "plain")}`) })).toBeVisible();
    await form(page).getByRole("button", { name: "Start" }).click();
    await startedCard(page, 3, "plain");
    // "Remove from list" takes it off the list only: the folder is still there.
    await workspaceList(page).getByRole("button", { name: "Remove plain from list" }).click();
    await expect(form(page).getByRole("status")).toHaveText(`${join(tree, "plain")} is off the list; its files are untouched.`);
    await expect(workspaceList(page).getByRole("button", { name: /^plain\s/ })).toHaveCount(0);
    expect(existsSync(join(tree, "plain"))).toBe(true);

    // A folder that cannot be listed: the relay's sentence in the chooser.
    await folderField(page).fill(join(tree, "nothing-here"));
    await form(page).getByRole("button", { name: "Browse…" }).click();
    await expect(chooser.locator("code")).toHaveText(homedir());
    await expect(chooser.getByRole("alert")).toHaveText(`${join(tree, "nothing-here")} does not exist`);
    await chooser.getByRole("button", { name: "Cancel" }).click();

    // On a new branch: a bad name is refused with git's reason; a good one makes a worktree and an agent in it.
    const repo = gitRepo();
    await folderField(page).fill(repo);
    await form(page).getByRole("checkbox", { name: "On a new branch" }).check();
    const branchField = form(page).getByRole("textbox", { name: "Branch name" });
    await branchField.fill("bad..name");
    await form(page).getByRole("button", { name: "Start" }).click();
    await expect(form(page).getByRole("alert")).toHaveText(/^git refuses the branch name "bad\.\.name": /);
    await branchField.fill("agent/try-it");
    await form(page).getByRole("button", { name: "Start" }).click();
    const branchCard = await startedCard(page, 4, "agent/try-it");
    await expect(branchCard).toContainText("agent/try-it");
    const worktrees = execFileSync("git", ["worktree", "list"], { cwd: repo, encoding: "utf8" });
    expect(worktrees).toMatch(/\[agent\/try-it\]/);
    await testInfo.attach(`form-${size.width}`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
    await page.screenshot({ path: testInfo.outputPath(`new-agent-${size.width}.png`) });
  });
}
