// The explorer's Changes and Search views are loaded when first shown. While
// one loads, the explorer keeps its layout: its "Go to file" foot does not
// jump up to the tabs and back (it did, ~560 px, on every first switch); and
// a view whose code cannot be fetched says so in its place.
import type { Page } from "@playwright/test";
import { blockUrls } from "../support/block-urls.ts";
import { expect, test } from "../support/pier.ts";

const explorer = (page: Page) => page.getByRole("navigation", { name: "Explorer" });

/** Layout shifts the page makes by itself from now on, with the moved elements' classes (Chromium's layout-shift entries). */
async function watchShifts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __shifts: string[] }).__shifts = seen;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { sources?: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] })[]) {
        for (const source of entry.sources ?? []) {
          const node = source.node;
          const element = node instanceof Element ? node : (node?.parentElement ?? null);
          seen.push(`${element?.className ?? "?"}: y ${Math.round(source.previousRect.y)} → ${Math.round(source.currentRect.y)}`);
        }
      }
    }).observe({ type: "layout-shift" });
  });
  return () => page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts.slice());
}

test("switching to Changes and Search for the first time moves nothing of the explorer's frame", async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(explorer(page).getByRole("tree", { name: "Files" })).toBeVisible();
  const shifts = await watchShifts(page);
  const foot = explorer(page).getByRole("button", { name: /Go to file/ });
  const footAt = (await foot.boundingBox())!.y;

  await explorer(page).getByRole("tab", { name: "Changes" }).click();
  await expect(page.getByRole("region", { name: "Changes" })).toBeVisible();
  await explorer(page).getByRole("tab", { name: "Search" }).click();
  await expect(page.getByRole("region", { name: "Search" })).toBeVisible();
  // Two frames more: a shift is reported after the frame that made it.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect((await shifts()).filter((shift) => shift.includes("foot"))).toEqual([]);
  expect((await foot.boundingBox())!.y).toBe(footAt);
});

test("a view whose code cannot be fetched says so in its place", async ({ page, pier }, testInfo) => {
  await blockUrls(page, ["*/assets/SearchView-*.js"]);
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await explorer(page).getByRole("tab", { name: "Search" }).click();
  await expect(explorer(page).getByRole("alert")).toHaveText("The Search view could not be loaded. Reload the page to try again.");
  await expect(page.getByRole("alert").filter({ hasText: "Part of Pier did not load" })).toContainText(/SearchView-[\w-]+\.js could not be fetched/);
  await expect(explorer(page).getByRole("button", { name: /Go to file/ })).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("search-view-failed.png") });
});
