// Playwright fixture: a real `pier --demo` (real relay, real pi, the scripted
// model playing one of e2e/scenarios/) per test.
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { test as base } from "@playwright/test";
import { startPier, type RunningPier } from "../../relay/test/support/pier-process.ts";
import { PINNED_PI_VERSION, piArgsForVersion } from "../../relay/test/support/pi-under-test.ts";
import { FAILURE_REPORT_ATTACHMENT, failureReport, screenshotPages } from "./failure-report.ts";
import { writeLongSession } from "./long-session.ts";

export function scenario(name: string): string {
  return fileURLToPath(new URL(`../scenarios/${name}.json`, import.meta.url));
}

/** Absolute path of a test extension in e2e/extensions/. */
export function extension(name: string): string {
  return fileURLToPath(new URL(`../extensions/${name}`, import.meta.url));
}

/** The `piArgs` option of a spec on a long session: pi opens a generated session of `messages` messages, deleted after the test. */
export function longSessionPiArgs(messages: number) {
  // Playwright reads a fixture's first parameter from its source: it must be a destructuring pattern.
  return async ({}, use: (args: string[]) => Promise<void>) => {
    const session = await writeLongSession(messages);
    try {
      await use(["--session", session.file]);
    } finally {
      await rm(session.dir, { recursive: true, force: true });
    }
  };
}

/** What a spec or a Playwright project may set (test.use, project.use). */
export type PierOptions = { scenarioName: string; piVersion: string; piArgs: string[] };

type WorkerFixtures = {
  /** The pier this worker's last test left stopping (see the pier fixture's teardown). */
  stoppingPier: { last: Promise<unknown> };
};

type PierFixtures = {
  /** Closes every browser context a test opened itself (a second browser), see below. */
  closeExtraContexts: void;
  scenarioName: string;
  /** Which installed pi runs (the Playwright project sets it; default: the pinned pi). */
  piVersion: string;
  /** Extra arguments for pi (after pier's `--`), e.g. `["-e", extension("ui-probe.ts")]`. */
  piArgs: string[];
  pier: RunningPier;
};

export const test = base.extend<PierFixtures, WorkerFixtures>({
  stoppingPier: [
    async ({}, use) => {
      const stopping = { last: Promise.resolve() as Promise<unknown> };
      await use(stopping);
      // Nothing is left running when the worker ends.
      await stopping.last;
    },
    { scope: "worker" },
  ],
  // A context a test opens with browser.newContext() (a viewer, a second
  // driver) is not closed by Playwright: its page went on reconnecting to a
  // pier long gone, using CPU in every test after it. Set up first, so torn
  // down last, after the test's own context and its failure screenshot.
  closeExtraContexts: [
    async ({ browser }, use) => {
      await use();
      await Promise.all(browser.contexts().map((context) => context.close()));
    },
    { auto: true },
  ],
  scenarioName: ["hello", { option: true }],
  piVersion: [PINNED_PI_VERSION, { option: true }],
  piArgs: [[], { option: true }],
  pier: async ({ scenarioName, piVersion, piArgs, browser, stoppingPier }, use, testInfo) => {
    const args = ["--demo", "--demo-scenario", scenario(scenarioName), ...piArgsForVersion(piVersion)];
    if (piArgs.length > 0) args.push("--", ...piArgs);
    const pier = await startPier(args);
    try {
      await use(pier);
      // The pages are still open here (set up before pier, so torn down after it).
      if (testInfo.status !== testInfo.expectedStatus) {
        const report = (await failureReport(browser, [...pier.stdout, ...pier.stderr])).join("\n");
        await testInfo.attach(FAILURE_REPORT_ATTACHMENT, { body: report, contentType: "text/plain" });
        await screenshotPages(browser, testInfo);
      }
    } finally {
      // pi's orderly shutdown takes 0.3-0.9 s, most of it waiting on pi: the
      // next test starts meanwhile instead of waiting for it. At most one
      // pier is left stopping: the one before must be gone first, and the
      // worker waits for the last.
      await stoppingPier.last;
      stoppingPier.last = pier.stop();
    }
  },
});

/**
 * For a test of the page alone, where pi only answers as any pi would (typing,
 * a panel's own state, a fault of the page's own): the pi-1.6.0 project skips
 * it, it would prove nothing more about pi 1.6.
 */
export const UI_ONLY = { tag: "@ui-only" };

export { expect } from "@playwright/test";
