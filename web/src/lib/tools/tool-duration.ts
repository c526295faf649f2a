// How long a tool call took, for its card: pi's measure when pi gave one
// (pi ≥ 1.1, on tool_execution_end and on the toolResult message, so it
// survives a reload), else what this page timed while watching it run live.

import type { ToolResultMessage } from "../pi-types.ts";
import type { ToolExecution } from "../pi-state/session-state.ts";
import { toolDurationMs } from "../pi-state/tool-executions.ts";

/** Milliseconds, or null when unknown (still running, replayed history without pi's figure, pi 0.87.1 after a reload). */
export function callDurationMs(execution: ToolExecution | undefined, resultMessage: ToolResultMessage | undefined): number | null {
  if (execution?.durationMs != null) return execution.durationMs;
  if (typeof resultMessage?.durationMs === "number") return resultMessage.durationMs;
  return execution ? toolDurationMs(execution) : null;
}
