// pi's session as a navigable tree: the answer of RPC `get_tree` turned into
// display rows, laid out like pi's own TUI `/tree`.
//
// pi is untrusted input here: every field may be missing or of the wrong
// type, and the tree may be thousands of levels deep (a linear conversation
// of 5,000 entries is a 5,000-deep chain of nested `children`). Nothing below
// recurses, and every pass is O(number of entries).

import { toolSummary } from "../format.ts";
import { markdownAsText } from "../markdown/markdown-as-text.ts";

/**
 * One session entry as pi stores it (docs/session-format.md). Only `type`,
 * `id`, `parentId` and `timestamp` are common; the rest depends on `type` and
 * is read defensively (any entry type, @pier/protocol's SessionEntry
 * included, fits here; nothing is trusted to be present).
 */
export interface SessionTreeEntry {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
}

/** One node of `get_tree`'s `tree` array. `label` is the entry's current bookmark (pi resolves `label` entries into it). */
export interface SessionTreeNode {
  entry: SessionTreeEntry;
  children: SessionTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

/** `data` of a successful `get_tree` response. */
export interface SessionTreeData {
  tree: SessionTreeNode[];
  leafId: string | null;
}

export type EntryKind = "user" | "assistant" | "tool" | "bash" | "system" | "compaction" | "branchSummary" | "custom" | "model" | "thinking" | "label" | "name" | "edit" | "usage" | "other";

export interface EntryDescription {
  kind: EntryKind;
  /** One line, at most TITLE_MAX characters. */
  title: string;
  /** Only user messages: pi's `fork` starts a new session just before one. */
  forkable: boolean;
}

/** A tool call seen in an assistant message, so the matching tool result can be titled "read src/a.js". */
export interface ToolCallInfo {
  name: string;
  arguments: unknown;
}

/** One display row, in display order. */
export interface SessionTreeRow {
  /** Unique row key: the entry id, or a made-up one when pi's id is missing or repeated. */
  id: string;
  /** pi's entry id, or null when the entry has no usable (unique, string) id. */
  entryId: string | null;
  /** The row of the nearest shown ancestor entry (null for a root). */
  parentId: string | null;
  /** Indentation: a chain of only-children stays at one depth; each child of a branch point starts a branch one level deeper. */
  depth: number;
  kind: EntryKind;
  title: string;
  /** The entry's bookmark (from pi's `label` entries). */
  label: string | null;
  /** ISO time the entry was written, when pi gave one. */
  timestamp: string | null;
  /** On the path root → current leaf. */
  onActivePath: boolean;
  /** The current leaf, or (when the leaf itself is not shown) its nearest shown ancestor. */
  isLeaf: boolean;
  /** More than one shown child: the children start branches. */
  isBranchPoint: boolean;
  /** Shown children (hidden entries in between are looked through). */
  childCount: number;
  /** A collapsed branch point: its descendants are not rows. */
  collapsed: boolean;
  forkable: boolean;
  /** First row of a branch (a child of a branch point), or a root when there are several. */
  branchStart: boolean;
}

export interface FlattenOptions {
  leafId: string | null;
  /** Ids of branch points whose descendants are hidden. */
  collapsed?: ReadonlySet<string>;
  /** Kinds not shown as rows (their children attach to the nearest shown ancestor). `usage` and `label` are never rows. */
  hideKinds?: ReadonlySet<EntryKind>;
}

/** What pi's `/tree` hides by default besides usage and labels: settings and bookkeeping. The system prompt joins them. */
export const DEFAULT_HIDDEN_KINDS: ReadonlySet<EntryKind> = new Set<EntryKind>(["system", "model", "thinking", "name", "edit", "custom"]);
/** Kinds that are never rows: usage is not conversation, labels show on their target. */
const NEVER_SHOWN: ReadonlySet<EntryKind> = new Set<EntryKind>(["usage", "label"]);
const NO_IDS: ReadonlySet<string> = new Set();

export const TITLE_MAX = 160;

// ---------------------------------------------------------------------------
// Reading untrusted values

type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** Whitespace collapsed to single spaces, cut to `max` with an ellipsis. */
export function oneLine(text: string, max = TITLE_MAX): string {
  // Only the start can show: don't normalise a whole long message (a tree of
  // thousands of entries titles every one of them when it opens).
  const cut = text.length > max + 40;
  const flat = (cut ? text.slice(0, max + 40) : text).replace(/\s+/g, " ").trim();
  if (flat.length > max) return `${flat.slice(0, max - 1).trimEnd()}…`;
  return cut ? `${flat}…` : flat;
}

/** The start of a Markdown text (an answer, a summary) as the chat shows it: "**Done.** See `a.ts`" is titled "Done. See a.ts". */
function plain(text: string): string {
  return markdownAsText(text.slice(0, TITLE_MAX + 80));
}

/** `prefix` + a text already on one line, cut to the title length. */
function titled(prefix: string, line: string): string {
  const title = prefix + line;
  return title.length > TITLE_MAX ? `${title.slice(0, TITLE_MAX - 1).trimEnd()}…` : title;
}

/** Text of a string-or-blocks content value. Images become "[image]"; anything unreadable is skipped. */
function textOf(content: unknown, limit = 1000): string {
  if (typeof content === "string") return content.slice(0, limit);
  if (!Array.isArray(content)) return "";
  let out = "";
  for (const block of content) {
    if (out.length >= limit) break;
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") out += (out ? " " : "") + block.text;
    else if (block.type === "image") out += (out ? " " : "") + "[image]";
  }
  return out.slice(0, limit);
}

function toolCallsOf(content: unknown): Array<{ id: string | undefined; name: string; arguments: unknown }> {
  if (!Array.isArray(content)) return [];
  const calls = [];
  for (const block of content) {
    if (isObject(block) && block.type === "toolCall") calls.push({ id: str(block.id), name: str(block.name) ?? "tool", arguments: block.arguments });
  }
  return calls;
}

/** "1,234" (toLocaleString's first call costs tens of milliseconds of Intl start-up). */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${groupDigits(n)} ${n === 1 ? one : many}`;
}

function tokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)}k`;
  return String(n);
}

/** Assistant message that only calls tools: pi's tree hides these (the tool results carry the calls' names). */
function isToolCallOnly(message: Loose): boolean {
  if (message.role !== "assistant") return false;
  if (textOf(message.content).trim() !== "") return false;
  const stop = message.stopReason;
  if (stop === "error" || stop === "aborted" || str(message.errorMessage)) return false;
  return toolCallsOf(message.content).length > 0;
}

// ---------------------------------------------------------------------------
// Describing one entry

function describeMessage(message: unknown, toolCalls: ReadonlyMap<string, ToolCallInfo> | undefined): EntryDescription {
  if (!isObject(message)) return { kind: "other", title: "Message (unreadable)", forkable: false };
  const role = str(message.role);
  switch (role) {
    case "user": {
      const text = oneLine(textOf(message.content, TITLE_MAX + 40));
      return { kind: "user", title: titled("You: ", text || "(empty)"), forkable: true };
    }
    case "assistant": {
      const text = oneLine(plain(textOf(message.content, TITLE_MAX + 80)));
      if (text) return { kind: "assistant", title: titled("pi: ", text), forkable: false };
      if (message.stopReason === "aborted") return { kind: "assistant", title: "pi: (stopped)", forkable: false };
      const error = str(message.errorMessage);
      if (error || message.stopReason === "error") return { kind: "assistant", title: oneLine(`pi: error: ${error ?? "unknown"}`), forkable: false };
      const calls = toolCallsOf(message.content);
      if (calls.length > 0) return { kind: "assistant", title: oneLine(`pi → ${calls.map((c) => toolSummary(c.name, c.arguments)).join(", ")}`), forkable: false };
      return { kind: "assistant", title: "pi: (no text)", forkable: false };
    }
    case "toolResult": {
      const callId = str(message.toolCallId);
      const call = callId !== undefined ? toolCalls?.get(callId) : undefined;
      const name = str(message.toolName) ?? call?.name ?? "tool";
      const summary = call ? toolSummary(call.name, call.arguments) : name;
      return { kind: "tool", title: oneLine(`${summary}${message.isError === true ? " (failed)" : ""}`), forkable: false };
    }
    case "bashExecution": {
      const exit = num(message.exitCode);
      const tail = message.cancelled === true ? " (cancelled)" : exit !== undefined && exit !== 0 ? ` (exit ${exit})` : "";
      return { kind: "bash", title: oneLine(`$ ${str(message.command) ?? ""}${tail}`), forkable: false };
    }
    case "system": {
      const parts: string[] = [];
      const sections = isObject(message.sections) ? Object.keys(message.sections).length : 0;
      if (sections > 0) parts.push(plural(sections, "section"));
      const added = Array.isArray(message.toolsAdded) ? message.toolsAdded.length : 0;
      const removed = Array.isArray(message.toolsRemoved) ? message.toolsRemoved.length : 0;
      if (added > 0) parts.push(`+${plural(added, "tool")}`);
      if (removed > 0) parts.push(`−${plural(removed, "tool")}`);
      const text = oneLine(textOf(message.content), 60);
      if (parts.length === 0 && text) parts.push(text);
      return { kind: "system", title: `System prompt${message.replace === true ? " (replaced)" : ""}${parts.length ? ` · ${parts.join(" · ")}` : ""}`, forkable: false };
    }
    case "custom": {
      const text = oneLine(textOf(message.content));
      return { kind: "custom", title: oneLine(`${str(message.customType) ?? "extension"}: ${text || "(no text)"}`), forkable: false };
    }
    case "compactionSummary":
      return { kind: "compaction", title: oneLine(`Compacted: ${plain(str(message.summary) ?? "")}`), forkable: false };
    case "branchSummary":
      return { kind: "branchSummary", title: oneLine(`Branch summary: ${plain(str(message.summary) ?? "")}`), forkable: false };
    default:
      return { kind: "other", title: oneLine(`${role ?? "unknown"} message`), forkable: false };
  }
}

/**
 * Kind and one-line title of an entry. Never throws: junk gets kind "other".
 * `toolCalls` (call id → call) lets a tool result be named after its call.
 */
export function describeEntry(entry: unknown, toolCalls?: ReadonlyMap<string, ToolCallInfo>): EntryDescription {
  if (!isObject(entry)) return { kind: "other", title: "Unreadable entry", forkable: false };
  const type = str(entry.type);
  switch (type) {
    case "message":
      return describeMessage(entry.message, toolCalls);
    case "model_change": {
      const provider = str(entry.provider);
      const model = str(entry.modelId) ?? "unknown";
      return { kind: "model", title: oneLine(`Model → ${provider ? `${provider}/` : ""}${model}`), forkable: false };
    }
    case "thinking_level_change":
      return { kind: "thinking", title: oneLine(`Thinking → ${str(entry.thinkingLevel) ?? "unknown"}`), forkable: false };
    case "usage": {
      const usage = isObject(entry.usage) ? num(entry.usage.totalTokens) : undefined;
      return { kind: "usage", title: oneLine(`Usage (${str(entry.kind) ?? "other"})${usage !== undefined ? `: ${tokens(usage)} tokens` : ""}`), forkable: false };
    }
    case "compaction":
      return { kind: "compaction", title: oneLine(`Compacted: ${plain(str(entry.summary) ?? "(no summary)")}`), forkable: false };
    case "branch_summary":
      return { kind: "branchSummary", title: oneLine(`Branch summary: ${plain(str(entry.summary) ?? "(no summary)")}`), forkable: false };
    case "context_edit":
      return {
        kind: "edit",
        title: entry.replacement === null ? "Context edit: message left out" : "Context edit: message replaced",
        forkable: false,
      };
    case "custom":
      return { kind: "custom", title: oneLine(`Extension data: ${str(entry.customType) ?? "unknown"}`), forkable: false };
    case "custom_message": {
      const text = oneLine(textOf(entry.content));
      return { kind: "custom", title: oneLine(`${str(entry.customType) ?? "extension"}: ${text || "(no text)"}`), forkable: false };
    }
    case "label": {
      const label = str(entry.label);
      return { kind: "label", title: oneLine(label ? `Label “${label}”` : "Label cleared"), forkable: false };
    }
    case "session_info": {
      const name = str(entry.name);
      return { kind: "name", title: oneLine(name ? `Session named “${name}”` : "Session name cleared"), forkable: false };
    }
    default:
      return { kind: "other", title: oneLine(type ? `Entry “${type}”` : "Entry of no type"), forkable: false };
  }
}

// ---------------------------------------------------------------------------
// Building the tree from a flat entry list (`get_entries`)

/**
 * The same nodes pi's `get_tree` answers, built from `get_entries`' flat list
 * (append order) the way pi's SessionManager.getTree() builds them: labels
 * resolved from `label` entries (the latest wins, an empty one clears),
 * entries whose parent is null, themselves or unknown become roots, children
 * sorted by timestamp. pi 0.87.1's own `get_tree` fails with "Maximum call
 * stack size exceeded" once a branch is ~2,500 entries long (JSON.stringify
 * of the nesting), so a long session can only be shown this way.
 */
export function treeFromEntries(entries: unknown): SessionTreeNode[] {
  const list = Array.isArray(entries) ? entries : [];
  const labels = new Map<string, { label: string; timestamp: string | undefined }>();
  const nodes = new Map<string, SessionTreeNode>();
  const order: Array<{ node: SessionTreeNode; parentId: string | undefined; time: number; seq: number }> = [];
  for (const entry of list) {
    if (!isObject(entry)) continue;
    const id = str(entry.id);
    if (entry.type === "label") {
      const target = str(entry.targetId);
      const label = str(entry.label);
      if (target !== undefined) {
        if (label) labels.set(target, { label, timestamp: str(entry.timestamp) });
        else labels.delete(target);
      }
    }
    if (id === undefined || nodes.has(id)) continue;
    const node: SessionTreeNode = { entry: entry as unknown as SessionTreeEntry, children: [] };
    nodes.set(id, node);
    const time = Date.parse(str(entry.timestamp) ?? "");
    order.push({ node, parentId: str(entry.parentId), time: Number.isNaN(time) ? 0 : time, seq: order.length });
  }
  const roots: SessionTreeNode[] = [];
  const sortKeys = new Map<SessionTreeNode, { time: number; seq: number }>();
  for (const item of order) {
    const id = item.node.entry.id;
    const found = labels.get(id);
    if (found) {
      item.node.label = found.label;
      if (found.timestamp !== undefined) item.node.labelTimestamp = found.timestamp;
    }
    sortKeys.set(item.node, item);
    const parent = item.parentId !== undefined && item.parentId !== id ? nodes.get(item.parentId) : undefined;
    if (parent) parent.children.push(item.node);
    else roots.push(item.node);
  }
  const byTime = (a: SessionTreeNode, b: SessionTreeNode) => {
    const x = sortKeys.get(a)!;
    const y = sortKeys.get(b)!;
    return x.time - y.time || x.seq - y.seq;
  };
  for (const node of nodes.values()) if (node.children.length > 1) node.children.sort(byTime);
  return roots;
}

// ---------------------------------------------------------------------------
// The index: one pass over pi's nested nodes into flat arrays

/** The tree read once into flat arrays (node i in pre-order). Build it once per `get_tree` answer, then flatten as often as collapse/filter change. */
export interface SessionTreeIndex {
  readonly size: number;
  /** Row key per node (entry id, de-duplicated). */
  readonly keys: readonly string[];
  /** pi's entry id per node, null when missing or repeated. */
  readonly entryIds: readonly (string | null)[];
  /** Parent node index (-1 for a root). */
  readonly parent: Int32Array;
  /** Children per node, in pi's order. */
  readonly children: readonly (readonly number[])[];
  /** Top-level nodes in pi's order. */
  readonly roots: readonly number[];
  readonly descriptions: readonly EntryDescription[];
  readonly labels: readonly (string | null)[];
  readonly timestamps: readonly (string | null)[];
  /** Assistant messages that only call tools. */
  readonly toolCallOnly: Uint8Array;
  readonly entries: readonly unknown[];
  /** Row key → node index. */
  readonly byKey: ReadonlyMap<string, number>;
  /** pi entry id → node index. */
  readonly byEntryId: ReadonlyMap<string, number>;
  readonly toolCalls: ReadonlyMap<string, ToolCallInfo>;
}

const NO_CHILDREN: readonly number[] = Object.freeze([]);

export function isTreeIndex(value: unknown): value is SessionTreeIndex {
  return isObject(value) && value.parent instanceof Int32Array && Array.isArray(value.keys);
}

/** Reads `get_tree`'s `tree` array (anything, really) into a SessionTreeIndex. Iterative; O(n). */
export function indexTree(roots: unknown): SessionTreeIndex {
  const keys: string[] = [];
  const entryIds: (string | null)[] = [];
  const parents: number[] = [];
  const children: (readonly number[])[] = [];
  const descriptions: EntryDescription[] = [];
  const labels: (string | null)[] = [];
  const timestamps: (string | null)[] = [];
  const toolOnly: number[] = [];
  const entries: unknown[] = [];
  const byKey = new Map<string, number>();
  const byEntryId = new Map<string, number>();
  const toolCalls = new Map<string, ToolCallInfo>();
  const rootList: number[] = [];
  const seen = new WeakSet<object>();

  // Pre-order with an explicit stack: a parent is read before its children,
  // so an assistant's tool calls are known before their results are titled.
  const stack: Array<{ node: unknown; parent: number }> = [];
  const top = Array.isArray(roots) ? roots : [];
  for (let i = top.length - 1; i >= 0; i--) stack.push({ node: top[i], parent: -1 });

  while (stack.length > 0) {
    const { node, parent } = stack.pop()!;
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    const index = keys.length;
    const entry = node.entry;
    const rawId = isObject(entry) ? str(entry.id) : undefined;
    let key: string;
    let entryId: string | null = null;
    if (rawId !== undefined && rawId !== "" && !byKey.has(rawId)) {
      key = rawId;
      entryId = rawId;
      byEntryId.set(rawId, index);
    } else {
      key = `${rawId ?? "entry"}#${index}`;
      while (byKey.has(key)) key += "'";
    }
    byKey.set(key, index);

    if (isObject(entry) && entry.type === "message" && isObject(entry.message) && entry.message.role === "assistant") {
      for (const call of toolCallsOf(entry.message.content)) if (call.id !== undefined) toolCalls.set(call.id, { name: call.name, arguments: call.arguments });
    }
    const description = describeEntry(entry, toolCalls);
    if (entryId === null) description.forkable = false;

    keys.push(key);
    entryIds.push(entryId);
    parents.push(parent);
    children.push(NO_CHILDREN);
    descriptions.push(description);
    labels.push(str(node.label) || null);
    timestamps.push(isObject(entry) ? (str(entry.timestamp) ?? null) : null);
    toolOnly.push(isObject(entry) && entry.type === "message" && isObject(entry.message) && isToolCallOnly(entry.message) ? 1 : 0);
    entries.push(entry);

    if (parent === -1) rootList.push(index);
    else {
      const siblings = children[parent]!;
      if (siblings === NO_CHILDREN) children[parent] = [index];
      else (siblings as number[]).push(index);
    }

    const kids = node.children;
    if (Array.isArray(kids)) for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], parent: index });
  }

  return {
    size: keys.length,
    keys,
    entryIds,
    parent: Int32Array.from(parents),
    children,
    roots: rootList,
    descriptions,
    labels,
    timestamps,
    toolCallOnly: Uint8Array.from(toolOnly),
    entries,
    byKey,
    byEntryId,
    toolCalls,
  };
}

// ---------------------------------------------------------------------------
// Flattening into rows

/**
 * Display rows, in order, laid out like pi's `/tree`: a chain of
 * only-children stays at one depth; where an entry has several (shown)
 * children each starts a branch one level deeper, the branch holding the
 * current leaf first. Hidden entries (usage, labels, `hideKinds`, assistant
 * messages that only call tools) are looked through: their children attach to
 * the nearest shown ancestor. Iterative and O(n).
 */
export function flattenTree(treeOrIndex: unknown, options: FlattenOptions): SessionTreeRow[] {
  const index = isTreeIndex(treeOrIndex) ? treeOrIndex : indexTree(treeOrIndex);
  const { size, children, parent, descriptions } = index;
  const collapsed = options.collapsed ?? NO_IDS;
  const hideKinds: ReadonlySet<string> = options.hideKinds ?? NO_IDS;
  const leaf = options.leafId !== null && options.leafId !== undefined ? (index.byEntryId.get(options.leafId) ?? -1) : -1;

  // On the path root → leaf (following the tree's own structure, not parentId fields).
  const onPath = new Uint8Array(size);
  for (let i = leaf; i !== -1; i = parent[i]!) onPath[i] = 1;

  const visible = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    const kind = descriptions[i]!.kind;
    visible[i] = NEVER_SHOWN.has(kind) || hideKinds.has(kind) || (index.toolCallOnly[i] === 1 && i !== leaf) ? 0 : 1;
  }

  // Shown children per node, counted through hidden entries. Nodes are in
  // pre-order, so walking backwards sees every child before its parent.
  const shownKids = new Int32Array(size);
  for (let i = size - 1; i >= 0; i--) {
    let count = 0;
    for (const c of children[i]!) count += visible[c] ? 1 : shownKids[c]!;
    shownKids[i] = count;
  }

  // The shown children of a node (or of the virtual root), through hidden
  // entries, the one on the active path first. Each hidden node is expanded
  // by exactly one shown ancestor, so all calls together stay O(n).
  const expand: number[] = [];
  function shownChildren(of: readonly number[]): number[] {
    const out: number[] = [];
    for (let i = of.length - 1; i >= 0; i--) expand.push(of[i]!);
    while (expand.length > 0) {
      const n = expand.pop()!;
      if (visible[n]) out.push(n);
      else for (let i = children[n]!.length - 1; i >= 0; i--) expand.push(children[n]![i]!);
    }
    const active = out.findIndex((n) => onPath[n] === 1);
    if (active > 0) out.unshift(...out.splice(active, 1));
    return out;
  }

  const rows: SessionTreeRow[] = [];
  const rowOf = new Int32Array(size).fill(-1);
  const pending: Array<{ node: number; depth: number; parentRow: string | null; branchStart: boolean }> = [];
  const roots = shownChildren(index.roots);
  for (let i = roots.length - 1; i >= 0; i--) pending.push({ node: roots[i]!, depth: 0, parentRow: null, branchStart: roots.length > 1 });

  while (pending.length > 0) {
    const { node, depth, parentRow, branchStart } = pending.pop()!;
    const description = descriptions[node]!;
    const childCount = shownKids[node]!;
    const isBranchPoint = childCount > 1;
    const key = index.keys[node]!;
    const isCollapsed = isBranchPoint && collapsed.has(key);
    rowOf[node] = rows.length;
    rows.push({
      id: key,
      entryId: index.entryIds[node]!,
      parentId: parentRow,
      depth,
      kind: description.kind,
      title: description.title,
      label: index.labels[node]!,
      timestamp: index.timestamps[node]!,
      onActivePath: onPath[node] === 1,
      isLeaf: false,
      isBranchPoint,
      childCount,
      collapsed: isCollapsed,
      forkable: description.forkable,
      branchStart,
    });
    if (childCount === 0 || isCollapsed) continue;
    const kids = shownChildren(children[node]!);
    const childDepth = isBranchPoint ? depth + 1 : depth;
    for (let i = kids.length - 1; i >= 0; i--) pending.push({ node: kids[i]!, depth: childDepth, parentRow: key, branchStart: isBranchPoint });
  }

  // The current leaf, or its nearest shown ancestor when it is hidden or collapsed away.
  for (let i = leaf; i !== -1; i = parent[i]!) {
    if (rowOf[i] !== -1) {
      rows[rowOf[i]!]!.isLeaf = true;
      break;
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------
// Filtering, counting, explaining

/** Lower-case words of a filter query. */
function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * The rows matching a filter query, as a flat list (depth 0, no branch
 * points): a search result, not a tree. Flatten without collapse first so a
 * match inside a collapsed branch is found.
 */
export function filterRows(rows: readonly SessionTreeRow[], query: string): SessionTreeRow[] {
  const words = queryWords(query);
  if (words.length === 0) return rows.slice();
  const out: SessionTreeRow[] = [];
  for (const row of rows) {
    const haystack = `${row.title} ${row.label ?? ""}`.toLowerCase();
    if (words.every((w) => haystack.includes(w))) out.push({ ...row, depth: 0, isBranchPoint: false, collapsed: false, branchStart: false });
  }
  return out;
}

export interface TreeStats {
  /** Entries that can be rows (everything but usage and label entries). */
  entries: number;
  /** Tips of the tree: one per path a conversation can continue from. */
  branches: number;
}

export function treeStats(index: SessionTreeIndex): TreeStats {
  let entries = 0;
  let branches = 0;
  for (let i = 0; i < index.size; i++) {
    if (!NEVER_SHOWN.has(index.descriptions[i]!.kind)) entries++;
    if (index.children[i]!.length === 0) branches++;
  }
  return { entries, branches };
}

/** Index of the row's parent in the visual tree (nearest earlier row with a smaller depth), or -1. O(distance). */
export function parentRowIndex(rows: readonly SessionTreeRow[], index: number): number {
  const row = rows[index];
  if (!row || row.depth === 0) return -1;
  for (let i = index - 1; i >= 0; i--) if (rows[i]!.depth < row.depth) return i;
  return -1;
}

/** Index of the first visual child of a row (the next row, one level deeper), or -1. */
export function firstChildRowIndex(rows: readonly SessionTreeRow[], index: number): number {
  const row = rows[index];
  const next = rows[index + 1];
  return row && next && next.depth > row.depth ? index + 1 : -1;
}

/** Ids of a row's visual ancestors (the branch points above it), nearest first. */
export function ancestorsOf(rows: readonly SessionTreeRow[], id: string): string[] {
  let i = rows.findIndex((r) => r.id === id);
  const out: string[] = [];
  while (i !== -1) {
    i = parentRowIndex(rows, i);
    if (i !== -1) out.push(rows[i]!.id);
  }
  return out;
}

/** Keys of the entries on the path root → leaf (to expand the branch points the leaf sits under). */
export function activePathKeys(index: SessionTreeIndex, leafId: string | null): string[] {
  const out: string[] = [];
  let i = leafId !== null ? (index.byEntryId.get(leafId) ?? -1) : -1;
  for (; i !== -1; i = index.parent[i]!) out.push(index.keys[i]!);
  return out;
}

const CONVERSATION_KINDS: ReadonlySet<EntryKind> = new Set<EntryKind>(["user", "assistant", "tool", "bash", "custom", "branchSummary"]);

/** How many conversation entries above a compaction it summarised (those before `firstKeptEntryId`). */
function summarisedCount(index: SessionTreeIndex, node: number, firstKept: string | undefined): number {
  let i = index.parent[node]!;
  // Walk up past the kept range first, unless nothing was kept.
  if (firstKept !== undefined && firstKept !== index.entryIds[node]) {
    let j = i;
    while (j !== -1 && index.entryIds[j] !== firstKept) j = index.parent[j]!;
    if (j !== -1) i = index.parent[j]!;
  }
  let count = 0;
  for (; i !== -1; i = index.parent[i]!) {
    const kind = index.descriptions[i]!.kind;
    if (kind === "compaction") break;
    if (CONVERSATION_KINDS.has(kind)) count++;
  }
  return count;
}

/** A sentence or two on what an entry is, for the selected row. */
export function explainEntry(index: SessionTreeIndex, key: string): string {
  const node = index.byKey.get(key);
  if (node === undefined) return "";
  const entry = index.entries[node];
  const description = index.descriptions[node]!;
  const e: Loose = isObject(entry) ? entry : {};
  const message: Loose = isObject(e.message) ? e.message : {};
  switch (description.kind) {
    case "user":
      return description.forkable
        ? "Your message. Forking starts a new session holding the conversation up to just before it; the message comes back into the prompt box to edit and send."
        : "Your message. It cannot be forked: pi gave it no usable id.";
    case "assistant": {
      const model = str(message.model);
      const stop = str(message.stopReason);
      const error = str(message.errorMessage);
      const what = error ? `pi's answer failed: ${oneLine(error, 120)}.` : stop === "aborted" ? "pi's answer, stopped before it finished." : "pi's answer.";
      return `${what}${model ? ` Model: ${model}.` : ""} To try again from an earlier point, select one of your messages and fork from it.`;
    }
    case "tool":
      return `Tool result: what “${description.title.replace(/ \(failed\)$/, "")}” returned to the model${message.isError === true ? " (it reported an error)" : ""}.`;
    case "bash":
      return message.excludeFromContext === true
        ? "A shell command you ran; its output was kept out of the model's context."
        : "A shell command you ran; pi adds its output to the model's context with your next message.";
    case "system":
      return "System prompt: the instructions and tool list pi sends to the model. Later system entries change parts of it.";
    case "compaction": {
      const count = summarisedCount(index, node, str(e.firstKeptEntryId));
      const before = num(e.tokensBefore);
      if (e.type !== "compaction") return "Compaction summary: stands in for earlier messages the model no longer sees.";
      return `Compaction: summarised ${plural(count, "earlier message")}${before !== undefined ? ` (${tokens(before)} tokens)` : ""}; the model sees the summary instead.`;
    }
    case "branchSummary":
      return "Branch summary: when the session moved to this branch, pi summarised the branch it left so the model keeps the gist.";
    case "custom":
      return e.type === "custom"
        ? `Data saved by the extension “${str(e.customType) ?? "unknown"}”; the model does not see it.`
        : `A message from the extension “${str(e.customType) ?? str(message.customType) ?? "unknown"}”, sent to the model as context.`;
    case "model":
      return `From here on the session used ${str(e.provider) ? `${str(e.provider)}/` : ""}${str(e.modelId) ?? "another model"}.`;
    case "thinking":
      return `From here on the thinking level was “${str(e.thinkingLevel) ?? "unknown"}”.`;
    case "name":
      return str(e.name) ? `The session was named “${str(e.name)}”.` : "The session's name was cleared.";
    case "edit":
      return e.replacement === null
        ? "Context edit: an earlier message is left out of what the model sees from here on. The original stays in the history."
        : "Context edit: an earlier message is replaced in what the model sees from here on. The original stays in the history.";
    case "label":
      return "A bookmark on another entry.";
    case "usage":
      return "Tokens spent outside the conversation (for example cache warming).";
    default: {
      const type = str(e.type);
      return type ? `An entry of type “${oneLine(type, 40)}” that Pier does not know.` : "An entry Pier cannot read.";
    }
  }
}
