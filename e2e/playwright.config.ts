import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./support/chromium.ts";

export default defineConfig({
  testDir: "./specs",
  // Every test starts its own pier + pi; two cores run them one at a time.
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
    launchOptions: chromiumLaunchOptions(),
  },
});
