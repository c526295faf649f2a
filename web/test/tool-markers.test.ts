// The words the transcript uses for retries and compactions.
import { describe, expect, test } from "vitest";
import { countdown, formatDelay, markerWords } from "../src/components/transcript/marker-text.ts";
import type { TranscriptMarker } from "../src/lib/pi-state/session-state.ts";

const base = { seq: 1, beforeIndex: 0, at: 0 };

describe("retry markers", () => {
  const retry: TranscriptMarker = { ...base, kind: "retry", attempt: 1, maxAttempts: 3, delayMs: 3000, errorMessage: "529 overloaded", failedMessage: null };

  test("a live retry counts down", () => {
    const words = markerWords(retry, true);
    expect(words.text.replace("{countdown}", countdown(2400))).toBe("Retrying in 3 s (attempt 1 of 3)");
    expect(words.detail).toBe("529 overloaded");
    expect(words.tone).toBe("warn");
  });

  test("a past retry speaks in the past tense", () => {
    expect(markerWords(retry, false).text).toBe("The model call failed; retried after 3 s (attempt 1 of 3)");
  });

  test("the end of retrying", () => {
    expect(markerWords({ ...base, kind: "retryEnd", attempt: 2, success: true, finalError: null }, false).text).toBe("The retry worked (attempt 2).");
    expect(markerWords({ ...base, kind: "retryEnd", attempt: 3, success: false, finalError: "503" }, false)).toMatchObject({
      tone: "error",
      text: "Gave up after 3 attempts",
      detail: "503",
    });
  });
});

describe("compaction markers", () => {
  const compaction = {
    ...base,
    kind: "compaction" as const,
    reason: "threshold" as const,
    outcome: "done" as const,
    errorMessage: null,
    willRetry: false,
    tokensBefore: 120_500,
    estimatedTokensAfter: 8_200,
  };

  test("done: why, and how much smaller", () => {
    expect(markerWords(compaction, false).text).toBe("Conversation compacted automatically, near the context limit — 120.5k → about 8.2k tokens.");
    expect(markerWords({ ...compaction, reason: "overflow", willRetry: true, estimatedTokensAfter: null }, false).text).toBe(
      "Conversation compacted because the context overflowed — 120.5k tokens before. pi will now retry your prompt.",
    );
  });

  test("cancelled and failed", () => {
    expect(markerWords({ ...compaction, outcome: "aborted" }, false).text).toBe("Compaction was cancelled; the conversation is unchanged.");
    expect(markerWords({ ...compaction, reason: "manual", outcome: "failed", errorMessage: "Compaction failed: Nothing to compact (session too small)" }, false)).toMatchObject({
      tone: "error",
      text: "Compaction failed (on request)",
      detail: "Nothing to compact (session too small)",
    });
  });
});

describe("durations", () => {
  test.each([
    [3000, "3 s"],
    [1500, "1.5 s"],
    [250, "0.3 s"],
    [60_000, "1 min"],
    [125_000, "2 min 5 s"],
    [0, "0 s"],
  ])("formatDelay(%i) = %s", (ms, text) => {
    expect(formatDelay(ms)).toBe(text);
  });

  test("countdown rounds up and never goes negative", () => {
    expect(countdown(2001)).toBe("3 s");
    expect(countdown(-50)).toBe("0 s");
  });
});
