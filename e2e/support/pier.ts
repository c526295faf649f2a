// Playwright fixture: a real `pier --demo` (real relay, real pi, the scripted
// model playing one of e2e/scenarios/) per test.
import { fileURLToPath } from "node:url";
import { test as base } from "@playwright/test";
import { startPier, type RunningPier } from "../../relay/test/support/pier-process.ts";

export function scenario(name: string): string {
  return fileURLToPath(new URL(`../scenarios/${name}.json`, import.meta.url));
}

type PierFixtures = { scenarioName: string; pier: RunningPier };

export const test = base.extend<PierFixtures>({
  scenarioName: ["hello", { option: true }],
  pier: async ({ scenarioName }, use) => {
    const pier = await startPier(["--demo", "--demo-scenario", scenario(scenarioName)]);
    try {
      await use(pier);
    } finally {
      await pier.stop();
    }
  },
});

export { expect } from "@playwright/test";
