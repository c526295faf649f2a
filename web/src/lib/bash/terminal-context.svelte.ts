// The app's one Terminal dock state, fed by the app's relay connection. Imported
// statically by the dock so it subscribes before the replay arrives.

import { connection } from "../app-context.svelte.ts";
import { TerminalPanels } from "./terminal-panels.svelte.ts";

export const terminal = new TerminalPanels(connection);
