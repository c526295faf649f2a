// Issue 31, hole 10: where does a link's secret stay in the browser after it
// is opened? Measured in real Chromium with a profile on disk:
// - the tab's session history: nowhere. The link door answers with a 303 to
//   a clean address, which replaces the entry (going back never shows it);
// - the profile's History database: the link as typed (visible, typed_count
//   1), like any address the user opens. No page or server can keep a typed
//   address out of it, so what matters is that a copy found there opens
//   nothing: a driver link is spent by then (a viewer link stays usable until
//   it expires or is revoked, see README "Security model").
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../support/chromium.ts";
import { expect, test } from "../support/pier.ts";

test("a link's secret leaves the tab's history at once; the copy in the History database is spent", async ({ pier }) => {
  const profile = await mkdtemp(join(tmpdir(), "pier-history-"));
  try {
    const context = await chromium.launchPersistentContext(profile, chromiumLaunchOptions());
    const page = context.pages()[0] ?? (await context.newPage());
    const before = await page.evaluate(() => history.length);
    await page.goto(pier.url);
    await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
    expect(page.url()).toBe(`${pier.origin}/`);
    // One new entry, the clean one; going back leaves Pier without passing a token.
    expect(await page.evaluate(() => history.length)).toBe(before + 1);
    await page.goBack();
    expect(page.url()).not.toContain("token=");
    await context.close();

    const { DatabaseSync } = await import("node:sqlite");
    const database = new DatabaseSync(join(profile, "Default", "History"), { readOnly: true });
    const urls = (database.prepare("SELECT url FROM urls").all() as { url: string }[]).map((row) => row.url);
    database.close();
    const recorded = urls.filter((url) => url.includes("token="));
    // Measured on Chromium 156: the typed link is there. Should a Chromium stop recording it, this says so.
    expect(recorded).toEqual([pier.url]);
    // …and opens nothing any more.
    const reopened = await fetch(recorded[0]!, { redirect: "manual" });
    expect(reopened.status).toBe(401);
    expect(await reopened.text()).toContain("used already");
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
});
