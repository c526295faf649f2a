// The flow graph's model: the wire as a sequence diagram. Lanes for the
// browsers that sent commands (or, under `pier tap`, the user's own client),
// the relay and pi; one arrow per command, response, dialog, relay frame and
// event, in arrival order (the vertical axis is the order, not the clock: a
// gap is marked, not drawn to scale); a run of streamed deltas
// (message_update, tool_execution_update) is one arrow with a count.
//
// Fed from the record log after the other models (pairing has seen each entry
// already, so a response knows its command): syncFlow tests only the entries
// appended since the last sync, and O(1) each (a delta extends the run before
// it); entries the log dropped leave from the front. Nothing here is redone
// per record for the whole log, so a 100,000-record stream costs what its
// appends cost.
//
// Pairing is drawn from `partner`: a command and its response (a dialog and
// its answer, a command and the relay's refusal) link to each other's item,
// and their span (the time pi had the command) is kept for the lifeline's
// activation bar (spansAt).

import { entryValue, logEntry, type LogEntry, type LogSender, type RecordLog } from "../pi-state/record-log.ts";
import { pairOf, type PairingState } from "./pairing.ts";
import { asRecord } from "./wire-entry.ts";

export type FlowLaneKind = "browser" | "client" | "relay" | "pi";

export interface FlowLane {
  id: string;
  kind: FlowLaneKind;
  label: string;
}

export type ArrowKind =
  /** A command to pi (browser → relay → pi, drawn browser → pi). */
  | "command"
  /** A browser's answer to an extension dialog (browser → pi). */
  | "answer"
  /** A request to the relay itself (`pier.*`): browser → relay. */
  | "request"
  /** pi's response, to the browser that asked. */
  | "response"
  /** pi's extension dialog request, to every browser. */
  | "dialog"
  /** Any other record of pi's stdout, to every browser. */
  | "event"
  /** A run of streamed deltas, folded into one arrow. */
  | "deltas"
  /** A relay frame, to this page. */
  | "relay"
  /** pi's stderr, read by the relay. */
  | "stderr"
  /** The relay refused a command: it never reached pi. */
  | "refusal";

export interface FlowItem {
  /** Absolute position (items dropped from the front keep the others' indexes). */
  readonly index: number;
  kind: ArrowKind;
  /** The record (a run's first delta). */
  readonly seq: number;
  /** A run's last delta (its members are the seqs seq … lastSeq: a run is never split by another record). */
  lastSeq: number;
  count: number;
  readonly at: number;
  lastAt: number;
  from: string;
  /** A lane id, or AUDIENCE (every browser; under a tap, the client). */
  to: string;
  /** The record type (a command's type, a response's command). */
  label: string;
  /** A short hint (the record log's detail: a response's outcome, a delta's step, a tool's name). */
  detail: string;
  /** The pair (pairing.ts) a command, response, dialog or answer belongs to. */
  pairKey: number | null;
  /** The item at the pair's other end, while both are held. */
  partner: number | null;
}

/** A command (or dialog) and its answer: rows `from` … `to` (item indexes). */
export interface FlowSpan {
  from: number;
  to: number;
  pairKey: number;
}

export interface FlowModel {
  items: FlowItem[];
  /** Absolute index of items[0]. */
  base: number;
  lanes: Map<string, FlowLane>;
  /** A `pier tap` page: the commands are the user's own client's. */
  tap: boolean;
  /** The next log seq to look at. */
  scannedTo: number;
  /** First item of a pair whose other end has not come yet, by pair key. */
  waiting: Map<number, number>;
  /** Linked pairs no longer than LONG_SPAN items, in the order they closed (so by `to`). */
  spans: FlowSpan[];
  /** Longer ones (few: a prompt's dialog, an abort that waits on the run). */
  longSpans: FlowSpan[];
  /** Bumps on every change (views look again). */
  changes: number;
}

export const SELF_LANE = "self";
export const CLIENT_LANE = "client";
export const RELAY_LANE = "relay";
export const PI_LANE = "pi";
/** The `to` of a broadcast: pi's output goes to every browser (under a tap, to the client). */
export const AUDIENCE = "*";
/** Record types folded into runs. */
export const DELTA_TYPES: ReadonlySet<string> = new Set(["message_update", "tool_execution_update"]);
/** Spans longer than this many items are kept apart (spansAt scans them all). */
export const LONG_SPAN = 256;

export function createFlow(): FlowModel {
  const model: FlowModel = { items: [], base: 0, lanes: new Map(), tap: false, scannedTo: 1, waiting: new Map(), spans: [], longSpans: [], changes: 0 };
  return model;
}

/** Catch up with the log (entries appended since the last sync; dropped ones leave). Returns whether anything changed. */
export function syncFlow(model: FlowModel, log: RecordLog, pairing: PairingState): boolean {
  const before = model.changes;
  if (model.scannedTo > log.nextSeq) {
    // The log started again (a replay went back to its start): so does the graph.
    Object.assign(model, createFlow());
    model.changes = before + 1;
  }
  for (let seq = Math.max(model.scannedTo, log.firstSeq); seq < log.nextSeq; seq++) {
    const entry = logEntry(log, seq);
    if (entry !== undefined) appendFlow(model, entry, pairing);
  }
  model.scannedTo = log.nextSeq;
  dropBefore(model, log.firstSeq);
  return model.changes !== before;
}

/** Count of items held. */
export function flowSize(model: FlowModel): number {
  return model.items.length;
}

/** The item at an absolute index, while held. */
export function flowItem(model: FlowModel, index: number): FlowItem | undefined {
  return model.items[index - model.base];
}

function laneFor(model: FlowModel, sender: LogSender | null | undefined): string {
  if (model.tap && sender?.self !== true) return ensureLane(model, CLIENT_LANE, "client", "RPC client");
  // The pairing keeps this page's commands under one sender, SELF_SENDER (clientId "self").
  if (sender === null || sender === undefined || sender.self === true || sender.clientId === "self") return ensureLane(model, SELF_LANE, "browser", "this browser");
  const id = `browser:${sender.clientId}`;
  ensureLane(model, id, "browser", sender.name ?? `browser ${sender.clientId.slice(0, 8)}`);
  // A name told later (the relay's command_sent) is the better label.
  if (sender.name !== undefined) model.lanes.get(id)!.label = sender.name;
  return id;
}

function ensureLane(model: FlowModel, id: string, kind: FlowLaneKind, label: string): string {
  if (!model.lanes.has(id)) model.lanes.set(id, { id, kind, label });
  return id;
}

/** Append one log entry (in order). */
export function appendFlow(model: FlowModel, entry: LogEntry, pairing: PairingState): void {
  model.changes++;
  const { direction, type } = entry;
  if (direction === "in" && DELTA_TYPES.has(type)) {
    const last = model.items[model.items.length - 1];
    // A run goes on while nothing else came between (arrival order is the axis).
    if (last !== undefined && last.kind === "deltas" && last.label === type && last.lastSeq === entry.seq - 1) {
      last.lastSeq = entry.seq;
      last.lastAt = entry.time;
      last.count++;
      if (last.detail !== entry.detail) last.detail = "";
      return;
    }
    push(model, entry, "deltas", PI_LANE, AUDIENCE, null);
    return;
  }
  const pair = pairOf(pairing, entry.seq);
  if (direction === "out") {
    const from = laneFor(model, entry.sender);
    if (type === "extension_ui_response") push(model, entry, "answer", from, PI_LANE, pair?.kind === "dialog" ? pair.key : null);
    else if (type.startsWith("pier.")) push(model, entry, "request", from, RELAY_LANE, null);
    else push(model, entry, "command", from, PI_LANE, pair?.kind === "command" ? pair.key : null);
    return;
  }
  if (direction === "in") {
    if (type === "response") {
      const to = pair === undefined ? laneFor(model, null) : laneFor(model, pair.sender);
      push(model, entry, "response", PI_LANE, to, pair?.key ?? null);
    } else if (type === "extension_ui_request") {
      push(model, entry, "dialog", PI_LANE, AUDIENCE, pair?.kind === "dialog" ? pair.key : null);
    } else {
      push(model, entry, "event", PI_LANE, AUDIENCE, null);
    }
    return;
  }
  // A relay frame.
  if (type === "hello") noteHello(model, entry);
  if (type === "stderr") push(model, entry, "stderr", PI_LANE, RELAY_LANE, null);
  else if (type === "error" && pair !== undefined && pair.responseSeq === entry.seq) push(model, entry, "refusal", RELAY_LANE, laneFor(model, pair.sender), pair.key);
  else push(model, entry, "relay", RELAY_LANE, model.tap ? RELAY_LANE : laneFor(model, null), null);
}

/** A tap's hello: the commands from now on are the client's (its name from the hello). */
function noteHello(model: FlowModel, entry: LogEntry): void {
  const tap = asRecord(asRecord(entryValue(entry))?.["tap"]);
  if (tap === null) return;
  model.tap = true;
  const name = tap["client"];
  ensureLane(model, CLIENT_LANE, "client", "RPC client");
  if (typeof name === "string" && name !== "") model.lanes.get(CLIENT_LANE)!.label = name;
}

function push(model: FlowModel, entry: LogEntry, kind: ArrowKind, from: string, to: string, pairKey: number | null): void {
  const index = model.base + model.items.length;
  const item: FlowItem = { index, kind, seq: entry.seq, lastSeq: entry.seq, count: 1, at: entry.time, lastAt: entry.time, from, to, label: entry.type, detail: entry.detail, pairKey, partner: null };
  model.items.push(item);
  if (pairKey === null) return;
  const other = model.waiting.get(pairKey);
  if (other === undefined) {
    // Only a pair's first end waits (a command, a dialog); an answer whose asking this page never saw links to nothing.
    if (kind === "command" || kind === "dialog") model.waiting.set(pairKey, index);
    return;
  }
  model.waiting.delete(pairKey);
  const first = flowItem(model, other);
  if (first === undefined) return;
  first.partner = index;
  item.partner = other;
  const span: FlowSpan = { from: other, to: index, pairKey };
  (index - other > LONG_SPAN ? model.longSpans : model.spans).push(span);
}

/** Forget the items of entries the log dropped (amortised O(1) per item; the long spans are a handful). */
function dropBefore(model: FlowModel, firstSeq: number): void {
  let drop = 0;
  while (drop < model.items.length && model.items[drop]!.lastSeq < firstSeq) drop++;
  if (drop === 0) return;
  model.items.splice(0, drop);
  model.base += drop;
  model.changes++;
  for (const [key, index] of model.waiting) {
    if (index >= model.base) break;
    model.waiting.delete(key);
  }
  let s = 0;
  while (s < model.spans.length && model.spans[s]!.from < model.base) s++;
  if (s > 0) model.spans.splice(0, s);
  if (model.longSpans.length > 0) model.longSpans = model.longSpans.filter((span) => span.from >= model.base);
  // A partner dropped is found gone by flowItem (undefined): no pass over the items.
}

/** Pairs whose span covers item `index` (command above or at it, answer below or at it), and pairs still waiting that began at or above it. */
export function spansAt(model: FlowModel, index: number): FlowSpan[] {
  const out: FlowSpan[] = [];
  const spans = model.spans;
  // Spans are in order of `to`: the first ending at or after `index`, then on while one could still start at or before it.
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]!.to < index) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < spans.length && spans[i]!.to - LONG_SPAN <= index; i++) if (spans[i]!.from <= index) out.push(spans[i]!);
  for (const span of model.longSpans) if (span.from <= index && span.to >= index) out.push(span);
  return out;
}

/** Commands (and dialogs) still waiting for their other end, with their first item: drawn open to the bottom. */
export function waitingAt(model: FlowModel, index: number): { from: number; pairKey: number }[] {
  const out: { from: number; pairKey: number }[] = [];
  for (const [pairKey, from] of model.waiting) {
    const item = flowItem(model, from);
    if (from <= index && item !== undefined) out.push({ from, pairKey });
  }
  return out;
}

/** The lanes left to right: the browsers (this one first) or the tap's client, then the relay and pi. */
export function flowLanes(model: FlowModel): FlowLane[] {
  const lanes: FlowLane[] = [];
  const self = model.lanes.get(SELF_LANE);
  const client = model.lanes.get(CLIENT_LANE);
  if (model.tap) {
    lanes.push(client ?? { id: CLIENT_LANE, kind: "client", label: "RPC client" });
    if (self !== undefined) lanes.push(self);
  } else {
    lanes.push(self ?? { id: SELF_LANE, kind: "browser", label: "this browser" });
    if (client !== undefined) lanes.push(client);
  }
  for (const lane of model.lanes.values()) if (lane.id !== SELF_LANE && lane.id !== CLIENT_LANE) lanes.push(lane);
  lanes.push({ id: RELAY_LANE, kind: "relay", label: model.tap ? "pier tap" : "relay" }, { id: PI_LANE, kind: "pi", label: "pi" });
  return lanes;
}

/** The lanes an arrow ends at: its `to`, or for a broadcast every browser (the client under a tap). */
export function arrowTargets(model: FlowModel, lanes: readonly FlowLane[], item: FlowItem): string[] {
  if (item.to !== AUDIENCE) return [item.to];
  const kind: FlowLaneKind = model.tap ? "client" : "browser";
  return lanes.filter((lane) => lane.kind === kind).map((lane) => lane.id);
}

/** A pair's colour slot (0 … n-1): a command and its answer share it. */
export function pairSlot(pairKey: number, n: number): number {
  return ((pairKey % n) + n) % n;
}

/** The index of the first seq ≥ `first` in a sorted list (its length when none is). */
export function firstAtOrAfter(sortedSeqs: readonly number[], first: number): number {
  let lo = 0;
  let hi = sortedSeqs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sortedSeqs[mid]! < first) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether a sorted list of seqs holds one in first … last (a run's warning). */
export function anyInRange(sortedSeqs: readonly number[], first: number, last: number): boolean {
  const at = firstAtOrAfter(sortedSeqs, first);
  return at < sortedSeqs.length && sortedSeqs[at]! <= last;
}

/** Who a broadcast goes to, in words: every browser, or a tap's client. */
export function audienceWords(model: FlowModel): string {
  return model.tap ? (model.lanes.get(CLIENT_LANE)?.label ?? "RPC client") : "every browser";
}

/** An arrow in words (its accessible name, and the SVG's title). */
export function arrowWords(item: FlowItem, laneLabel: (id: string) => string, audience = "every browser"): string {
  const to = item.to === AUDIENCE ? audience : laneLabel(item.to);
  const what = item.kind === "deltas" ? `${item.count.toLocaleString("en")} × ${item.label}` : item.label;
  const detail = item.detail === "" ? "" : ` (${item.detail})`;
  return `${what}${detail}: ${laneLabel(item.from)} → ${to}`;
}
