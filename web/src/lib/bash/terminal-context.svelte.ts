// The app's one Terminal dock state, fed by the app's relay connection. Imported
// statically by the dock so it subscribes before the replay arrives.

import { connections } from "../app-context.svelte.ts";
import { PerSession } from "../session-scope.svelte.ts";
import { TerminalPanels } from "./terminal-panels.svelte.ts";

const perSession = new PerSession(
  (base) => new TerminalPanels(connections.of(base)),
  (shown) => (terminal = shown),
);
/** The shown session's panels (session-scope.svelte.ts). */
export let terminal = perSession.shown;
