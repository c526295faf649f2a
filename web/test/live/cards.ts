// A board card for tests, with every field a real one has. The fields the
// relay adds as it grows (asleep, worktree) are given too, typed loosely so
// that this file compiles against the protocol with or without them.
import type { LiveCard } from "@pier/protocol";

export function card(fields: Partial<LiveCard> & { id: string }): LiveCard {
  const base: Record<string, unknown> = {
    cwd: `/work/app-${fields.id}`,
    branch: null,
    primary: false,
    child: "running",
    asleep: false,
    worktree: null,
    state: "idle",
    since: 1_000,
    tool: null,
    question: null,
    error: null,
    title: null,
    model: null,
    cost: 0,
    lastActivityAt: 1_000,
    stderrTail: [],
    browsers: 0,
    createdAt: 500,
  };
  return { ...base, ...fields } as unknown as LiveCard;
}
