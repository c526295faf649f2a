// Long code goes to a worker (highlight.ts). Where the worker cannot run (it
// fails to load, say a chunk the server no longer has), the page must still
// highlight the code itself, this time and every time after.
import { afterEach, describe, expect, test, vi } from "vitest";

const LONG = "const answer = 42; // a comment\n".repeat(1000);

/** A Worker that fails to load, as a browser reports it: an error event after the constructor returns. */
class FailingWorker {
  static made = 0;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  posted = 0;
  constructor() {
    FailingWorker.made++;
  }
  postMessage(): void {
    this.posted++;
    setTimeout(() => this.onerror?.(new Event("error")), 0);
  }
  terminate(): void {}
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
  FailingWorker.made = 0;
});

describe("highlightCode without a working worker", () => {
  test("long code is highlighted on the page instead, and the broken worker is not tried again", async () => {
    vi.stubGlobal("Worker", FailingWorker);
    const { highlightCode, WORKER_MIN_CHARS } = await import("../src/lib/highlight/highlight.ts");
    expect(LONG.length).toBeGreaterThanOrEqual(WORKER_MIN_CHARS);
    const first = await highlightCode(LONG, "javascript");
    expect(first).toContain('<span class="hljs-keyword">const</span>');
    expect(first).toContain('<span class="hljs-comment">// a comment</span>');
    expect(await highlightCode(LONG, "javascript")).toBe(first);
    expect(FailingWorker.made).toBe(1);
  });

  test("where there is no Worker at all, the page highlights it", async () => {
    vi.stubGlobal("Worker", undefined);
    const { highlightCode } = await import("../src/lib/highlight/highlight.ts");
    expect(await highlightCode(LONG, "javascript")).toContain('<span class="hljs-number">42</span>');
  });
});
