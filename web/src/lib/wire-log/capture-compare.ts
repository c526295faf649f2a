// Two captures side by side (e.g. the same prompt against pi 0.87.1 and
// 1.6.0): pi's records and the commands sent, lined up by their place in the
// run, with what differs in record types and in the records' shapes.
//
// - Each capture is framed as the replay frames it (the real JsonlDecoder);
//   relay frames are left out (they describe the relay, not pi), as are
//   `pier.*` requests.
// - Split into runs: a prompt sent (or its answer, or an agent_start with no
//   run open) opens one; agent_settled closes it (agent_end in a capture that
//   has no agent_settled at all). The i-th run of A faces the i-th run of B,
//   and what came between runs faces what came between the same runs.
// - Consecutive streaming updates (message_update, tool_execution_update,
//   bash_execution_update) are one item with a count: 300 deltas face 280.
// - Within a run the items are aligned by their keys (the record type, with
//   the command of a response, the role of a message, the method of a
//   dialog) with a Myers diff: O((N+M)·D), and common ends are trimmed first.
// - A record's shape is its JSON paths and the types found there (values,
//   ids, times and text are not compared); aligned items whose shapes differ
//   say which fields were added, removed or changed type. The values that
//   differ are worked out only when asked (valueDifferences).
//
// The reader is the untrusted one (capture.ts); a bad file gives a sentence
// naming it.

import { JsonlDecoder } from "@pier/protocol";
import { readCapture } from "./capture.ts";

/** What a capture holds, as either the reader's events or the player's items give it. */
export type CompareEvent = { kind: "bytes"; bytes: Uint8Array } | { kind: "frame" | "text"; text: string } | { kind: "sent"; text: string };

export interface CompareRecord {
  /** "in": a line of pi's stdout; "out": a command sent to pi. */
  direction: "in" | "out";
  /** The record's type ("response", "agent_start", a command's type…); "(not JSON)" for a line that is not. */
  type: string;
  /** What alignment compares: the type, with a response's command, a message's role, a dialog's method; commands start with "↑ ". */
  key: string;
  raw: string;
  value: unknown;
}

export interface CaptureSide {
  name: string;
  /** pi's version as the relay's hello told it, when the capture says. */
  piVersion: string | null;
  records: CompareRecord[];
  /** The capture was cut at its writer's size limit. */
  truncated: boolean;
}

/** Path → the JSON types seen there ("string", "number|null" …). */
export type Shape = ReadonlyMap<string, string>;

export interface CompareItem {
  key: string;
  /** Index of its (first) record in the side's records. */
  first: number;
  /** Records it stands for (more than one for collapsed updates). */
  count: number;
  shape: Shape;
  /** The shape as one string, for a quick equality test. */
  signature: string;
}

export interface ShapeDiff {
  /** Paths only A's record has. */
  onlyA: string[];
  onlyB: string[];
  changed: { path: string; a: string; b: string }[];
}

export type RowStatus = "same" | "changed" | "only-a" | "only-b";

export type CompareRow = { kind: "title"; title: string; status: RowStatus } | { kind: "record"; a: CompareItem | null; b: CompareItem | null; status: RowStatus; diff: ShapeDiff | null };

export interface CompareSummary {
  runsA: number;
  runsB: number;
  /** Record rows, and how they came out. */
  rows: number;
  same: number;
  changed: number;
  onlyA: number;
  onlyB: number;
  /** Keys found anywhere in one capture and nowhere in the other. */
  typesOnlyA: string[];
  typesOnlyB: string[];
  /** "key › path", over every aligned pair. */
  fieldsOnlyA: string[];
  fieldsOnlyB: string[];
  fieldsChanged: string[];
}

export interface Comparison {
  a: CaptureSide;
  b: CaptureSide;
  rows: CompareRow[];
  summary: CompareSummary;
}

export type SideResult = { ok: true; side: CaptureSide } | { ok: false; message: string };

// ---------------------------------------------------------------------------
// Reading a side
// ---------------------------------------------------------------------------

function asObject(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describe(direction: "in" | "out", value: unknown): { type: string; key: string } {
  const record = asObject(value);
  if (record === null) return { type: "(not JSON)", key: direction === "out" ? "↑ (not JSON)" : "(not JSON)" };
  const type = str(record["type"]) ?? "(no type)";
  if (direction === "out") return { type, key: `↑ ${type}` };
  switch (type) {
    case "response":
      return { type, key: `response ${str(record["command"]) ?? "?"}` };
    case "extension_ui_request":
      return { type, key: `extension_ui_request ${str(record["method"]) ?? "?"}` };
    case "message_start":
    case "message_end": {
      const role = str(asObject(record["message"])?.["role"]);
      return { type, key: role === null ? type : `${type} ${role}` };
    }
    default:
      return { type, key: type };
  }
}

/** A capture's records, from its events in order (the reader's, or an opened capture's items). */
export function sideFromEvents(name: string, events: readonly CompareEvent[], truncated = false): CaptureSide {
  const decoder = new JsonlDecoder();
  const records: CompareRecord[] = [];
  let piVersion: string | null = null;
  const addLine = (raw: string, value: unknown) => {
    const { type, key } = describe("in", value);
    records.push({ direction: "in", type, key, raw, value });
  };
  for (const event of events) {
    if (event.kind === "bytes") {
      for (const line of decoder.push(event.bytes)) addLine(line.raw, line.kind === "record" ? line.value : undefined);
    } else if (event.kind === "sent") {
      const value = parse(event.text);
      const { type, key } = describe("out", value);
      if (type.startsWith("pier.")) continue;
      records.push({ direction: "out", type, key, raw: event.text, value });
    } else if (piVersion === null && event.text.includes('"hello"')) {
      const hello = asObject(parse(event.text));
      if (hello?.["type"] === "hello") piVersion = str(asObject(hello["pi"])?.["version"]);
    }
  }
  for (const line of decoder.end()) addLine(line.raw, line.kind === "record" ? line.value : undefined);
  return { name, piVersion, records, truncated };
}

/** Read a capture file's text (untrusted) for comparing. */
export function sideFromText(name: string, text: string): SideResult {
  const result = readCapture(text);
  if (!result.ok) return { ok: false, message: `${name} cannot be compared: ${result.error.message}` };
  if (result.events.length === 0) return { ok: false, message: `${name} cannot be compared: it holds no recorded events.` };
  return { ok: true, side: sideFromEvents(name, result.events, result.header.truncated === true) };
}

/** Two files' texts, compared; a bad one is named (both, when both are bad). */
export function compareCaptureTexts(a: { name: string; text: string }, b: { name: string; text: string }): { ok: true; comparison: Comparison } | { ok: false; message: string } {
  const sideA = sideFromText(a.name, a.text);
  const sideB = sideFromText(b.name, b.text);
  if (!sideA.ok && !sideB.ok) return { ok: false, message: `${sideA.message} ${sideB.message}` };
  if (!sideA.ok) return sideA;
  if (!sideB.ok) return sideB;
  return { ok: true, comparison: compareSides(sideA.side, sideB.side) };
}

// ---------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------

/** Elements of an array looked at for its element shape (a get_messages answer can hold 50,000). */
const ARRAY_SAMPLE = 50;
const MAX_DEPTH = 8;
/** Paths per shape; past this a record's shape says "…" (a huge answer costs no more). */
const MAX_PATHS = 400;
/**
 * A collapsed run of updates merges the shapes of the first member of each
 * step (text_delta, toolcall_end …) and of every MERGE_EVERY-th member, up to
 * MAX_MERGED: shapes were most of the cost of comparing 2 × 100,000 records
 * (~1 s here), and the updates of one step share their shape.
 */
const MERGE_EVERY = 8;
const MAX_MERGED = 1000;

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function mergeType(existing: string | undefined, type: string): string {
  if (existing === undefined || existing === type) return type;
  const types = existing.split("|");
  if (types.includes(type)) return existing;
  types.push(type);
  return types.sort().join("|");
}

function addShape(shape: Map<string, string>, value: unknown, path: string, depth: number): void {
  if (shape.size >= MAX_PATHS) {
    shape.set("…", "more");
    return;
  }
  if (path !== "") shape.set(path, mergeType(shape.get(path), jsonType(value)));
  if (depth >= MAX_DEPTH || typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    const n = Math.min(value.length, ARRAY_SAMPLE);
    for (let i = 0; i < n; i++) addShape(shape, value[i], `${path}[]`, depth + 1);
    return;
  }
  for (const key of Object.keys(value)) addShape(shape, (value as Record<string, unknown>)[key], path === "" ? key : `${path}.${key}`, depth + 1);
}

/** The shape of one JSON value: its paths and their types (array elements under "[]"). */
export function shapeOf(value: unknown, into: Map<string, string> = new Map()): Map<string, string> {
  if (typeof value !== "object" || value === null) into.set("", mergeType(into.get(""), jsonType(value)));
  else addShape(into, value, "", 0);
  return into;
}

function signatureOf(shape: Shape): string {
  return [...shape.entries()]
    .map(([path, type]) => `${path}:${type}`)
    .sort()
    .join(";");
}

/** True when a path's parent (or any ancestor) is in `paths`: "a.b[].c" under "a.b" or "a". */
function underAny(path: string, paths: ReadonlySet<string>): boolean {
  for (let i = path.length - 1; i > 0; i--) {
    const c = path[i];
    if ((c === "." || c === "[") && paths.has(path.slice(0, i))) return true;
  }
  return false;
}

/**
 * Fields added, removed or changed in type from A's shape to B's. A field
 * only one side has is named once: what lies under it is not listed again
 * (1.6.0's `nestedCalls`, not its dozen sub-fields).
 */
export function diffShapes(a: Shape, b: Shape): ShapeDiff {
  const onlyA = new Set<string>();
  const onlyB = new Set<string>();
  const changed: { path: string; a: string; b: string }[] = [];
  for (const [path, type] of a) {
    const other = b.get(path);
    if (other === undefined) onlyA.add(path);
    else if (other !== type) changed.push({ path, a: type, b: other });
  }
  for (const path of b.keys()) if (!a.has(path)) onlyB.add(path);
  const top = (paths: Set<string>) => [...paths].filter((path) => !underAny(path, paths)).sort();
  return { onlyA: top(onlyA), onlyB: top(onlyB), changed: changed.sort((x, y) => (x.path < y.path ? -1 : 1)) };
}

// ---------------------------------------------------------------------------
// Runs and items
// ---------------------------------------------------------------------------

/** Streaming updates: consecutive ones of a kind are one item. */
const COLLAPSED = new Set(["message_update", "tool_execution_update", "bash_execution_update"]);

interface Segment {
  /** Run number (from 1), or null for what came before run `after + 1`. */
  run: number | null;
  /** Runs finished before this segment. */
  after: number;
  /** The prompt's text, for a run's title. */
  prompt: string | null;
  /** Indexes into the side's records. */
  records: number[];
}

function opensRun(record: CompareRecord): boolean {
  if (record.direction === "out") return record.type === "prompt";
  if (record.type === "agent_start") return true;
  const value = asObject(record.value);
  return record.type === "response" && value?.["command"] === "prompt" && value["success"] === true;
}

function segmentsOf(side: CaptureSide): Segment[] {
  const { records } = side;
  const settles = records.some((r) => r.direction === "in" && r.type === "agent_settled");
  const endType = settles ? "agent_settled" : "agent_end";
  const segments: Segment[] = [];
  let runs = 0;
  let current: Segment = { run: null, after: 0, prompt: null, records: [] };
  let inRun = false;
  /** An agent_start was seen in the run open now: a prompt that started nothing (an extension command) gives way to the next. */
  let started = false;
  const push = () => {
    if (current.records.length > 0 || current.run !== null) segments.push(current);
  };
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const newPrompt = record.direction === "out" && record.type === "prompt";
    if (inRun && !started && newPrompt) {
      push();
      current = { run: null, after: runs, prompt: null, records: [] };
      inRun = false;
    }
    if (!inRun && opensRun(record)) {
      push();
      runs++;
      const message = newPrompt ? str(asObject(record.value)?.["message"]) : null;
      current = { run: runs, after: runs - 1, prompt: message, records: [] };
      inRun = true;
      started = false;
    }
    if (record.direction === "in" && record.type === "agent_start") started = true;
    current.records.push(i);
    if (inRun && record.direction === "in" && record.type === endType) {
      push();
      current = { run: null, after: runs, prompt: null, records: [] };
      inRun = false;
    }
  }
  push();
  return segments;
}

/** A message_update's step ("text_delta" …); "" for other updates. */
function stepOf(value: unknown): string {
  return str(asObject(asObject(value)?.["assistantMessageEvent"])?.["type"]) ?? "";
}

function itemsOf(side: CaptureSide, indexes: readonly number[]): CompareItem[] {
  const items: CompareItem[] = [];
  let open: { item: CompareItem; shape: Map<string, string>; steps: Set<string>; merged: number } | null = null;
  for (const index of indexes) {
    const record = side.records[index]!;
    if (open !== null && open.item.key === record.key && COLLAPSED.has(record.type)) {
      const step = stepOf(record.value);
      if (open.merged < MAX_MERGED && (open.item.count % MERGE_EVERY === 0 || !open.steps.has(step))) {
        open.steps.add(step);
        shapeOf(record.value, open.shape);
        open.merged++;
      }
      open.item.count++;
      continue;
    }
    if (open !== null) open.item.signature = signatureOf(open.shape);
    const shape = shapeOf(record.value);
    const item: CompareItem = { key: record.key, first: index, count: 1, shape, signature: "" };
    items.push(item);
    open = { item, shape, steps: new Set([stepOf(record.value)]), merged: 1 };
  }
  if (open !== null) open.item.signature = signatureOf(open.shape);
  return items;
}

// ---------------------------------------------------------------------------
// Alignment
// ---------------------------------------------------------------------------

/** Edit distance past which a segment is aligned greedily instead (Myers keeps O(D²) of trace). */
const MAX_EDITS = 1500;
/** How far the greedy fallback looks ahead for a key's counterpart. */
const LOOKAHEAD = 64;

/** Matched positions [i, j] of the longest common subsequence of a and b, or null past maxEdits. */
export function myersMatches(a: Int32Array, b: Int32Array, maxEdits = MAX_EDITS): [number, number][] | null {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(n + m, maxEdits);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice(offset - d, offset + d + 1));
        return backtrack(trace, n, m);
      }
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  return null;
}

function backtrack(trace: readonly Int32Array[], n: number, m: number): [number, number][] {
  const matches: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d - 1]!;
    const at = (k: number) => prev[k + d - 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) matches.push([--x, --y]);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) matches.push([--x, --y]);
  return matches.reverse();
}

/** Too different for Myers: pair equal keys walking forward, looking a little ahead on both sides. */
function greedyMatches(a: Int32Array, b: Int32Array): [number, number][] {
  const matches: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      matches.push([i++, j++]);
      continue;
    }
    let inB = -1;
    for (let s = j + 1; s < Math.min(b.length, j + LOOKAHEAD); s++) if (b[s] === a[i]) ((inB = s), (s = b.length));
    let inA = -1;
    for (let s = i + 1; s < Math.min(a.length, i + LOOKAHEAD); s++) if (a[s] === b[j]) ((inA = s), (s = a.length));
    if (inB !== -1 && (inA === -1 || inB - j <= inA - i)) j = inB;
    else if (inA !== -1) i = inA;
    else {
      i++;
      j++;
    }
  }
  return matches;
}

/** Matched positions of two key sequences: common ends trimmed, then Myers (or the greedy walk). */
export function alignKeys(a: Int32Array, b: Int32Array): [number, number][] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middleA = a.subarray(start, endA);
  const middleB = b.subarray(start, endB);
  const middle = middleA.length === 0 || middleB.length === 0 ? [] : (myersMatches(middleA, middleB) ?? greedyMatches(middleA, middleB));
  const matches: [number, number][] = [];
  for (let i = 0; i < start; i++) matches.push([i, i]);
  for (const [i, j] of middle) matches.push([i + start, j + start]);
  for (let i = 0; i < a.length - endA; i++) matches.push([endA + i, endB + i]);
  return matches;
}

function segmentTitle(segment: Segment): string {
  if (segment.run !== null) {
    const prompt = segment.prompt === null ? "" : `: “${segment.prompt.length > 60 ? `${segment.prompt.slice(0, 59)}…` : segment.prompt}”`;
    return `Run ${segment.run}${prompt}`;
  }
  return segment.after === 0 ? "Before the first run" : `After run ${segment.after}`;
}

/** The two captures, aligned. */
export function compareSides(a: CaptureSide, b: CaptureSide): Comparison {
  const segmentsA = segmentsOf(a);
  const segmentsB = segmentsOf(b);
  // A segment's place: what came before run 1 is 0, run 1 is 1, between runs 1 and 2 is 2 … (unique per side).
  const place = (s: Segment) => s.after * 2 + (s.run === null ? 0 : 1);
  const byPlaceA = new Map(segmentsA.map((s) => [place(s), s]));
  const byPlaceB = new Map(segmentsB.map((s) => [place(s), s]));
  const places = [...new Set([...byPlaceA.keys(), ...byPlaceB.keys()])].sort((x, y) => x - y);
  const order = places.map((p) => ({ a: byPlaceA.get(p) ?? null, b: byPlaceB.get(p) ?? null }));

  const keyIds = new Map<string, number>();
  const keyId = (key: string) => {
    let id = keyIds.get(key);
    if (id === undefined) keyIds.set(key, (id = keyIds.size));
    return id;
  };
  const rows: CompareRow[] = [];
  const summary: CompareSummary = {
    runsA: segmentsA.filter((s) => s.run !== null).length,
    runsB: segmentsB.filter((s) => s.run !== null).length,
    rows: 0,
    same: 0,
    changed: 0,
    onlyA: 0,
    onlyB: 0,
    typesOnlyA: [],
    typesOnlyB: [],
    fieldsOnlyA: [],
    fieldsOnlyB: [],
    fieldsChanged: [],
  };
  const fieldsOnlyA = new Set<string>();
  const fieldsOnlyB = new Set<string>();
  const fieldsChanged = new Set<string>();
  const push = (row: CompareRow) => {
    rows.push(row);
    if (row.kind !== "record") return;
    summary.rows++;
    if (row.status === "same") summary.same++;
    else if (row.status === "changed") summary.changed++;
    else if (row.status === "only-a") summary.onlyA++;
    else summary.onlyB++;
  };

  for (const pair of order) {
    const title = segmentTitle((pair.a ?? pair.b)!);
    const itemsA = pair.a === null ? [] : itemsOf(a, pair.a.records);
    const itemsB = pair.b === null ? [] : itemsOf(b, pair.b.records);
    rows.push({ kind: "title", title, status: pair.a === null ? "only-b" : pair.b === null ? "only-a" : "same" });
    const keysA = Int32Array.from(itemsA, (item) => keyId(item.key));
    const keysB = Int32Array.from(itemsB, (item) => keyId(item.key));
    let i = 0;
    let j = 0;
    const gapsUntil = (mi: number, mj: number) => {
      for (; i < mi; i++) push({ kind: "record", a: itemsA[i]!, b: null, status: "only-a", diff: null });
      for (; j < mj; j++) push({ kind: "record", a: null, b: itemsB[j]!, status: "only-b", diff: null });
    };
    for (const [mi, mj] of alignKeys(keysA, keysB)) {
      gapsUntil(mi, mj);
      const itemA = itemsA[i++]!;
      const itemB = itemsB[j++]!;
      if (itemA.signature === itemB.signature) {
        push({ kind: "record", a: itemA, b: itemB, status: "same", diff: null });
        continue;
      }
      const diff = diffShapes(itemA.shape, itemB.shape);
      for (const path of diff.onlyA) fieldsOnlyA.add(`${itemA.key} › ${path}`);
      for (const path of diff.onlyB) fieldsOnlyB.add(`${itemA.key} › ${path}`);
      for (const change of diff.changed) fieldsChanged.add(`${itemA.key} › ${change.path}`);
      push({ kind: "record", a: itemA, b: itemB, status: "changed", diff });
    }
    gapsUntil(itemsA.length, itemsB.length);
  }

  const keysOf = (side: CaptureSide) => new Set(side.records.map((r) => r.key));
  const allA = keysOf(a);
  const allB = keysOf(b);
  summary.typesOnlyA = [...allA].filter((k) => !allB.has(k)).sort();
  summary.typesOnlyB = [...allB].filter((k) => !allA.has(k)).sort();
  summary.fieldsOnlyA = [...fieldsOnlyA].sort();
  summary.fieldsOnlyB = [...fieldsOnlyB].sort();
  summary.fieldsChanged = [...fieldsChanged].sort();
  return { a, b, rows, summary };
}

// ---------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** The summary as short sentences, most telling first; one sentence when nothing differs. */
export function summaryLines(summary: CompareSummary): string[] {
  const lines: string[] = [];
  const typesDiffer = summary.typesOnlyA.length + summary.typesOnlyB.length;
  if (typesDiffer > 0) {
    const parts: string[] = [];
    if (summary.typesOnlyA.length > 0) parts.push(`only in A: ${summary.typesOnlyA.join(", ")}`);
    if (summary.typesOnlyB.length > 0) parts.push(`only in B: ${summary.typesOnlyB.join(", ")}`);
    lines.push(`${plural(typesDiffer, "record type")} ${typesDiffer === 1 ? "differs" : "differ"} (${parts.join("; ")})`);
  }
  const fields: string[] = [];
  if (summary.fieldsOnlyA.length > 0) fields.push(`${plural(summary.fieldsOnlyA.length, "field")} only in A`);
  if (summary.fieldsOnlyB.length > 0) fields.push(`${plural(summary.fieldsOnlyB.length, "field")} only in B`);
  if (summary.fieldsChanged.length > 0) fields.push(`${plural(summary.fieldsChanged.length, "field")} of another type`);
  if (fields.length > 0) lines.push(fields.join(", "));
  const rows: string[] = [];
  if (summary.changed > 0) rows.push(`${plural(summary.changed, "aligned record")} with another shape`);
  if (summary.onlyA > 0) rows.push(`${plural(summary.onlyA, "record")} only in A`);
  if (summary.onlyB > 0) rows.push(`${plural(summary.onlyB, "record")} only in B`);
  if (summary.runsA !== summary.runsB) rows.push(`runs: ${summary.runsA.toLocaleString("en")} in A, ${summary.runsB.toLocaleString("en")} in B`);
  if (rows.length > 0) lines.push(rows.join(", "));
  lines.push(`${summary.same.toLocaleString("en")} of ${plural(summary.rows, "row")} the same`);
  return lines;
}

// ---------------------------------------------------------------------------
// Values, on demand
// ---------------------------------------------------------------------------

export interface ValueDifference {
  path: string;
  a: string;
  b: string;
}

const VALUE_CHARS = 120;

function shortValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text;
}

/** Leaves present on both sides with the same type and another value (ids, times, text…), up to `limit`. */
export function valueDifferences(a: unknown, b: unknown, limit = 200): ValueDifference[] {
  const out: ValueDifference[] = [];
  const walk = (x: unknown, y: unknown, path: string, depth: number) => {
    if (out.length >= limit) return;
    const tx = jsonType(x);
    if (tx !== jsonType(y)) return; // a change of type is the shape diff's
    if (tx === "object" && depth < MAX_DEPTH * 2) {
      const ox = x as Record<string, unknown>;
      const oy = y as Record<string, unknown>;
      for (const key of Object.keys(ox)) if (key in oy) walk(ox[key], oy[key], path === "" ? key : `${path}.${key}`, depth + 1);
      return;
    }
    if (tx === "array" && depth < MAX_DEPTH * 2) {
      const ax = x as unknown[];
      const ay = y as unknown[];
      if (ax.length !== ay.length) out.push({ path: `${path}.length`, a: String(ax.length), b: String(ay.length) });
      for (let i = 0; i < Math.min(ax.length, ay.length); i++) walk(ax[i], ay[i], `${path}[${i}]`, depth + 1);
      return;
    }
    if (x !== y && JSON.stringify(x) !== JSON.stringify(y)) out.push({ path: path === "" ? "(the record)" : path, a: shortValue(x), b: shortValue(y) });
  };
  walk(a, b, "", 0);
  return out;
}
