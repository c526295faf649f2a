// Run lifecycle, retries and compaction: the events around the messages.
// Each leaves a marker positioned relative to `messages` where the UI should
// show that it happened.

import type { AssistantMessage, PiEvent } from "../pi-types.ts";
import { MAX_MARKERS, type InputDisposition, type SessionState, type TranscriptMarker } from "./session-state.ts";
import { appendBounded } from "./replaced-lists.ts";

type EventOf<T extends PiEvent["type"]> = Extract<PiEvent, { type: T }>;
type DistributiveOmit<T, K extends keyof never> = T extends unknown ? Omit<T, K> : never;

export function addMarker(state: SessionState, marker: DistributiveOmit<TranscriptMarker, "seq" | "beforeIndex">): void {
  state.markers = appendBounded(state.markers, { ...marker, seq: state.nextMarkerSeq++, beforeIndex: state.messages.length } as TranscriptMarker, MAX_MARKERS);
}

export function onAgentStart(state: SessionState, now: number): void {
  if (state.status === "idle") state.run.startedAt = now;
  state.status = "streaming";
  state.run.agentRunning = true;
  state.run.agentRuns++;
  if (state.retry !== null) state.retry.phase = "retrying";
}

export function onAgentEnd(state: SessionState, event: EventOf<"agent_end">): void {
  // Not the end: retries, compaction recovery and queued follow-ups can continue.
  state.run.agentRunning = false;
  state.run.lastEndWillRetry = Boolean(event.willRetry);
  state.turn = null;
}

export function onAgentSettled(state: SessionState, event: EventOf<"agent_settled">, now: number): void {
  state.status = "idle";
  state.run.agentRunning = false;
  state.run.settledCount++;
  // pi ≥ 1.1 says whether the run was aborted; 0.87.1 does not (unknown, not false).
  state.run.lastSettledAborted = typeof event.aborted === "boolean" ? event.aborted : null;
  state.turn = null;
  // A cancelled retry (abort_retry) ends with auto_retry_end{success:false}
  // and agent_settled, with no agent_start/agent_end around it.
  state.retry = null;
  state.summarizationRetry = null;
  finishOrphanedTools(state, now);
}

export function onTurnStart(state: SessionState, now: number): void {
  state.turn = { index: state.run.turns++, startedAt: now };
}

export function onTurnEnd(state: SessionState): void {
  state.turn = null;
}

/** A run that settled cannot still be executing tools (e.g. aborted before tool_execution_end). */
function finishOrphanedTools(state: SessionState, now: number): void {
  for (const id in state.runningTools) {
    const tool = state.tools[id];
    if (tool?.status === "running") {
      tool.status = "failed";
      tool.endedAt = now;
      // The settle is not when the tool stopped: no duration to show.
      tool.timedLive = false;
    }
  }
  state.runningTools = {};
}

const DISPOSITIONS: ReadonlySet<string> = new Set(["started", "queued", "handled"]);

/**
 * pi ≥ 0.99 answers prompt, steer and follow_up with what became of the
 * input. "handled" means an extension consumed it: no run starts for it and
 * nothing queues, so nothing may wait for one. 0.87.1 sends no data: the
 * last disposition stays as it was (unknown).
 */
export function onInputAnswered(state: SessionState, command: InputDisposition["command"], id: string | null, data: Record<string, unknown> | null | undefined, mine: boolean, now: number): void {
  const disposition = data?.["disposition"];
  if (typeof disposition !== "string" || !DISPOSITIONS.has(disposition)) return;
  state.run.lastDisposition = { command, id, disposition: disposition as InputDisposition["disposition"], mine, at: now };
}

export function onAutoRetryStart(state: SessionState, event: EventOf<"auto_retry_start">, now: number): void {
  // pi drops the failed assistant message from the context before retrying
  // (an entry_appended context_edit with replacement null follows): so does
  // the transcript, and the marker keeps it for the UI.
  let failedMessage: AssistantMessage | null = null;
  const last = state.messages.at(-1);
  if (state.stream === null && last?.role === "assistant" && last.stopReason === "error") {
    failedMessage = last;
    state.messages.pop();
  }
  state.retry = {
    attempt: event.attempt,
    maxAttempts: event.maxAttempts,
    delayMs: event.delayMs,
    errorMessage: event.errorMessage,
    at: now,
    phase: "waiting",
  };
  addMarker(state, {
    kind: "retry",
    at: now,
    attempt: event.attempt,
    maxAttempts: event.maxAttempts,
    delayMs: event.delayMs,
    errorMessage: event.errorMessage,
    failedMessage,
  });
}

export function onAutoRetryEnd(state: SessionState, event: EventOf<"auto_retry_end">, now: number): void {
  state.retry = null;
  addMarker(state, {
    kind: "retryEnd",
    at: now,
    attempt: event.attempt,
    success: Boolean(event.success),
    finalError: event.finalError ?? null,
  });
}

export function onCompactionStart(state: SessionState, event: EventOf<"compaction_start">, now: number): void {
  state.isCompacting = true;
  state.compaction.active = true;
  state.compaction.reason = event.reason;
  state.compaction.startedAt = now;
  state.compaction.endedAt = null;
  state.compaction.outcome = null;
  state.compaction.errorMessage = null;
  state.compaction.willRetry = false;
}

export function onCompactionEnd(state: SessionState, event: EventOf<"compaction_end">, now: number): void {
  const result = event.result;
  const outcome = result ? "done" : event.aborted ? "aborted" : "failed";
  const errorMessage = outcome === "failed" ? (event.errorMessage ?? "compaction failed") : null;
  state.isCompacting = false;
  state.compaction = {
    active: false,
    reason: event.reason,
    startedAt: state.compaction.startedAt,
    endedAt: now,
    outcome,
    errorMessage,
    willRetry: Boolean(event.willRetry),
    summary: result?.summary ?? null,
    tokensBefore: result?.tokensBefore ?? null,
    estimatedTokensAfter: result?.estimatedTokensAfter ?? null,
  };
  addMarker(state, {
    kind: "compaction",
    at: now,
    reason: event.reason,
    outcome,
    errorMessage,
    willRetry: Boolean(event.willRetry),
    tokensBefore: result?.tokensBefore ?? null,
    estimatedTokensAfter: result?.estimatedTokensAfter ?? null,
  });
  // pi's context now starts with a compactionSummary and the kept messages
  // (from result.firstKeptEntryId, an entry id the stream never maps to a
  // message): only get_messages says which ones.
  if (result) state.needsMessages = true;
}

export function onSummarizationRetryScheduled(state: SessionState, event: EventOf<"summarization_retry_scheduled">, now: number): void {
  state.summarizationRetry = {
    attempt: event.attempt,
    maxAttempts: event.maxAttempts,
    delayMs: event.delayMs,
    errorMessage: event.errorMessage,
    at: now,
    source: null,
    reason: null,
    attemptStartedAt: null,
  };
  addMarker(state, {
    kind: "summarizationRetry",
    at: now,
    attempt: event.attempt,
    maxAttempts: event.maxAttempts,
    delayMs: event.delayMs,
    errorMessage: event.errorMessage,
  });
}

export function onSummarizationRetryAttemptStart(state: SessionState, event: EventOf<"summarization_retry_attempt_start">, now: number): void {
  const reason = event.source === "compaction" ? event.reason : null;
  if (state.summarizationRetry === null) {
    state.summarizationRetry = {
      attempt: 0,
      maxAttempts: 0,
      delayMs: 0,
      errorMessage: "",
      at: now,
      source: event.source,
      reason,
      attemptStartedAt: now,
    };
    return;
  }
  state.summarizationRetry.source = event.source;
  state.summarizationRetry.reason = reason;
  state.summarizationRetry.attemptStartedAt = now;
}
