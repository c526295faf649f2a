// A board card for tests, with every field a real one has.
import type { LiveCard } from "@pier/protocol";

export function card(fields: Partial<LiveCard> & { id: string }): LiveCard {
  return {
    cwd: `/work/app-${fields.id}`,
    branch: null,
    primary: false,
    child: "running",
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
    worktree: null,
    ...fields,
  };
}
