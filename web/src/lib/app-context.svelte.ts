// App-wide singletons: the relay connection and view preferences. Components
// import these instead of receiving the connection through every prop.

import { RelayConnection } from "./relay/relay-connection.svelte.ts";

export const connection = new RelayConnection();

const wide = typeof matchMedia === "function" ? matchMedia("(min-width: 1100px)").matches : true;

export const view = $state({
  /** Protocol log side panel. Open by default on wide screens. */
  logOpen: wide,
});

/** Text some part of the app wants in the prompt box (e.g. a forked message); `seq` says "again". */
export const promptFill = $state({ text: "", seq: 0 });

export function fillPrompt(text: string): void {
  promptFill.text = text;
  promptFill.seq++;
}
