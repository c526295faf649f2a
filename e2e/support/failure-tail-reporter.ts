// Repeats each failed test's report (support/failure-report.ts) at the end
// of the run, just before the list reporter's summary of failures. CI keeps
// only the end of a long run's output, and the report printed beside the
// test, 20 minutes earlier, was cut from it: the failure's message came
// without the page and pier's log that would have said why.
import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";
import { FAILURE_REPORT_ATTACHMENT } from "./failure-report.ts";

export default class FailureTailReporter implements Reporter {
  readonly #reports: string[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    const report = result.attachments.find((attachment) => attachment.name === FAILURE_REPORT_ATTACHMENT)?.body;
    if (report !== undefined) this.#reports.push(`=== ${test.titlePath().filter(Boolean).join(" › ")}\n${report.toString("utf8")}`);
  }

  onEnd(): void {
    if (this.#reports.length === 0) return;
    console.log(`\nWhat the page and pier showed when each of the ${this.#reports.length} failed test(s) failed:\n`);
    for (const report of this.#reports) console.log(report + "\n");
  }

  printsToStdio(): boolean {
    return true;
  }
}
