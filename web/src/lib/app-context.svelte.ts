// App-wide singletons: the relay connection and view preferences. Components
// import these instead of receiving the connection through every prop.

import { loadInspectorOpen, saveInspectorOpen } from "./inspector/inspector-prefs.ts";
import { liveBase } from "./live-base.ts";
import { RelayConnection } from "./relay/relay-connection.svelte.ts";

/** This page's live session: `/live/<id>/` pages reach theirs under that prefix, others the browser's default session. */
export const connection = new RelayConnection({ prefix: liveBase() });

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
