// The real terminal: a shell in a pseudo-terminal in the session's folder,
// beside pi's RPC bash panels. Typed commands run, a full-screen program
// draws on the alternate screen and gives the screen back when it quits, a
// printed path:line opens the file in the editor, a reload reattaches with
// the scrollback, a viewer watches a shell read-only only while the driver
// shares it (the relay enforces it: relay/test/terminal/), and 50 MB
// of output reaches two browsers whole (the longest tasks are printed).
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { expectAccessible } from "../support/accessible.ts";
import { expect, test, UI_ONLY } from "../support/pier.ts";
import { openViewer } from "../support/viewer-link.ts";

const SHOTS = process.env.PIER_SHOTS_DIR ?? null;

async function openDock(page: Page, url: string): Promise<Locator> {
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await page.getByRole("button", { name: "Show terminal" }).click();
  const dock = page.getByRole("region", { name: "Terminal" });
  await expect(dock).toBeVisible();
  return dock;
}

/** The shell tab's panel, its xterm rows (what is on screen now). */
const shellPanel = (page: Page, title: string) => page.getByRole("region", { name: `Shell ${title}`, exact: true });
const screen = (panel: Locator) => panel.locator(".xterm-rows");

async function typeLine(panel: Locator, text: string): Promise<void> {
  await panel.locator(".xterm-screen").click();
  await panel.page().keyboard.type(text);
  await panel.page().keyboard.press("Enter");
}

test("a shell tab runs what is typed, draws a full-screen program, links path:line to the editor, and comes back after a reload", UI_ONLY, async ({ page, pier }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const dock = await openDock(page, pier.url);
  await dock.getByRole("button", { name: "+ Shell" }).click();
  const tab = dock.getByRole("button", { name: /^(bash|sh|zsh|fish|dash) 1$/ });
  await expect(tab).toHaveAttribute("aria-pressed", "true");
  const title = (await tab.textContent())!.trim();
  const panel = shellPanel(page, title);
  await expect(panel.locator(".xterm-screen")).toBeVisible();

  await typeLine(panel, "echo hello-$((1+1))");
  await expect(screen(panel)).toContainText("hello-2");
  // Colours: ANSI SGR is drawn, not printed.
  await typeLine(panel, "printf '\\033[32mgreen-%s\\033[0m\\n' ok");
  await expect(screen(panel).locator("span.xterm-fg-2", { hasText: "green-ok" })).toBeVisible();
  // The first screen's cards are accessibility.spec's to check.
  await expectAccessible(page, "the Terminal dock with a shell tab open", [], ['[aria-labelledby^="start-title"]']);

  // A full-screen program takes the alternate screen (the shell's lines are gone from view) and gives it back on :q.
  await typeLine(panel, "vim -u NONE -N README.md");
  await expect(screen(panel)).toContainText("tiny-greeter");
  await expect(screen(panel)).not.toContainText("hello-2");
  await page.keyboard.type(":q");
  await page.keyboard.press("Enter");
  await expect(screen(panel)).toContainText("hello-2");

  // A printed path:line opens the file in the editor.
  await typeLine(panel, "clear; echo README.md:2");
  const row = screen(panel).locator(":scope > div", { hasText: /^README\.md:2\s*$/ });
  await expect(row).toBeVisible();
  const box = (await row.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.click(box.x + 20, box.y + box.height / 2);
  await expect(page.getByRole("tab", { name: /README\.md/ })).toBeVisible();
  // The editor has the cursor on that line.
  await expect(page.locator(".monaco-editor .line-numbers.active-line-number")).toHaveText("2");

  // A reload reattaches: the tab is listed again and the scrollback is drawn.
  await typeLine(panel, "echo after-$((3*3))");
  await expect(screen(panel)).toContainText("after-9");
  await page.reload();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const again = page.getByRole("region", { name: "Terminal" });
  await expect(again.getByRole("button", { name: title, exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(screen(shellPanel(page, title))).toContainText("after-9");
  // The editor comes back too (its tabs are restored) and takes the focus once loaded: then type in the shell.
  await expect(page.locator(".monaco-editor .view-lines")).toContainText("tiny-greeter");
  await typeLine(shellPanel(page, title), "echo still-$((5+5))");
  await expect(screen(shellPanel(page, title))).toContainText("still-10");
  if (SHOTS) await page.screenshot({ path: join(SHOTS, "terminal-1440x900.png") });

  // Closing the tab ends the shell.
  await again.getByRole("button", { name: `Close ${title}` }).click();
  await expect(again.getByRole("button", { name: title, exact: true })).toHaveCount(0);
  await expect(again.getByRole("button", { name: "Commands" })).toHaveAttribute("aria-pressed", "true");
});

test("on a phone the shell fills the sheet", UI_ONLY, async ({ page, pier }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const dock = await openDock(page, pier.url);
  await dock.getByRole("button", { name: "+ Shell" }).click();
  const tab = dock.getByRole("button", { name: /^(bash|sh|zsh|fish|dash) 1$/ });
  await expect(tab).toHaveAttribute("aria-pressed", "true");
  const panel = shellPanel(page, (await tab.textContent())!.trim());
  await typeLine(panel, "ls -la --color=always");
  await expect(screen(panel)).toContainText("README.md");
  // The shell was told the phone's size: a narrow screen, not 80 columns.
  await typeLine(panel, "echo size-$(stty size | tr ' ' x)-");
  await expect(screen(panel)).toContainText(/size-\d+x\d+-/);
  const [, rows, cols] = /size-(\d+)x(\d+)-/.exec((await screen(panel).textContent())!)!.map(Number);
  expect(cols).toBeLessThan(60);
  expect(rows).toBeGreaterThan(20);
  // Every tab is readable whole on its own row, beside the actions a finished command brings ("Commands" was cut to "Commar").
  await dock.getByRole("button", { name: "Commands" }).click();
  await page.getByRole("textbox", { name: "Shell command" }).fill("echo hi");
  await page.keyboard.press("Enter");
  await expect(dock.getByRole("button", { name: "Clear finished" })).toBeVisible();
  for (const name of ["Commands", (await tab.textContent())!.trim(), "+ Shell"]) {
    const whole = await dock.getByRole("button", { name, exact: true }).evaluate((el) => {
      // Not cut by the tab row's scroll box, nor by the screen.
      const box = el.getBoundingClientRect();
      const row = el.closest("[role=group]")?.getBoundingClientRect() ?? box;
      return box.left >= row.left - 0.5 && box.right <= row.right + 0.5 && box.right <= window.innerWidth;
    });
    expect(whole, name).toBe(true);
  }
  if (SHOTS) await page.screenshot({ path: join(SHOTS, "terminal-390x844.png") });
});

test("a viewer watches a shell only while the driver shares it, and cannot type into it", UI_ONLY, async ({ page, browser, pier }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const dock = await openDock(page, pier.url);
  await dock.getByRole("button", { name: "+ Shell" }).click();
  const tab = dock.getByRole("button", { name: /^(bash|sh|zsh|fish|dash) 1$/ });
  await expect(tab).toHaveAttribute("aria-pressed", "true");
  const title = (await tab.textContent())!.trim();
  const panel = shellPanel(page, title);
  await typeLine(panel, "echo before-share-$((4*4))");
  await expect(screen(panel)).toContainText("before-share-16");

  // Not shared yet: the viewer's dock offers no shell, and says none is shared.
  const viewer = await openViewer(page, browser);
  await viewer.setViewportSize({ width: 1440, height: 900 });
  await viewer.getByRole("button", { name: "Show terminal" }).click();
  const viewerDock = viewer.getByRole("region", { name: "Terminal" });
  await expect(viewerDock.getByText("No shell is shared with you")).toBeVisible();
  await expect(viewerDock.getByRole("button", { name: "+ Shell" })).toHaveCount(0);
  await expect(viewer.locator(".xterm-screen")).toHaveCount(0);
  if (SHOTS) await viewer.screenshot({ path: join(SHOTS, "terminal-viewer-none-1440x900.png") });

  // The driver shares it: the viewer's dock gets a read-only tab within moments (terminals_changed), with the scrollback and live output.
  const shareToggle = dock.getByRole("button", { name: `Share ${title} with viewers` });
  await expect(shareToggle).toHaveAttribute("aria-pressed", "false");
  await shareToggle.click();
  await expect(shareToggle).toHaveAttribute("aria-pressed", "true");
  const watchedTab = viewerDock.getByRole("button", { name: title, exact: true });
  await watchedTab.click();
  const watched = shellPanel(viewer, title);
  await expect(watched.getByRole("status")).toHaveText(`Watching ${title} — read only`);
  await expect(screen(watched)).toContainText("before-share-16");
  await expect(viewerDock.getByRole("button", { name: `Close ${title}` })).toHaveCount(0);
  await typeLine(panel, "echo live-$((6*7))");
  await expect(screen(watched)).toContainText("live-42");
  // Typing in the viewer's terminal goes nowhere: the driver's shell never gets it.
  await typeLine(watched, "echo viewer-typed-$((8*8))");
  await typeLine(panel, "echo after-$((9*9))");
  await expect(screen(watched)).toContainText("after-81");
  await expect(screen(panel)).not.toContainText("viewer-typed");
  // Nor did it move the viewer's view of the shell (the browser scrolling to a caret in xterm's hidden textarea).
  await expect(screen(watched).getByText("before-share-16", { exact: true })).toBeInViewport();
  if (SHOTS) {
    await viewer.screenshot({ path: join(SHOTS, "terminal-viewer-1440x900.png") });
    await page.screenshot({ path: join(SHOTS, "terminal-shared-1440x900.png") });
    await viewer.setViewportSize({ width: 390, height: 844 });
    await viewer.screenshot({ path: join(SHOTS, "terminal-viewer-390x844.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, "terminal-shared-390x844.png") });
  }

  // The driver stops sharing: the viewer's tab goes away at once.
  await shareToggle.click();
  await expect(shareToggle).toHaveAttribute("aria-pressed", "false");
  await expect(watchedTab).toHaveCount(0);
  await expect(viewerDock.getByText("No shell is shared with you")).toBeVisible();
  await expect(viewer.locator(".xterm-screen")).toHaveCount(0);
  await viewer.context().close();
});

/** Records the page's long tasks (over 50 ms) from now on, for `longestTask`. */
async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { __longTasks: number[] }).__longTasks = seen;
    new PerformanceObserver((list) => seen.push(...list.getEntries().map((entry) => entry.duration))).observe({ type: "longtask" });
  });
}
const longestTask = (page: Page) => page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));

test("50 MB through a shell with two browsers attached: both get to its end and stay responsive", UI_ONLY, async ({ page, pier }) => {
  test.setTimeout(240_000);
  const dock = await openDock(page, pier.url);
  await dock.getByRole("button", { name: "+ Shell" }).click();
  const tab = dock.getByRole("button", { name: /^(bash|sh|zsh|fish|dash) 1$/ });
  await expect(tab).toHaveAttribute("aria-pressed", "true");
  const title = (await tab.textContent())!.trim();
  const panel = shellPanel(page, title);
  await typeLine(panel, "echo ready-$((2+2))");
  await expect(screen(panel)).toContainText("ready-4");

  // The same driver in a second browser window: it reattaches to the same shell.
  const second = await page.context().newPage();
  // The dock's open state is the browser's (saved): it opens open here.
  await second.goto(pier.url);
  await expect(second.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const secondDock = second.getByRole("region", { name: "Terminal" });
  await secondDock.getByRole("button", { name: title, exact: true }).click();
  const secondPanel = shellPanel(second, title);
  await expect(screen(secondPanel)).toContainText("ready-4");

  // xterm.js drops output it has been given beyond ~50 MB not yet drawn, with a page error: the relay must pace the shell by what each page drew.
  const errors: string[] = [];
  for (const p of [page, second]) p.on("pageerror", (error) => errors.push(error.message));
  await watchLongTasks(page);
  await watchLongTasks(second);
  const started = Date.now();
  await typeLine(panel, "yes | head -c 50000000; echo flood-end-$((6*7))");
  await expect(screen(panel)).toContainText("flood-end-42", { timeout: 200_000 });
  await expect(screen(secondPanel)).toContainText("flood-end-42", { timeout: 60_000 });
  const seconds = (Date.now() - started) / 1000;
  const [first, other] = [await longestTask(page), await longestTask(second)];
  console.log(`terminal flood in the page: 50 MB in ${seconds.toFixed(1)} s; longest task ${first.toFixed(0)} ms (first browser), ${other.toFixed(0)} ms (second)`);
  expect(errors).toEqual([]);
  // Responsive after it: a typed command still answers at once in both.
  await typeLine(secondPanel, "echo after-flood-$((1+2))");
  await expect(screen(panel)).toContainText("after-flood-3");
  await expect(screen(secondPanel)).toContainText("after-flood-3");
});
