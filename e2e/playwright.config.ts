import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// Debian's Chromium where it exists (Playwright's own browser download does
// not work on our machines); Playwright's bundled one elsewhere.
const systemChromium = "/usr/bin/chromium";

export default defineConfig({
  testDir: "./specs",
  // Every spec starts its own pier + pi; two cores run them one at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  outputDir: "./test-results",
  use: {
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      ...(existsSync(systemChromium) ? { executablePath: systemChromium } : {}),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
});
