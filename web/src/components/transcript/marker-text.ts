// Words for the transcript's markers (retries, compactions) and summary
// messages. Pure, so what a person reads is tested without a browser.

import { formatTokens } from "../../lib/format.ts";
import type { TranscriptMarker } from "../../lib/pi-state/session-state.ts";

/** "3 s", "1.5 s", "2 min 5 s". Rounds up: a countdown never shows 0 while waiting. */
export function formatDelay(ms: number): string {
  if (ms <= 0) return "0 s";
  if (ms < 10_000 && ms % 1000 !== 0) {
    const tenths = Math.ceil(ms / 100) / 10;
    return `${Number.isInteger(tenths) ? tenths : tenths.toFixed(1)} s`;
  }
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** Whole-second countdown text for a live wait. */
export function countdown(remainingMs: number): string {
  return `${Math.max(0, Math.ceil(remainingMs / 1000))} s`;
}

const REASONS: Record<string, string> = {
  manual: "on request",
  threshold: "automatically, near the context limit",
  overflow: "because the context overflowed",
};

export function compactionReason(reason: string | null | undefined): string {
  return (reason && REASONS[reason]) || "";
}

export function tokensBeforeText(tokensBefore: number | null | undefined): string {
  return typeof tokensBefore === "number" && tokensBefore > 0 ? `${formatTokens(tokensBefore)} tokens before` : "";
}

export type Tone = "info" | "warn" | "error" | "ok";

export interface MarkerWords {
  tone: Tone;
  /** The main sentence. For a live retry, `{countdown}` is replaced by the remaining time. */
  text: string;
  /** The error as pi reported it, shown after the sentence (which then has no final period). */
  detail: string | null;
}

/**
 * What a marker says. `live` is true for the retry pi is waiting on right now
 * (the sentence then carries a `{countdown}` placeholder).
 */
export function markerWords(marker: TranscriptMarker, live: boolean): MarkerWords {
  switch (marker.kind) {
    case "retry":
      return {
        tone: "warn",
        text: live
          ? `Retrying in {countdown} (attempt ${marker.attempt} of ${marker.maxAttempts})`
          : `The model call failed; retried after ${formatDelay(marker.delayMs)} (attempt ${marker.attempt} of ${marker.maxAttempts})`,
        detail: marker.errorMessage || null,
      };
    case "retryEnd":
      return marker.success
        ? { tone: "ok", text: `The retry worked (attempt ${marker.attempt}).`, detail: null }
        : {
            tone: "error",
            text: `Gave up after ${marker.attempt} attempt${marker.attempt === 1 ? "" : "s"}`,
            detail: marker.finalError,
          };
    case "compaction": {
      const why = compactionReason(marker.reason);
      if (marker.outcome === "aborted") return { tone: "info", text: "Compaction was cancelled; the conversation is unchanged.", detail: null };
      if (marker.outcome === "failed") {
        // pi's message often repeats "Compaction failed: " itself.
        const detail = marker.errorMessage?.replace(/^Compaction failed:\s*/i, "") || null;
        return { tone: "error", text: `Compaction failed${why ? ` (${why})` : ""}`, detail };
      }
      const before = typeof marker.tokensBefore === "number" ? formatTokens(marker.tokensBefore) : null;
      const after = typeof marker.estimatedTokensAfter === "number" ? formatTokens(marker.estimatedTokensAfter) : null;
      const size = before && after ? ` — ${before} → about ${after} tokens` : before ? ` — ${before} tokens before` : "";
      const retry = marker.willRetry ? " pi will now retry your prompt." : "";
      return { tone: "info", text: `Conversation compacted${why ? ` ${why}` : ""}${size}.${retry}`, detail: null };
    }
    case "room":
      return { tone: "info", text: marker.text, detail: null };
    case "customEntry":
      return { tone: "info", text: `Extension entry · ${marker.customType}`, detail: null };
    case "summarizationRetry":
      return {
        tone: "warn",
        text: live
          ? `Summarising failed; retrying in {countdown} (attempt ${marker.attempt} of ${marker.maxAttempts})`
          : `Summarising failed; retried after ${formatDelay(marker.delayMs)} (attempt ${marker.attempt} of ${marker.maxAttempts})`,
        detail: marker.errorMessage || null,
      };
  }
}
