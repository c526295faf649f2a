// The messages of the last session load, readable without a Svelte signal
// per message.
//
// In the browser `state.messages` is an array inside a deep `$state`: every
// index read through it gets a signal of its own (an object, its key, a map
// entry and the list of its readers), kept for as long as the array lives.
// The transcript reads every message to lay out its rows, so a 5,000-message
// session carried 5,000 signals, about 160 bytes a message: more than the
// session's entries cost.
//
// A session load replaces the whole array (applyGetMessages), and Svelte
// never writes into the array it was given (writes go to its signals): that
// array goes on holding the loaded messages as they were. After a load the
// reducer changes only the end of the list: it pushes, pops the last message,
// and replaces the live (or open) message, which it pushed itself. So the
// loaded messages are all still there, unchanged, as long as the last one is
// (popping any of them pops it first, and what is pushed in its place is
// another message). `readableMessages` checks that one and reads the loaded
// ones from the array it was given, and only the newer ones through the state.
//
// Plain TypeScript, no Svelte: in Node the state is not a proxy, and the
// loaded array is the state's array itself.

import type { ConversationMessage } from "../pi-types.ts";

/** The array of a load, by the `state.messages` it became (the Svelte proxy in the browser). */
const loadedArrays = new WeakMap<readonly ConversationMessage[], readonly ConversationMessage[]>();

/**
 * Note that `view` (what `state.messages` reads back right after
 * `state.messages = loaded`) shows `loaded`. `loaded` must not be changed
 * afterwards: the state owns it.
 */
export function noteLoadedMessages(view: readonly ConversationMessage[], loaded: readonly ConversationMessage[]): void {
  if (view !== loaded) loadedArrays.set(view, loaded);
}

/**
 * The same messages as `messages`, in an array whose loaded part is read
 * without going through `messages` (only its length, the last loaded message
 * and the messages after it are). `messages` itself when nothing is known
 * about it or the check fails.
 */
export function readableMessages(messages: readonly ConversationMessage[]): readonly ConversationMessage[] {
  const loaded = loadedArrays.get(messages);
  if (loaded === undefined || loaded.length === 0) return messages;
  const end = messages.length;
  const last = loaded.length - 1;
  if (end <= last || messages[last] !== loaded[last]) return messages;
  if (end === loaded.length) return loaded;
  const all = loaded.slice();
  for (let i = loaded.length; i < end; i++) all.push(messages[i]!);
  return all;
}
