// What every tool body receives from ToolCallCard: one normalised view of a
// call, whether its result came from tool_execution_* events (live) or from
// the toolResult message (history, reloads).

import type { ImageContent, TextContent } from "../pi-types.ts";

export type CardState = "writing" | "queued" | "running" | "done" | "failed" | "cancelled";

export interface ToolView {
  name: string;
  /** Parsed arguments (validated ones once execution started); {} while unknown. */
  args: unknown;
  /** Raw argument JSON while the model is still writing the call. */
  argsText: string | undefined;
  /** Latest result content: the final one, else the cumulative partial one. */
  content: (TextContent | ImageContent)[];
  details: unknown;
  state: CardState;
  /** A final result is in (done or failed). */
  finished: boolean;
  failed: boolean;
}
