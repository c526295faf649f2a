// pi's session as entries (get_entries): an append-only tree with stable ids.
// The browser keeps the entries it has seen so that it can
// - catch up after a reconnect or a pi restart by asking only for the entries
//   after the last one it knows (`get_entries` with `since`), instead of
//   refetching the whole conversation;
// - rebuild the transcript from them when the active branch is a plain run of
//   messages (no compaction, summary or context edit on it, whose effect on
//   the model's context only pi computes: then it asks get_messages);
// - show the messages a compaction took out of the model's context;
// - find the entry id of a user message, for "Fork from here".
// Plain data and pure functions (no Svelte: entries can be large and must
// not be deep-proxied); the connection owns one and bumps a version on change.
import type { AgentMessage, CompactionEntry, SessionEntry, SessionMessageEntry, SystemMessage } from "@pier/protocol";
import type { ConversationMessage } from "../pi-types.ts";

export interface EntryIndex {
  /** The session these entries belong to (from get_state); null until known. */
  sessionId: string | null;
  /**
   * The entries in append order: an entry's parent is always before it, and
   * usually right before it. No map by id: a long session has thousands of
   * entries, and the few lookups by id are walks back from the end.
   */
  entries: SessionEntry[];
  /** pi's current position in the tree. */
  leafId: string | null;
  /** Bumped on every change, for views that derive from the index. */
  version: number;
}

export function createEntryIndex(): EntryIndex {
  return { sessionId: null, entries: [], leafId: null, version: 0 };
}

/** Forget everything (another session, or the cursor was not found). */
export function resetEntryIndex(index: EntryIndex, sessionId: string | null): void {
  index.sessionId = sessionId;
  index.entries = [];
  index.leafId = null;
  index.version++;
}

/** The cursor for `get_entries {since}`: the last entry known, if any. */
export function lastEntryId(index: EntryIndex): string | null {
  return index.entries.at(-1)?.id ?? null;
}

/**
 * Where entry `id` is, or -1: looked for from `from` back to the start
 * (where a parent is), then after `from` (only junk from pi puts one there).
 */
function positionOf(entries: readonly SessionEntry[], id: string, from = entries.length - 1): number {
  for (let i = Math.min(from, entries.length - 1); i >= 0; i--) if (entries[i]!.id === id) return i;
  for (let i = Math.max(from + 1, 0); i < entries.length; i++) if (entries[i]!.id === id) return i;
  return -1;
}

/** Whether the index holds entry `id`. */
export function hasEntry(index: EntryIndex, id: string): boolean {
  return positionOf(index.entries, id) !== -1;
}

/**
 * Apply a get_entries answer. Without `since` it is the whole session; with
 * it, the entries strictly after `since`. Returns false when the answer is
 * not usable (junk from pi, or a `since` we no longer hold): the caller then
 * asks for everything again.
 */
export function applyEntriesAnswer(index: EntryIndex, data: unknown, since: string | null, checked = false): boolean {
  if (typeof data !== "object" || data === null) return false;
  const { entries, leafId } = data as { entries?: unknown; leafId?: unknown };
  if (!Array.isArray(entries) || !(leafId === null || typeof leafId === "string")) return false;
  if (since === null && checked) return takeCheckedEntries(index, entries as SessionEntry[], leafId);
  const sincePosition = since === null ? -1 : positionOf(index.entries, since);
  // Not ours: the index was reset meanwhile (another session).
  if (since !== null && sincePosition === -1) return false;
  if (since === null) index.entries = [];
  const held = index.entries;
  // Two catch-ups with one cursor can cross: entries already held (after the cursor) are skipped.
  const seen = new Set<string>();
  for (let i = sincePosition + 1; i < held.length; i++) seen.add(held[i]!.id);
  let changed = since === null || leafId !== index.leafId;
  for (const entry of entries) {
    if (!isEntry(entry) || seen.has(entry.id)) continue;
    // The parent's id string instead of an equal copy: a long session holds thousands.
    if (entry.parentId !== null) {
      const last = held.length - 1;
      const parent = last >= 0 && held[last]!.id === entry.parentId ? last : positionOf(held, entry.parentId);
      if (parent !== -1) entry.parentId = held[parent]!.id;
    }
    held.push(entry);
    seen.add(entry.id);
    changed = true;
  }
  index.leafId = leafId;
  // Views rebuild on a new version: an answer that brought nothing new must not cost them a rebuild.
  if (changed) index.version++;
  return true;
}

/**
 * A whole session's entries that checkedEntries passed (in the worker that
 * parsed them, long-line.worker.ts): what applyEntriesAnswer does, without
 * checking each entry again or keeping a set of 50,000 ids on the page's
 * thread. Only each parent id that names the entry before is swapped for
 * that entry's own id string (the common case; see applyEntriesAnswer).
 */
function takeCheckedEntries(index: EntryIndex, entries: SessionEntry[], leafId: string | null): true {
  // A copy: the answer itself stays as pi sent it (the inspector shows it), while the index grows.
  const held = entries.slice();
  for (let i = 1; i < held.length; i++) {
    const entry = held[i]!;
    const before = held[i - 1]!;
    if (entry.parentId === before.id) entry.parentId = before.id;
  }
  index.entries = held;
  index.leafId = leafId;
  index.version++;
  return true;
}

/**
 * Whether every item is an entry and no id comes twice: then a whole
 * session's answer can be taken as it is (applyEntriesAnswer's `checked`).
 */
export function checkedEntries(items: readonly unknown[]): boolean {
  const ids = new Set<string>();
  for (const item of items) {
    if (!isEntry(item) || ids.has(item.id)) return false;
    ids.add(item.id);
  }
  return true;
}

function isEntry(value: unknown): value is SessionEntry {
  if (typeof value !== "object" || value === null) return false;
  const { id, type, parentId } = value as { id?: unknown; type?: unknown; parentId?: unknown };
  return typeof id === "string" && typeof type === "string" && (parentId === null || typeof parentId === "string");
}

/** The path last walked per index, and what it was walked on. */
type WalkedPath = { version: number; entries: SessionEntry[]; length: number; leafId: string | null; path: readonly SessionEntry[] };
const walkedPaths = new WeakMap<EntryIndex, WalkedPath>();

/**
 * The entries from the root to the current leaf, in order. Walked once per
 * change of the index: a loaded session asks for it three times (the
 * transcript, the compacted history, the branch's custom entries), and at
 * 50,000 entries each walk cost the page's thread ~3 ms.
 */
export function activePath(index: EntryIndex): readonly SessionEntry[] {
  const walked = walkedPaths.get(index);
  const { entries, leafId, version } = index;
  if (walked !== undefined && walked.version === version && walked.entries === entries && walked.length === entries.length && walked.leafId === leafId) return walked.path;
  const path = walkActivePath(index);
  walkedPaths.set(index, { version, entries, length: entries.length, leafId, path });
  return path;
}

/**
 * activePath's walk. Linear in the entries: each parent is looked for back
 * from its child, and the walk only goes back (iterative: paths can be
 * thousands long).
 */
function walkActivePath(index: EntryIndex): SessionEntry[] {
  const { entries } = index;
  const path: SessionEntry[] = [];
  // Going back, no entry can come twice; only after a step forward (junk
  // from pi: a parent after its child) is a cycle possible, and only then are
  // the positions seen kept in a set (50,000 of them cost the page ~10 ms).
  const positions: number[] = [];
  let seen: Set<number> | null = null;
  let at = index.leafId === null ? -1 : positionOf(entries, index.leafId);
  while (at !== -1) {
    if (seen === null && positions.length > 0 && at >= positions[positions.length - 1]!) seen = new Set(positions);
    if (seen !== null) {
      if (seen.has(at)) break;
      seen.add(at);
    } else positions.push(at);
    const entry = entries[at]!;
    path.push(entry);
    const parentId = entry.parentId;
    if (parentId === null) break;
    at = at > 0 && entries[at - 1]!.id === parentId ? at - 1 : positionOf(entries, parentId, at - 1);
  }
  return path.reverse();
}

/** Entry types that never change what the model sees (pi's buildSessionContext skips them). */
const CONTEXT_NEUTRAL = new Set(["model_change", "thinking_level_change", "usage", "custom", "label", "session_info"]);

function isMessageEntry(entry: SessionEntry): entry is SessionMessageEntry {
  return entry.type === "message" && typeof (entry as SessionMessageEntry).message === "object" && (entry as SessionMessageEntry).message !== null;
}

function isSystem(message: AgentMessage): message is SystemMessage {
  return message.role === "system";
}

/**
 * The conversation pi's get_messages would answer (system prompt apart),
 * when the active branch holds only messages and context-neutral entries;
 * null when something on it (a compaction, a branch summary, a context
 * edit, an extension's context message, an entry of an unknown type)
 * shapes the context in a way only pi computes.
 */
export function plainConversation(index: EntryIndex): { messages: ConversationMessage[]; systemPrompt: SystemMessage | null } | null {
  if (index.leafId !== null && !hasEntry(index, index.leafId)) return null;
  const messages: ConversationMessage[] = [];
  let systemPrompt: SystemMessage | null = null;
  for (const entry of activePath(index)) {
    if (isMessageEntry(entry)) {
      if (isSystem(entry.message)) systemPrompt = patchSystemPrompt(systemPrompt, entry.message);
      else messages.push(entry.message as ConversationMessage);
    } else if (!CONTEXT_NEUTRAL.has(entry.type)) {
      return null;
    }
  }
  return { messages, systemPrompt };
}

/**
 * pi stores the first system prompt whole and later ones as patches of its
 * named sections (null removes one); replaying them in order gives the
 * current prompt.
 */
function patchSystemPrompt(current: SystemMessage | null, next: SystemMessage): SystemMessage {
  if (current === null) return next;
  const sections: Record<string, string | null> = { ...(current.sections ?? {}) };
  for (const [name, text] of Object.entries(next.sections ?? {})) {
    if (text === null) delete sections[name];
    else sections[name] = text;
  }
  return { ...current, ...next, content: next.content || current.content, sections };
}

/**
 * Messages on the active branch that the latest compaction took out of the
 * model's context (everything before its first kept entry), oldest first.
 * Empty when nothing on the branch was compacted.
 */
export function compactedHistory(index: EntryIndex): ConversationMessage[] {
  const path = activePath(index);
  const at = path.findLastIndex((entry) => entry.type === "compaction");
  if (at === -1) return [];
  const firstKept = (path[at] as CompactionEntry).firstKeptEntryId;
  const keptAt = path.findIndex((entry) => entry.id === firstKept);
  const end = keptAt === -1 || keptAt > at ? at : keptAt;
  const history: ConversationMessage[] = [];
  for (const entry of path.slice(0, end)) {
    if (isMessageEntry(entry) && !isSystem(entry.message)) history.push(entry.message as ConversationMessage);
  }
  return history;
}

/**
 * The entry id of a user message shown in the transcript (for fork), found
 * by its timestamp on the active branch; null when pi's entries we hold do
 * not have it (yet).
 */
export function userEntryIdFor(index: EntryIndex, message: { role: string; timestamp?: unknown }): string | null {
  if (message.role !== "user" || typeof message.timestamp !== "number") return null;
  const path = activePath(index);
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i]!;
    if (isMessageEntry(entry) && entry.message.role === "user" && entry.message.timestamp === message.timestamp) return entry.id;
  }
  return null;
}
