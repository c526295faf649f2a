// Starting pier as a script would: one URL line on stdout, and a clear failure
// (with pier's own explanation) when it cannot start.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPier, type RunningPier } from "../support/pier-process.ts";

describe("pier start-up", () => {
  let pier: RunningPier;
  beforeAll(async () => {
    pier = await startPier(["--demo"]);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it("prints exactly one line on stdout: the loopback URL with a 256-bit token", () => {
    expect(pier.stdout.filter((line) => line !== "")).toEqual([pier.url]);
    expect(pier.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    // The secret goes to stdout only, never to the log.
    expect(pier.stderr.join("\n")).not.toContain(pier.token);
  });

  it("reports a bad option with pier's usage text instead of hanging", async () => {
    const failure = startPier(["--no-such-option"], { startTimeoutMs: 10_000 });
    await expect(failure).rejects.toThrow(/exited \(code 2[\s\S]*no-such-option[\s\S]*Usage: pier/);
  });
});
