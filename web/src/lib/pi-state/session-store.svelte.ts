// The session state as the page holds it: a Svelte `$state` of what
// createSessionState() makes, whose fields the components read and the
// reducer writes. The connection (relay/relay-connection.svelte.ts) keeps
// the session in one of these, and the reducer bench
// (bench/reducer.bench.ts) reduces into one, compiled by the same Svelte
// plugin, so that what it measures is what the page runs.

import { createSessionState, type SessionState } from "./session-state.ts";

export function createSessionStore(): SessionState {
  const session = $state(createSessionState());
  return session;
}
