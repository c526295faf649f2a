// What waits in pi's queue (steering and follow-up messages) and the three
// things the page offers for it: edit (back into the prompt box), discard,
// and send now. All three start from `clear_queue`, which empties both queues
// and answers their texts (pi has no command to take one message out).
//
// What pi does with the queue (web/test/queue-after-abort.contract.test.ts,
// pi 0.87.1 and 1.6.0): `abort` keeps it, and nothing runs after the abort;
// the queued messages wait for the next prompt, whose run delivers the
// steering right after that prompt and the follow-ups when it ends. A steer or
// follow-up sent while pi is idle waits the same way.

/** The texts `clear_queue` answered. */
export interface ClearedQueue {
  steering?: readonly string[];
  followUp?: readonly string[];
}

/**
 * The draft after `clear_queue` returned `cleared`: queued texts first (steering,
 * then follow-ups, in queue order), then whatever was being typed, separated
 * by blank lines. Empty parts are dropped.
 */
export function restoreQueuedText(draft: string, cleared: ClearedQueue | null | undefined): string {
  const parts = [...(cleared?.steering ?? []), ...(cleared?.followUp ?? []), draft].filter((t) => t.trim() !== "");
  return parts.join("\n\n");
}

export type QueueCommand = { type: "prompt"; message: string } | { type: "steer"; message: string } | { type: "follow_up"; message: string };

/**
 * "Send now" while pi is idle, after `clear_queue` answered `cleared`: the
 * first waiting message becomes a prompt, so a run starts, and the others go
 * back into the queue first, each as what it was, so that run delivers them
 * as pi would have with any next prompt (steering after the prompt, follow-ups
 * when it ends). Re-queuing before the prompt, not after, leaves no race with
 * a run that ends quickly. Empty when nothing was queued.
 */
export function sendNowCommands(cleared: ClearedQueue): QueueCommand[] {
  const steering = [...(cleared.steering ?? [])];
  const followUp = [...(cleared.followUp ?? [])];
  const first = steering.shift() ?? followUp.shift();
  if (first === undefined) return [];
  return [...steering.map((message) => ({ type: "steer" as const, message })), ...followUp.map((message) => ({ type: "follow_up" as const, message })), { type: "prompt", message: first }];
}
