// App-wide singletons: the relay connection and view preferences. Components
// import these instead of receiving the connection through every prop.

import { loadInspectorOpen, saveInspectorOpen } from "./inspector/inspector-prefs.ts";
import { RelayConnection } from "./relay/relay-connection.svelte.ts";
import { PerSession } from "./session-scope.svelte.ts";

/** Each live session's relay connection: `/live/<id>` ones under that prefix, "" the browser's default session. */
export const connections = new PerSession(
  (base) => new RelayConnection({ prefix: base }),
  (shown) => (connection = shown),
  { dispose: (dropped) => dropped.close() },
);

/** The shown session's connection (session-scope.svelte.ts moves it on a switch). */
export let connection = connections.shown;

export const view = $state({
  /**
   * The protocol inspector side panel. Closed until the person opens it;
   * then it stays as they leave it, across reloads (setInspectorOpen).
   */
  logOpen: loadInspectorOpen(),
});

/** Open or close the inspector because the person asked to: remembered for the next visit. */
export function setInspectorOpen(open: boolean): void {
  view.logOpen = open;
  saveInspectorOpen(open);
}

/** Text some part of the app wants in the prompt box (e.g. a forked message); `seq` says "again". */
export const promptFill = $state({ text: "", seq: 0 });

export function fillPrompt(text: string): void {
  promptFill.text = text;
  promptFill.seq++;
}
