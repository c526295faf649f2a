// Whether the Sessions panel is open, for each live session: all the first
// screen needs of the sessions (the header's Sessions button, the first
// screen's "Earlier sessions" card). The store behind the panel, with its list,
// tree and actions (sessions-store.svelte.ts), is loaded with the panel, or
// with a first "Fork from here" (bench/first-load.bench.ts).
import { PerSession } from "../session-scope.svelte.ts";

export class SessionsPanelState {
  open = $state(false);
}

/** Each live session's panel state (session-scope.svelte.ts); `sessionsPanel` is the shown one's. */
export const sessionsPanels = new PerSession(
  () => new SessionsPanelState(),
  (shown) => (sessionsPanel = shown),
);
export let sessionsPanel = sessionsPanels.shown;
