// Playwright fixture: a real `pier --demo` (real relay, real pi, the scripted
// model playing one of e2e/scenarios/) per test.
import { fileURLToPath } from "node:url";
import { test as base } from "@playwright/test";
import { startPier, type RunningPier } from "../../relay/test/support/pier-process.ts";

export function scenario(name: string): string {
  return fileURLToPath(new URL(`../scenarios/${name}.json`, import.meta.url));
}

/** Absolute path of a test extension in e2e/extensions/. */
export function extension(name: string): string {
  return fileURLToPath(new URL(`../extensions/${name}`, import.meta.url));
}

type PierFixtures = {
  scenarioName: string;
  /** Extra arguments for pi (after pier's `--`), e.g. `["-e", extension("ui-probe.ts")]`. */
  piArgs: string[];
  pier: RunningPier;
};

export const test = base.extend<PierFixtures>({
  scenarioName: ["hello", { option: true }],
  piArgs: [[], { option: true }],
  pier: async ({ scenarioName, piArgs }, use) => {
    const args = ["--demo", "--demo-scenario", scenario(scenarioName)];
    if (piArgs.length > 0) args.push("--", ...piArgs);
    const pier = await startPier(args);
    try {
      await use(pier);
    } finally {
      await pier.stop();
    }
  },
});

export { expect } from "@playwright/test";
