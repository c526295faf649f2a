import { defineConfig } from "@playwright/test";
import type { PierOptions } from "./support/pier.ts";
import { chromiumLaunchOptions } from "./support/chromium.ts";

export default defineConfig<PierOptions>({
  testDir: "./specs",
  // Every test starts its own pier + pi; two cores run them one at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  forbidOnly: !!process.env.CI,
  // The failure reports first: the list's summary of failures stays the run's last lines.
  reporter: [["./support/failure-tail-reporter.ts"], ["list"]],
  outputDir: "./test-results",
  use: {
    trace: "off",
    // Off: "only-on-failure" takes a screenshot of every page whenever a
    // context closes, passed or not (0.2-0.8 s a test here). A failed test's
    // pages are shot by the pier fixture instead (support/pier.ts).
    screenshot: "off",
    launchOptions: chromiumLaunchOptions(),
  },
  projects: [
    // Everything against the pinned pi 0.87.1.
    { name: "pi-0.87.1", testIgnore: ["pi-newer.spec.ts"] },
    // pi 1.6.x must keep working beside it: the specs of what differs or is
    // newest (sessions; tools, where 1.6 adds durations and nested calls;
    // the inspector, which shows the wire itself: its pairing, runs, bytes;
    // what pi does with a queue after an abort, and with a dialog an extension withdraws),
    // but for their tests of the page alone (UI_ONLY in support/pier.ts).
    {
      name: "pi-1.6.0",
      use: { piVersion: "1.6.0" },
      testMatch: ["sessions*.spec.ts", "tools.spec.ts", "chat.spec.ts", "inspector.spec.ts", "pi-newer.spec.ts", "queue-after-abort.spec.ts", "withdrawn-dialogs.spec.ts"],
      grepInvert: /@ui-only/,
    },
  ],
});
