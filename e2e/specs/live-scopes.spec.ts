// Viewer links and live sessions in real browsers: a viewer link made from
// the Share dialog opens this session only by default (its row says so), and
// the relay refuses that viewer another agent's page; a link made for the
// whole board opens every agent. The relay, pi and Chromium are real.
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";

const connected = (page: Page) => page.getByRole("status", { name: "Connection: Connected" });

async function makeViewerLink(page: Page, scope: "this session only" | "every agent on the board"): Promise<string> {
  await page.getByRole("button", { name: "Share" }).click();
  const share = page.getByRole("dialog", { name: "Share" });
  await share.getByRole("radio", { name: scope }).check();
  const before = await share
    .getByRole("list", { name: "Links" })
    .getByRole("listitem")
    .count()
    .catch(() => 0);
  await share.getByRole("button", { name: "Create viewer link" }).click();
  const address = share.getByRole("textbox", { name: "Link address" });
  await expect(address).toHaveValue(/\?token=/);
  const rows = share.getByRole("list", { name: "Links" }).getByRole("listitem");
  await expect(rows).toHaveCount(before + 1);
  await expect(rows.first()).toContainText(scope === "this session only" ? "this session" : "every agent");
  const link = await address.inputValue();
  await share.getByRole("button", { name: "Close" }).click();
  return link;
}

test("a viewer link opens its own session only unless it was made for the whole board", async ({ page, browser, pier }) => {
  // Two pi children and three browsers on a small machine.
  test.setTimeout(120_000);
  await page.goto(pier.url);
  await expect(connected(page)).toBeVisible();
  // A second agent, started as the board does.
  const folder = realpathSync(mkdtempSync(join(tmpdir(), "pier-e2e-agent-")));
  const started = await page.evaluate(async (cwd) => {
    const response = await fetch("/api/live", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ cwd }) });
    return { status: response.status, body: await response.json() };
  }, folder);
  expect(started.status).toBe(201);
  const secondPath = `/live/${started.body.card.id}/`;

  const sessionLink = await makeViewerLink(page, "this session only");
  const demo = await (await browser.newContext()).newPage();
  await demo.goto(sessionLink);
  await expect(connected(demo)).toBeVisible();
  const refused = await demo.goto(new URL(secondPath, sessionLink).href);
  expect(refused?.status()).toBe(403);
  await expect(demo.getByText("is for another live session")).toBeVisible();

  const boardLink = await makeViewerLink(page, "every agent on the board");
  // The dialog showed the first link until the relay answered: never that one again.
  expect(boardLink).not.toBe(sessionLink);
  const watcher = await (await browser.newContext()).newPage();
  await watcher.goto(boardLink);
  await expect(connected(watcher)).toBeVisible();
  await watcher.goto(new URL(secondPath, boardLink).href);
  await expect(connected(watcher)).toBeVisible();
  // The second agent's page: its own folder, and a viewer's page (no prompt box to type in).
  await expect(watcher.getByText(folder).first()).toBeVisible();
  await expect(watcher.getByRole("textbox", { name: "Prompt", exact: true })).toHaveCount(0);
});
