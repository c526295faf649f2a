// What a failed e2e test leaves in the run's own output: CI keeps only that,
// not test-results/ (screenshots, error-context.md). For every page still
// open: its address, its last console messages and page errors, what its
// alerts say, and the top of its accessibility tree; then the tail of pier's
// own log. It is attached to the test (FAILURE_REPORT_ATTACHMENT) and
// printed at the end of the run (failure-tail-reporter.ts), where CI's
// excerpt of a long log still has it.
import type { Browser, Page, TestInfo } from "@playwright/test";

// Small enough that the end of a CI log holds a report and the summary after it.
const CONSOLE_LINES = 15;
const SNAPSHOT_CHARS = 2000;
const PIER_LOG_LINES = 20;

/** The attachment holding the report ("_": Playwright's summary leaves it to failure-tail-reporter.ts). */
export const FAILURE_REPORT_ATTACHMENT = "_pier failure report";

async function describePage(page: Page, label: string): Promise<string[]> {
  const lines = [`--- ${label}: ${page.url()}`];
  try {
    const messages = await page.consoleMessages();
    for (const message of messages.slice(-CONSOLE_LINES)) lines.push(`console.${message.type()}: ${message.text()}`);
    for (const error of await page.pageErrors()) lines.push(`page error: ${error.stack ?? error.message}`);
    // An alert deep in the page (a list's "failed: …") is past the snapshot's first characters.
    const alerts = (await page.getByRole("alert").allInnerTexts()).map((text) => text.trim()).filter(Boolean);
    if (alerts.length > 0) lines.push(`alerts: ${alerts.map((text) => JSON.stringify(text)).join(", ")}`);
    const snapshot = await page.ariaSnapshot({ timeout: 2000 });
    lines.push(snapshot.length > SNAPSHOT_CHARS ? `${snapshot.slice(0, SNAPSHOT_CHARS)}\n…` : snapshot);
  } catch (error) {
    lines.push(`(could not read the page: ${error instanceof Error ? error.message : String(error)})`);
  }
  return lines;
}

/** The report of a failed test, as lines: every open page, then pier's log tail. */
export async function failureReport(browser: Browser, pierLog: string[]): Promise<string[]> {
  const lines: string[] = [];
  let contextIndex = 0;
  for (const context of browser.contexts()) {
    contextIndex++;
    let pageIndex = 0;
    for (const page of context.pages()) lines.push(...(await describePage(page, `browser ${contextIndex} page ${++pageIndex}`)));
  }
  lines.push(`--- pier's log (last ${PIER_LOG_LINES} lines)`, ...pierLog.slice(-PIER_LOG_LINES));
  return lines;
}

/** Every open page's screenshot, attached to the failed test (test-results/, for a local run). */
export async function screenshotPages(browser: Browser, testInfo: TestInfo): Promise<void> {
  let index = 0;
  for (const context of browser.contexts()) {
    for (const page of context.pages()) {
      const name = `screenshot ${++index}`;
      try {
        await testInfo.attach(name, { body: await page.screenshot({ timeout: 5000 }), contentType: "image/png" });
      } catch {
        // A page that cannot be shot (closed, hung) is described in the report above.
      }
    }
  }
}
