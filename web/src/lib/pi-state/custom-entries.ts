// Extension custom entries (`pi.appendEntry(customType, data)`): which ones
// the transcript shows, and where.
//
// pi writes them as session entries of type "custom". They never reach the
// model (session-format.md, CustomEntry) and pi's own TUI shows one only
// when its extension registered a renderer; Pier has no renderer to run, so
// it shows each as a collapsed row with its data as JSON.
//
// Only entries of type "custom" are an extension's: context_edit, label,
// model_change, session_info, usage… are pi's own bookkeeping, and a
// custom_message is a message (it arrives as message_start/message_end and
// in get_messages). Custom types in pi's own namespace ("pi.", e.g.
// "pi.virtual-model-state", the virtual-model router's state) are pi's too.
//
// A live entry comes from entry_appended and becomes a transcript marker
// where it happened (reduce-record.ts). A session loaded from pi's entries (a
// reload whose replay no longer holds the entry, a switch to a saved session)
// has them on the active branch: `branchCustomEntries` picks them out with
// the messages around them, and `placeBranchEntries` puts each after the
// message it followed.
//
// Plain TypeScript, no Svelte.

import type { SessionEntry } from "@pier/protocol";
import type { ConversationMessage } from "../pi-types.ts";
import type { TranscriptMarker } from "./session-state.ts";

/** The transcript marker of one custom entry. */
export type CustomEntryMarker = Extract<TranscriptMarker, { kind: "customEntry" }>;

/** What the transcript keeps of a custom entry. */
export interface ShownCustomEntry {
  entryId: string;
  customType: string;
  data: unknown;
}

/** pi's own custom types start with this. */
const PI_NAMESPACE = "pi.";

/** The entry as an extension's custom entry the transcript shows, or null for anything else. */
export function shownCustomEntry(entry: unknown): ShownCustomEntry | null {
  if (typeof entry !== "object" || entry === null) return null;
  const { type, id, customType, data } = entry as { type?: unknown; id?: unknown; customType?: unknown; data?: unknown };
  if (type !== "custom" || typeof id !== "string" || typeof customType !== "string") return null;
  if (customType.startsWith(PI_NAMESPACE)) return null;
  return { entryId: id, customType, data };
}

/** One step of the active branch, as far as placing custom entries needs it. */
export type BranchItem = { kind: "message"; key: string } | ({ kind: "entry" } & ShownCustomEntry);

/** A message's identity across the stream, get_messages and get_entries: role and pi's timestamp. */
function messageKey(message: { role?: unknown; timestamp?: unknown }): string | null {
  return typeof message.role === "string" && typeof message.timestamp === "number" ? `${message.role}@${message.timestamp}` : null;
}

/**
 * The custom entries on an active branch (root to leaf), each with the
 * messages before it. Empty when there is none, which is the usual case:
 * then nothing else is kept.
 */
export function branchCustomEntries(path: readonly SessionEntry[]): BranchItem[] {
  if (!path.some((entry) => shownCustomEntry(entry) !== null)) return [];
  const items: BranchItem[] = [];
  for (const entry of path) {
    const shown = shownCustomEntry(entry);
    if (shown !== null) {
      items.push({ kind: "entry", ...shown });
      continue;
    }
    if (entry.type !== "message" && entry.type !== "custom_message") continue;
    // A custom_message entry holds the message's fields itself; its message has pi's timestamp in ms.
    const message = entry.type === "message" ? entry.message : { role: "custom", timestamp: Date.parse(entry.timestamp) };
    const key = messageKey(message as { role?: unknown; timestamp?: unknown });
    if (key !== null) items.push({ kind: "message", key });
  }
  // Messages after the last entry place nothing.
  while (items.length > 0 && items.at(-1)!.kind === "message") items.pop();
  return items;
}

/**
 * The transcript's markers with the branch's custom entries the stream did
 * not bring (no marker has their id), each placed after the last message
 * before it that the transcript holds (at the top when none). Their seq is
 * negative (-1, -2 … in branch order): stable while the branch grows, and
 * never one of the reducer's.
 */
export function withBranchEntries(markers: readonly TranscriptMarker[], messages: readonly ConversationMessage[], branch: readonly BranchItem[]): readonly TranscriptMarker[] {
  if (branch.length === 0) return markers;
  const live = new Set<string>();
  for (const marker of markers) if (marker.kind === "customEntry") live.add(marker.entryId);
  const missing = branch.some((item) => item.kind === "entry" && !live.has(item.entryId));
  if (!missing) return markers;
  const indexOf = new Map<string, number>();
  messages.forEach((message, i) => {
    const key = messageKey(message);
    if (key !== null) indexOf.set(key, i);
  });
  const added: CustomEntryMarker[] = [];
  let after = -1;
  let order = 0;
  for (const item of branch) {
    if (item.kind === "message") {
      // A message the transcript no longer holds (compacted, dropped before a retry) keeps the place of the one before it.
      const index = indexOf.get(item.key);
      if (index !== undefined && index > after) after = index;
      continue;
    }
    order++;
    if (live.has(item.entryId)) continue;
    added.push({ kind: "customEntry", seq: -order, beforeIndex: after + 1, at: 0, entryId: item.entryId, customType: item.customType, data: item.data });
  }
  return [...markers, ...added];
}
