// Makes the README's screenshots (docs/*.png) from the offline demo, so they
// show what the product looks like now and can be made again after a change:
//   node e2e/tools/readme-screenshots.ts
// A real pier and pi on the demo model, the machine's Chromium, 1440×900.
// The tour's answers hold emoji: without an emoji font (Debian:
// fonts-noto-color-emoji) Chromium draws them as empty boxes.
import { fileURLToPath } from "node:url";
import { chromium, type Page } from "@playwright/test";
import { startPier } from "../../relay/test/support/pier-process.ts";
import { chromiumLaunchOptions } from "../support/chromium.ts";

const DOCS = fileURLToPath(new URL("../../docs/", import.meta.url));
const VIEWPORT = { width: 1440, height: 900 };

async function takeTheTour(page: Page): Promise<void> {
  await page.getByRole("status", { name: "Connection: Connected" }).waitFor();
  await page.getByRole("button", { name: "Start the tour", exact: true }).click();
  await page.getByRole("status", { name: "Agent: Working" }).waitFor();
  await page.getByRole("status", { name: "Agent: Idle" }).waitFor({ timeout: 60_000 });
}

const pier = await startPier(["--demo"]);
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  // The editor beside the chat: the file the tour's edit changed.
  const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: "light" });
  await page.goto(pier.url);
  await takeTheTour(page);
  await page.getByRole("treeitem", { name: "src" }).click();
  await page.getByRole("treeitem", { name: "greetings.js" }).click();
  await page.locator(".monaco-editor .view-lines").waitFor();
  await page.waitForTimeout(1000);
  await page.screenshot({ path: `${DOCS}screenshot.png` });

  // The inspector on the tour's bash run: the record, what it did, and the card it changed.
  await page.getByRole("tab", { name: "greetings.js", exact: true }).press("Delete");
  await page.getByRole("button", { name: "Protocol inspector", exact: true }).click();
  const inspector = page.getByRole("complementary", { name: "Protocol inspector" });
  await inspector
    .getByRole("option")
    .filter({ hasText: /tool_execution_end\s+bash/ })
    .last()
    .click();
  await page.waitForTimeout(1000);
  await page.screenshot({ path: `${DOCS}inspector.png` });
  await page.close();
} finally {
  await browser.close();
  await pier.stop();
}
console.log(`wrote ${DOCS}screenshot.png and ${DOCS}inspector.png`);
