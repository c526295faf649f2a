// Where in the transcript's rows a link target is: a message's row, the row
// of the answer that holds a tool call (a tool result has no row of its own:
// its call's card shows it), a marker's row. Pure and O(rows) (asked once per
// click, never while streaming).

import type { ConversationMessage } from "../pi-types.ts";
import type { LinkTarget } from "./transcript-targets.ts";
import { isMessageRow, type TranscriptRow } from "./transcript-rows.ts";

/** The message holding tool call `toolCallId`, searched from the newest. */
function messageOfToolCall(messages: readonly ConversationMessage[], toolCallId: string): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "assistant" && message.content.some((block) => block.type === "toolCall" && block.id === toolCallId)) return i;
  }
  return -1;
}

/**
 * The target as the transcript shows it: a tool result becomes its call's
 * card; a tool call becomes its answer's row when its card is not there.
 */
export function shownTarget(target: LinkTarget, messages: readonly ConversationMessage[]): LinkTarget {
  if (target.kind !== "message") return target;
  const message = messages[target.index];
  return message?.role === "toolResult" ? { kind: "tool", toolCallId: message.toolCallId } : target;
}

/** Index of the row that shows `target`, or -1. */
export function rowOfTarget(rows: readonly TranscriptRow[], messages: readonly ConversationMessage[], target: LinkTarget): number {
  const shown = shownTarget(target, messages);
  let index: number;
  switch (shown.kind) {
    case "marker":
      return rows.findIndex((row) => !isMessageRow(row) && row.kind === "marker" && row.marker.seq === shown.seq);
    case "tool":
      index = messageOfToolCall(messages, shown.toolCallId);
      break;
    case "message":
      index = shown.index;
  }
  if (index === -1) return -1;
  return rows.indexOf(index);
}
