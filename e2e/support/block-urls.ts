// Chromium's own URL blocking (DevTools protocol), for a request that
// Playwright's page.route is not called for: some of the page's lazily loaded
// chunks (seen with the shortcuts list's). Returns the function that blocks
// a new set of patterns (`[]` blocks nothing again).
import type { Page } from "@playwright/test";

export async function blockUrls(page: Page, patterns: string[]): Promise<(patterns: string[]) => Promise<void>> {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send("Network.enable");
  const block = async (urls: string[]) => void (await devtools.send("Network.setBlockedURLs", { urls }));
  await block(patterns);
  return block;
}
