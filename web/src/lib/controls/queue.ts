// Putting cleared queue texts back into the prompt box, as pi's TUI does on Esc.

/**
 * The draft after `clear_queue` returned `cleared`: queued texts first (steering,
 * then follow-ups, in queue order), then whatever was being typed, separated
 * by blank lines. Empty parts are dropped.
 */
export function restoreQueuedText(draft: string, cleared: { steering?: readonly string[]; followUp?: readonly string[] } | null | undefined): string {
  const parts = [...(cleared?.steering ?? []), ...(cleared?.followUp ?? []), draft].filter((t) => t.trim() !== "");
  return parts.join("\n\n");
}
