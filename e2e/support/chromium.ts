import { existsSync } from "node:fs";
import type { LaunchOptions } from "@playwright/test";

// Debian's Chromium where it exists (Playwright's own browser download does
// not work on our machines); Playwright's bundled one elsewhere. Without the
// background-networking flags Chromium floods a closed network with requests.
const SYSTEM_CHROMIUM = "/usr/bin/chromium";

export function chromiumLaunchOptions(extraArgs: string[] = []): LaunchOptions {
  return {
    ...(existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", ...extraArgs],
  };
}
