// Commands this browser sent, matched with pi's answers by id in any order.
// pi answers most commands at once; a few legitimately take long (`prompt`
// of an extension command waits for its dialogs, `compact` and `bash` run as
// long as the work does) and are only marked overdue, never timed out.

import { MAX_FAILURES, type SessionState } from "./session-state.ts";
import { appendBounded, replacedList } from "./replaced-lists.ts";

/** Commands whose answer may take arbitrarily long: "waiting", never "timed out". */
export const SLOW_COMMANDS: ReadonlySet<string> = new Set(["prompt", "compact", "bash"]);

/** Remember a command this browser sent so its response can be matched by id. */
export function noteCommandSent(state: SessionState, id: string, type: string, now = Date.now(), command?: Readonly<Record<string, unknown>>): void {
  state.pending[id] = { type, sentAt: now };
  if (type === "bash" && command !== undefined) {
    const pending = state.pending[id]!;
    if (typeof command["command"] === "string") pending.bashCommand = command["command"];
    if (command["excludeFromContext"] === true) pending.excludeFromContext = true;
  }
}

/**
 * Moves commands unanswered for longer than `timeoutMs` to `timedOut` (slow
 * commands are only marked `overdue`). The connection calls it periodically.
 * Returns how many were moved.
 */
export function expirePending(state: SessionState, now: number, timeoutMs: number): number {
  let moved = 0;
  for (const id of Object.keys(state.pending)) {
    const pending = state.pending[id]!;
    if (now - pending.sentAt < timeoutMs) continue;
    if (SLOW_COMMANDS.has(pending.type)) {
      if (!pending.overdue) state.pending[id]!.overdue = true;
      continue;
    }
    delete state.pending[id];
    state.timedOut = appendBounded(state.timedOut, { id, type: pending.type, sentAt: pending.sentAt, expiredAt: now }, MAX_FAILURES);
    moved++;
  }
  return moved;
}

export interface AnsweredCommand {
  /** Sent by this browser (pending or already timed out). */
  mine: boolean;
  type: string | null;
  bashCommand?: string;
  excludeFromContext?: boolean;
}

/** Settles the pending (or timed-out) command an answer belongs to. */
export function takeAnswered(state: SessionState, id: string | null): AnsweredCommand {
  if (id === null) return { mine: false, type: null };
  const pending = state.pending[id];
  if (pending !== undefined) {
    delete state.pending[id];
    return { mine: true, type: pending.type, bashCommand: pending.bashCommand, excludeFromContext: pending.excludeFromContext };
  }
  const late = state.timedOut.find((t) => t.id === id);
  if (late !== undefined) {
    state.timedOut = replacedList(state.timedOut.filter((t) => t !== late));
    return { mine: true, type: late.type };
  }
  return { mine: false, type: null };
}
