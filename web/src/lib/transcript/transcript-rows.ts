// The conversation as a flat list of rows for the virtualized transcript:
// the system prompt disclosure, the compacted history (if any), then each
// visible message with the markers
// (retries, compactions) that precede it, then the markers after the last
// message. Tool results are not rows: their assistant message's tool card
// shows them, and hidden custom messages render nothing. A finished run that
// changed files ends with its "Changed N files" row (run-changes.ts).
import type { ConversationMessage, SystemMessage } from "../pi-types.ts";
import type { TranscriptMarker } from "../pi-state/session-state.ts";
import type { RunChanges } from "./run-changes.ts";

export type TranscriptRow =
  | { kind: "system"; message: SystemMessage }
  /** Messages a compaction took out of the model's context (from pi's entries), collapsed. */
  | { kind: "history"; messages: readonly ConversationMessage[] }
  | { kind: "marker"; marker: TranscriptMarker }
  /** The files a finished run wrote or edited, after its last message. */
  | { kind: "runChanges"; run: RunChanges }
  /**
   * A message, by its index in the messages the rows were made from. A
   * number, not an object: a long session has thousands of message rows.
   */
  | number;

/** Whether the row is a message's (its index), not the system prompt, the history or a marker. */
export function isMessageRow(row: TranscriptRow): row is number {
  return typeof row === "number";
}

/**
 * A row's key. Keys are stable while the transcript only grows, so a row
 * keeps its measured height (and its component) when rows are appended.
 * Made when asked (the virtualizer asks only for the rows it renders): a
 * 5,000-message transcript does not carry 5,000 key strings.
 */
export function rowKey(row: TranscriptRow): string {
  if (isMessageRow(row)) return `message:${row}`;
  switch (row.kind) {
    case "system":
      return "system";
    case "history":
      return "history";
    case "marker":
      return `marker:${row.marker.seq}`;
    case "runChanges":
      return `run-changes:${row.run.start}`;
  }
}

/** The rows of the transcript, in order. */
export function transcriptRows(
  systemPrompt: SystemMessage | null,
  messages: readonly ConversationMessage[],
  markers: readonly TranscriptMarker[],
  history: readonly ConversationMessage[] = [],
  runs: readonly RunChanges[] = [],
): TranscriptRow[] {
  const rows: TranscriptRow[] = [];
  if (systemPrompt) rows.push({ kind: "system", message: systemPrompt });
  if (history.length > 0) rows.push({ kind: "history", messages: history });
  const end = messages.length;
  // Markers sorted by where they go (stable: same place keeps arrival order).
  const placed = markers.map((marker, order) => ({ marker, at: Math.max(0, Math.min(marker.beforeIndex, end)), order })).sort((a, b) => a.at - b.at || a.order - b.order);
  let next = 0;
  let nextRun = 0;
  for (let i = 0; i <= end; i++) {
    // A run's list closes the run: before the markers of what comes next.
    while (nextRun < runs.length && Math.min(runs[nextRun]!.end, end) === i) rows.push({ kind: "runChanges", run: runs[nextRun++]! });
    while (next < placed.length && placed[next]!.at === i) {
      const { marker } = placed[next++]!;
      rows.push({ kind: "marker", marker });
    }
    if (i === end) break;
    const message = messages[i]!;
    if (message.role === "toolResult") continue;
    if (message.role === "custom" && !message.display) continue;
    rows.push(i);
  }
  return rows;
}
