// The conversation as a flat list of rows for the virtualized transcript:
// the system prompt disclosure, the compacted history (if any), then each
// visible message with the markers
// (retries, compactions) that precede it, then the markers after the last
// message. Tool results are not rows: their assistant message's tool card
// shows them, and hidden custom messages render nothing.
import type { ConversationMessage, SystemMessage } from "../pi-types.ts";
import type { TranscriptMarker } from "../session/session-state.ts";

export type TranscriptRow =
  | { kind: "system"; key: string; message: SystemMessage }
  /** Messages a compaction took out of the model's context (from pi's entries), collapsed. */
  | { kind: "history"; key: string; messages: readonly ConversationMessage[] }
  | { kind: "marker"; key: string; marker: TranscriptMarker }
  | { kind: "message"; key: string; message: ConversationMessage; index: number };

/**
 * Keys are stable while the transcript only grows, so a row keeps its
 * measured height (and its component) when rows are appended.
 */
export function transcriptRows(
  systemPrompt: SystemMessage | null,
  messages: readonly ConversationMessage[],
  markers: readonly TranscriptMarker[],
  history: readonly ConversationMessage[] = [],
): TranscriptRow[] {
  const rows: TranscriptRow[] = [];
  if (systemPrompt) rows.push({ kind: "system", key: "system", message: systemPrompt });
  if (history.length > 0) rows.push({ kind: "history", key: "history", messages: history });
  const end = messages.length;
  // Markers sorted by where they go (stable: same place keeps arrival order).
  const placed = markers
    .map((marker, order) => ({ marker, at: Math.max(0, Math.min(marker.beforeIndex, end)), order }))
    .sort((a, b) => a.at - b.at || a.order - b.order);
  let next = 0;
  for (let i = 0; i <= end; i++) {
    while (next < placed.length && placed[next]!.at === i) {
      const { marker } = placed[next++]!;
      rows.push({ kind: "marker", key: `marker:${marker.seq}`, marker });
    }
    if (i === end) break;
    const message = messages[i]!;
    if (message.role === "toolResult") continue;
    if (message.role === "custom" && !message.display) continue;
    rows.push({ kind: "message", key: `message:${i}`, message, index: i });
  }
  return rows;
}
