// The swimlane model: who did what when, as lanes of instants and nested bars.
//
// Lanes (in the order they first appear):
//   browser:<clientId>  commands that browser sent (instants)
//   relay               the relay's frames (instants)
//   stderr              pi's stderr lines (instants)
//   pi                  nested bars: run (first agent_start … agent_settled)
//                       > agent (agent_start … agent_end), retry wait, compaction
//                       > turn > message (with its deltas counted) and tool
//                       executions, nested tool calls under their caller;
//                       other records as instants
//   extension-ui        dialogs as bars until answered or timed out, other
//                       requests as instants
// Each lane has rows (Lane.rows, in display order): the pi lane's are "run",
// "agent", "turn", "message", "tool", "tool+1" (calls made by a tool),
// "tool+2" …; a compaction outside any run (manual) sits on the "run" row.
// A row's bars rarely overlap, except parallel tool calls and dialogs (their
// `slot` says how to stack them). Bars opened during the relay's replay
// (hello … replay_end) are marked `replayed`: their times are replay times.
//
// Deltas are not bars: a message bar counts them and keeps a bounded,
// evenly thinned sample of their times for a density strip.
//
// Incremental and O(1) amortised per entry; bounded: beyond `maxRuns` run
// bars, everything that started before the oldest kept run is dropped (from
// every lane), and every row and lane keeps at most `maxItemsPerRow` items.
// Times are made monotonic (a clock that steps back is clamped) so rows stay
// sorted.

import { EXTENSION_UI_DIALOG_METHODS } from "@pier/protocol";
import { allItems, createTrack, dropFront, itemClosed, itemsIn, pushItem, trackSize, type BarTrack } from "./bar-track.ts";
import { asRecord, numberField, recordType, stringField, type JsonRecord, type WireEntry } from "./wire-entry.ts";

export type LaneKind = "browser" | "relay" | "stderr" | "pi" | "extension-ui";

export interface Lane {
  id: string;
  kind: LaneKind;
  label: string;
  /** Row names in display order. */
  rows: string[];
}

export type BarKind = "run" | "agent" | "retry" | "compaction" | "turn" | "message" | "tool" | "dialog";

/** Why a bar ended, when it was not its own closing record. */
export type BarEndCause = "settled" | "agent_end" | "turn_end" | "timeout" | "pi-exited" | "reconnected" | "superseded" | "retry-started" | "answered";

export interface DeltaCounts {
  text: number;
  thinking: number;
  toolcall: number;
  /** *_start / *_end steps and anything else inside message_update. */
  other: number;
}

export interface Bar {
  readonly id: number;
  readonly lane: string;
  readonly row: string;
  readonly kind: BarKind;
  label: string;
  start: number;
  end: number | null;
  startSeq: number;
  endSeq: number | null;
  /** How it ended when no record of its own closed it (endSeq is then the record that did). */
  endedBy: BarEndCause | null;
  parentId: number | null;
  /** Nesting level (run 0, agent 1, turn 2, message and tool 3, nested tool 4 …). */
  depth: number;
  /** Position in its row's track (absolute); used by the track. */
  index: number;
  /** Parallel bars in one row: 0, 1, 2 … (stack them). */
  slot: number;
  /** message bars */
  role?: string;
  deltas?: DeltaCounts;
  /** Times of a thinned sample of the deltas (at most MAX_DELTA_SAMPLES). */
  deltaTimes?: number[];
  /** Keep every deltaStride-th delta time. */
  deltaStride?: number;
  /** tool bars */
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
  updates?: number;
  /** pi's own measure (tool durationMs, message durationMs) when it gave one. */
  durationMs?: number;
  /** dialog bars */
  dialogId?: string;
  deadline?: number;
  /** Opened by a record of the relay's replay (hello … replay_end): its times are when it was replayed, not when it happened. */
  replayed?: true;
}

export interface Instant {
  readonly id: number;
  readonly lane: string;
  /** The record or frame type (the command type for a browser lane). */
  kind: string;
  label: string;
  start: number;
  end: number;
  seq: number;
  index: number;
}

export interface TimelineOptions {
  maxRuns?: number;
  maxItemsPerRow?: number;
}

interface LaneData {
  lane: Lane;
  rows: Map<string, BarTrack<Bar>>;
  instants: BarTrack<Instant>;
}

export interface TimelineModel {
  readonly maxRuns: number;
  readonly maxItemsPerRow: number;
  lanes: Map<string, LaneData>;
  nextId: number;
  lastAt: number;
  /** First and last time seen (for "fit to window"). */
  firstAt: number | null;
  /** open bars */
  run: Bar | null;
  agent: Bar | null;
  turn: Bar | null;
  message: Bar | null;
  retry: Bar | null;
  compaction: Bar | null;
  tools: Map<string, Bar>;
  /** Open tool slots per row. */
  toolSlots: Map<string, Set<number>>;
  dialogs: Map<string, Bar>;
  nextDialogDeadline: number;
  /** Closed run bars, oldest first (for the run bound). */
  runStarts: number[];
  runStartsHead: number;
  /** Open/close seq → bar, and seq → instant (bounded with them). */
  bySeq: Map<number, Bar | Instant>;
  turnsInRun: number;
  droppedBefore: number | null;
  /** Between hello and replay_end. */
  inReplay: boolean;
}

export const DEFAULT_MAX_RUNS = 200;
export const DEFAULT_MAX_ITEMS_PER_ROW = 20_000;
export const MAX_DELTA_SAMPLES = 256;
const DIALOG_METHODS: ReadonlySet<string> = new Set(EXTENSION_UI_DIALOG_METHODS);
const PI_ROWS = ["run", "agent", "turn", "message", "tool"];

export function createTimeline(options: TimelineOptions = {}): TimelineModel {
  return {
    maxRuns: Math.max(1, options.maxRuns ?? DEFAULT_MAX_RUNS),
    maxItemsPerRow: Math.max(16, options.maxItemsPerRow ?? DEFAULT_MAX_ITEMS_PER_ROW),
    lanes: new Map(),
    nextId: 1,
    lastAt: -Infinity,
    firstAt: null,
    run: null,
    agent: null,
    turn: null,
    message: null,
    retry: null,
    compaction: null,
    tools: new Map(),
    toolSlots: new Map(),
    dialogs: new Map(),
    nextDialogDeadline: Infinity,
    runStarts: [],
    runStartsHead: 0,
    bySeq: new Map(),
    turnsInRun: 0,
    droppedBefore: null,
    inReplay: false,
  };
}

// ---------------------------------------------------------------------------
// Lanes, bars, instants
// ---------------------------------------------------------------------------

function laneData(model: TimelineModel, id: string, kind: LaneKind, label: string): LaneData {
  let data = model.lanes.get(id);
  if (data === undefined) {
    data = { lane: { id, kind, label, rows: kind === "pi" ? [...PI_ROWS] : [] }, rows: new Map(), instants: createTrack<Instant>() };
    model.lanes.set(id, data);
  }
  return data;
}

function piLane(model: TimelineModel): LaneData {
  return laneData(model, "pi", "pi", "pi");
}

function rowTrack(data: LaneData, row: string): BarTrack<Bar> {
  let track = data.rows.get(row);
  if (track === undefined) {
    track = createTrack<Bar>();
    data.rows.set(row, track);
    if (!data.lane.rows.includes(row)) data.lane.rows.push(row);
  }
  return track;
}

function capTrack<T extends Bar | Instant>(model: TimelineModel, track: BarTrack<T>): void {
  if (trackSize(track) <= model.maxItemsPerRow) return;
  let excess = trackSize(track) - model.maxItemsPerRow;
  for (const item of dropFront(track, () => excess-- > 0)) forget(model, item);
}

function forget(model: TimelineModel, item: Bar | Instant): void {
  if ("startSeq" in item) {
    if (model.bySeq.get(item.startSeq) === item) model.bySeq.delete(item.startSeq);
    if (item.endSeq !== null && model.bySeq.get(item.endSeq) === item) model.bySeq.delete(item.endSeq);
  } else if (model.bySeq.get(item.seq) === item) {
    model.bySeq.delete(item.seq);
  }
}

function openBar(model: TimelineModel, laneId: string, row: string, kind: BarKind, label: string, at: number, seq: number, parent: Bar | null, extra: Partial<Bar> = {}): Bar {
  const data = laneId === "pi" ? piLane(model) : laneData(model, laneId, "extension-ui", "extension UI");
  const bar: Bar = {
    id: model.nextId++,
    lane: laneId,
    row,
    kind,
    label,
    start: at,
    end: null,
    startSeq: seq,
    endSeq: null,
    endedBy: null,
    parentId: parent?.id ?? null,
    depth: parent === null ? 0 : parent.depth + 1,
    index: 0,
    slot: 0,
    ...extra,
  };
  if (model.inReplay) bar.replayed = true;
  const track = rowTrack(data, row);
  pushItem(track, bar);
  capTrack(model, track);
  model.bySeq.set(seq, bar);
  return bar;
}

function closeBar(model: TimelineModel, bar: Bar | null, at: number, seq: number, endedBy: BarEndCause | null = null): void {
  if (bar === null || bar.end !== null) return;
  bar.end = Math.max(at, bar.start);
  bar.endSeq = seq;
  bar.endedBy = endedBy;
  const track = model.lanes.get(bar.lane)?.rows.get(bar.row);
  if (track !== undefined) itemClosed(track, bar);
  if (!model.bySeq.has(seq)) model.bySeq.set(seq, bar);
}

function addInstant(model: TimelineModel, laneId: string, kind: LaneKind, laneLabel: string, type: string, label: string, at: number, seq: number): void {
  const data = laneData(model, laneId, kind, laneLabel);
  const instant: Instant = { id: model.nextId++, lane: laneId, kind: type, label, start: at, end: at, seq, index: 0 };
  pushItem(data.instants, instant);
  capTrack(model, data.instants);
  if (!model.bySeq.has(seq)) model.bySeq.set(seq, instant);
}

// ---------------------------------------------------------------------------
// Feeding entries
// ---------------------------------------------------------------------------

/** Feed one entry (in arrival order). */
export function applyTimeline(model: TimelineModel, entry: WireEntry): void {
  // Monotonic time keeps every row sorted by start.
  const at = Math.max(entry.at, model.lastAt);
  model.lastAt = at;
  if (model.firstAt === null) model.firstAt = at;
  if (at >= model.nextDialogDeadline) expireDialogs(model, at, entry.seq);
  const record = asRecord(entry.value);
  const type = recordType(record);
  if (entry.direction === "out") onSent(model, entry, record, type, at);
  else if (entry.direction === "relay") onRelayFrame(model, entry, record, type, at);
  else onStdout(model, entry, record, type, at);
}

function onSent(model: TimelineModel, entry: WireEntry, record: JsonRecord | null, type: string | null, at: number): void {
  const clientId = entry.sender?.clientId ?? "local";
  const laneLabel = entry.sender?.name ?? clientId;
  const id = stringField(record, "id");
  addInstant(model, `browser:${clientId}`, "browser", laneLabel, type ?? "invalid", type ?? "(not JSON)", at, entry.seq);
  if (type === "extension_ui_response" && id !== null) {
    const dialog = model.dialogs.get(id);
    if (dialog !== undefined) {
      model.dialogs.delete(id);
      closeBar(model, dialog, at, entry.seq, "answered");
      if (record?.["cancelled"] === true) dialog.label += " (cancelled)";
    }
  }
}

function onRelayFrame(model: TimelineModel, entry: WireEntry, record: JsonRecord | null, type: string | null, at: number): void {
  if (type === "stderr") {
    const line = stringField(record, "line") ?? "";
    addInstant(model, "stderr", "stderr", "stderr", "stderr", line.length > 200 ? `${line.slice(0, 200)}…` : line, at, entry.seq);
    return;
  }
  addInstant(model, "relay", "relay", "relay", type ?? "invalid", type ?? "(not JSON)", at, entry.seq);
  if (type === "child_started" || type === "child_exited") closeEverything(model, at, entry.seq, "pi-exited");
  else if (type === "hello") {
    closeEverything(model, at, entry.seq, "reconnected");
    model.inReplay = true;
  } else if (type === "replay_end") model.inReplay = false;
}

function onStdout(model: TimelineModel, entry: WireEntry, record: JsonRecord | null, type: string | null, at: number): void {
  const seq = entry.seq;
  switch (type) {
    case "message_update":
      countDelta(model, record, at, seq);
      return;
    case "agent_start": {
      if (model.run === null) {
        model.run = openBar(model, "pi", "run", "run", "run", at, seq, null);
        model.turnsInRun = 0;
      }
      closeBar(model, model.retry, at, seq, "retry-started");
      closeBar(model, model.agent, at, seq, "superseded");
      const retrying = model.retry !== null;
      model.retry = null;
      model.agent = openBar(model, "pi", "agent", "agent", retrying ? "agent (retry)" : "agent", at, seq, model.run);
      return;
    }
    case "agent_end":
      closeBar(model, model.message, at, seq, "agent_end");
      closeBar(model, model.turn, at, seq, "agent_end");
      closeBar(model, model.agent, at, seq);
      model.message = model.turn = model.agent = null;
      return;
    case "agent_settled":
      settle(model, at, seq, record);
      return;
    case "turn_start":
      closeBar(model, model.turn, at, seq, "superseded");
      model.turnsInRun++;
      model.turn = openBar(model, "pi", "turn", "turn", `turn ${model.turnsInRun}`, at, seq, model.agent ?? model.run);
      return;
    case "turn_end":
      closeBar(model, model.message, at, seq, "turn_end");
      closeBar(model, model.turn, at, seq);
      model.message = model.turn = null;
      return;
    case "message_start": {
      closeBar(model, model.message, at, seq, "superseded");
      const message = asRecord(record?.["message"]);
      const role = stringField(message, "role") ?? "?";
      model.message = openBar(model, "pi", "message", "message", messageLabel(role, message), at, seq, model.turn ?? model.agent ?? model.run, {
        role,
        deltas: { text: 0, thinking: 0, toolcall: 0, other: 0 },
        deltaTimes: [],
        deltaStride: 1,
      });
      return;
    }
    case "message_end": {
      const message = asRecord(record?.["message"]);
      const bar = model.message;
      if (bar !== null) {
        const duration = numberField(message, "durationMs");
        if (duration !== null) bar.durationMs = duration;
        const stop = stringField(message, "stopReason");
        if (stop === "error" || stop === "aborted") bar.label += ` (${stop})`;
      }
      closeBar(model, bar, at, seq);
      model.message = null;
      return;
    }
    case "tool_execution_start":
      startTool(model, record, at, seq);
      return;
    case "tool_execution_update": {
      const bar = model.tools.get(stringField(record, "toolCallId") ?? "");
      if (bar !== undefined) bar.updates = (bar.updates ?? 0) + 1;
      return;
    }
    case "tool_execution_end":
      endTool(model, record, at, seq);
      return;
    case "auto_retry_start": {
      closeBar(model, model.retry, at, seq, "superseded");
      const attempt = numberField(record, "attempt");
      const max = numberField(record, "maxAttempts");
      const delay = numberField(record, "delayMs");
      const label = `retry wait${attempt !== null && max !== null ? ` ${attempt}/${max}` : ""}${delay !== null ? ` (${delay} ms)` : ""}`;
      model.retry = openBar(model, "pi", "agent", "retry", label, at, seq, model.run);
      addInstant(model, "pi", "pi", "pi", type, label, at, seq);
      return;
    }
    case "auto_retry_end":
      closeBar(model, model.retry, at, seq);
      model.retry = null;
      addInstant(model, "pi", "pi", "pi", type, record?.["success"] === true ? "retry succeeded" : "retry gave up", at, seq);
      return;
    case "compaction_start": {
      closeBar(model, model.compaction, at, seq, "superseded");
      const reason = stringField(record, "reason") ?? "?";
      model.compaction = openBar(model, "pi", model.run === null ? "run" : "agent", "compaction", `compaction (${reason})`, at, seq, model.run);
      return;
    }
    case "compaction_end":
      if (model.compaction !== null && asRecord(record?.["result"]) === null) model.compaction.label += record?.["aborted"] === true ? " aborted" : " failed";
      closeBar(model, model.compaction, at, seq);
      model.compaction = null;
      return;
    case "extension_ui_request":
      onExtensionUi(model, record, at, seq);
      return;
    case "response": {
      const command = stringField(record, "command") ?? "?";
      addInstant(model, "pi", "pi", "pi", "response", `${command} ${record?.["success"] === false ? "✗" : "✓"}`, at, seq);
      return;
    }
    default:
      addInstant(model, "pi", "pi", "pi", type ?? "invalid", type ?? "(not JSON)", at, seq);
  }
}

function messageLabel(role: string, message: JsonRecord | null): string {
  if (role === "system") return "system prompt";
  if (role === "toolResult") return `result: ${stringField(message, "toolName") ?? "?"}`;
  return role;
}

function countDelta(model: TimelineModel, record: JsonRecord | null, at: number, seq: number): void {
  let bar = model.message;
  if (bar === null) {
    // Deltas with no message_start (a replay that began mid-message).
    bar = model.message = openBar(model, "pi", "message", "message", "assistant", at, seq, model.turn ?? model.agent ?? model.run, {
      role: "assistant",
      deltas: { text: 0, thinking: 0, toolcall: 0, other: 0 },
      deltaTimes: [],
      deltaStride: 1,
    });
  }
  const deltas = bar.deltas!;
  const step = recordType(record?.["assistantMessageEvent"]);
  if (step === "text_delta") deltas.text++;
  else if (step === "thinking_delta") deltas.thinking++;
  else if (step === "toolcall_delta") deltas.toolcall++;
  else deltas.other++;
  const count = deltas.text + deltas.thinking + deltas.toolcall + deltas.other;
  // Keep every stride-th time; when full, halve the sample and double the stride.
  const stride = bar.deltaStride!;
  if ((count - 1) % stride !== 0) return;
  const times = bar.deltaTimes!;
  times.push(at);
  if (times.length >= MAX_DELTA_SAMPLES) {
    let kept = 0;
    for (let i = 0; i < times.length; i += 2) times[kept++] = times[i]!;
    times.length = kept;
    bar.deltaStride = stride * 2;
  }
}

function startTool(model: TimelineModel, record: JsonRecord | null, at: number, seq: number): void {
  const id = stringField(record, "toolCallId") ?? `?${seq}`;
  const name = stringField(record, "toolName") ?? "?";
  const parentId = stringField(record, "parentToolCallId");
  const caller = parentId === null ? undefined : model.tools.get(parentId);
  const nesting = caller === undefined ? 0 : Number(caller.row === "tool" ? 0 : caller.row.slice(5)) + 1;
  const row = nesting === 0 ? "tool" : `tool+${nesting}`;
  closeBar(model, model.tools.get(id) ?? null, at, seq, "superseded");
  const bar = openBar(model, "pi", row, "tool", name, at, seq, caller ?? model.turn ?? model.agent ?? model.run, {
    toolCallId: id,
    toolName: name,
    updates: 0,
    slot: takeSlot(model, row),
  });
  model.tools.set(id, bar);
}

function takeSlot(model: TimelineModel, row: string): number {
  let used = model.toolSlots.get(row);
  if (used === undefined) model.toolSlots.set(row, (used = new Set()));
  let slot = 0;
  while (used.has(slot)) slot++;
  used.add(slot);
  return slot;
}

function finishTool(model: TimelineModel, bar: Bar, at: number, seq: number, endedBy: BarEndCause | null): void {
  closeBar(model, bar, at, seq, endedBy);
  model.tools.delete(bar.toolCallId ?? "");
  model.toolSlots.get(bar.row)?.delete(bar.slot);
}

function endTool(model: TimelineModel, record: JsonRecord | null, at: number, seq: number): void {
  const bar = model.tools.get(stringField(record, "toolCallId") ?? "");
  if (bar === undefined) {
    addInstant(model, "pi", "pi", "pi", "tool_execution_end", `${stringField(record, "toolName") ?? "?"} ended (start not seen)`, at, seq);
    return;
  }
  bar.isError = record?.["isError"] === true;
  const duration = numberField(record, "durationMs");
  if (duration !== null) bar.durationMs = duration;
  finishTool(model, bar, at, seq, null);
}

function settle(model: TimelineModel, at: number, seq: number, record: JsonRecord | null): void {
  for (const bar of [...model.tools.values()]) finishTool(model, bar, at, seq, "settled");
  for (const bar of [model.message, model.turn, model.agent, model.retry, model.compaction]) closeBar(model, bar, at, seq, "settled");
  model.message = model.turn = model.agent = model.retry = model.compaction = null;
  const run = model.run;
  if (run === null) {
    addInstant(model, "pi", "pi", "pi", "agent_settled", "settled (no run seen)", at, seq);
    return;
  }
  if (record?.["aborted"] === true) run.label = "run (aborted)";
  closeBar(model, run, at, seq);
  model.run = null;
  model.runStarts.push(run.start);
  if (model.runStarts.length - model.runStartsHead > model.maxRuns) dropOldestRun(model);
}

function closeEverything(model: TimelineModel, at: number, seq: number, cause: BarEndCause): void {
  for (const bar of [...model.tools.values()]) finishTool(model, bar, at, seq, cause);
  for (const bar of model.dialogs.values()) closeBar(model, bar, at, seq, cause);
  model.dialogs.clear();
  model.nextDialogDeadline = Infinity;
  for (const bar of [model.message, model.turn, model.agent, model.retry, model.compaction, model.run]) closeBar(model, bar, at, seq, cause);
  const run = model.run;
  model.message = model.turn = model.agent = model.retry = model.compaction = model.run = null;
  if (run !== null) {
    model.runStarts.push(run.start);
    if (model.runStarts.length - model.runStartsHead > model.maxRuns) dropOldestRun(model);
  }
}

/** Forget everything that started before the second-oldest kept run. */
function dropOldestRun(model: TimelineModel): void {
  model.runStartsHead++;
  const cutoff = model.runStarts[model.runStartsHead]!;
  if (model.runStartsHead > 1024 && model.runStartsHead * 2 > model.runStarts.length) {
    model.runStarts = model.runStarts.slice(model.runStartsHead);
    model.runStartsHead = 0;
  }
  model.droppedBefore = cutoff;
  for (const data of model.lanes.values()) {
    for (const track of data.rows.values()) for (const bar of dropFront(track, (b) => b.start < cutoff)) forget(model, bar);
    for (const instant of dropFront(data.instants, (i) => i.start < cutoff)) forget(model, instant);
  }
}

function onExtensionUi(model: TimelineModel, record: JsonRecord | null, at: number, seq: number): void {
  const method = stringField(record, "method") ?? "?";
  const id = stringField(record, "id");
  const title = stringField(record, "title") ?? stringField(record, "message") ?? "";
  const label = title === "" ? method : `${method}: ${title.length > 80 ? `${title.slice(0, 80)}…` : title}`;
  if (!DIALOG_METHODS.has(method) || id === null) {
    addInstant(model, "extension-ui", "extension-ui", "extension UI", method, label, at, seq);
    return;
  }
  closeBar(model, model.dialogs.get(id) ?? null, at, seq, "superseded");
  const timeout = numberField(record, "timeout");
  const deadline = timeout !== null && timeout > 0 ? at + timeout : undefined;
  const bar = openBar(model, "extension-ui", "dialog", "dialog", label, at, seq, null, { dialogId: id, ...(deadline === undefined ? {} : { deadline }) });
  bar.slot = model.dialogs.size;
  model.dialogs.set(id, bar);
  if (deadline !== undefined) model.nextDialogDeadline = Math.min(model.nextDialogDeadline, deadline);
}

/** pi resolves a dialog's default by itself once its timeout passes, and says nothing. */
function expireDialogs(model: TimelineModel, at: number, seq: number): void {
  let next = Infinity;
  for (const [id, bar] of model.dialogs) {
    if (bar.deadline === undefined) continue;
    if (bar.deadline <= at) {
      closeBar(model, bar, bar.deadline, seq, "timeout");
      model.dialogs.delete(id);
    } else {
      next = Math.min(next, bar.deadline);
    }
  }
  model.nextDialogDeadline = next;
}

// ---------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------

/** Lanes in the order they first appeared. */
export function listLanes(model: TimelineModel): Lane[] {
  return [...model.lanes.values()].map((data) => data.lane);
}

/** Bars intersecting [fromMs, toMs] (open bars reach +∞), optionally of one lane; per row in start order. */
export function visibleBars(model: TimelineModel, fromMs: number, toMs: number, laneId?: string): Bar[] {
  const out: Bar[] = [];
  for (const data of model.lanes.values()) {
    if (laneId !== undefined && data.lane.id !== laneId) continue;
    for (const track of data.rows.values()) itemsIn(track, fromMs, toMs, out);
  }
  return out;
}

/** Instants within [fromMs, toMs], optionally of one lane; per lane in time order. */
export function visibleInstants(model: TimelineModel, fromMs: number, toMs: number, laneId?: string): Instant[] {
  const out: Instant[] = [];
  for (const data of model.lanes.values()) {
    if (laneId !== undefined && data.lane.id !== laneId) continue;
    itemsIn(data.instants, fromMs, toMs, out);
  }
  return out;
}

/** Every bar kept (tests, exports). */
export function allBars(model: TimelineModel): Bar[] {
  const out: Bar[] = [];
  for (const data of model.lanes.values()) for (const track of data.rows.values()) out.push(...allItems(track));
  return out;
}

/** The bar a record opened or closed, or the instant it made; for linking a record to the timeline. */
export function timelineItemAt(model: TimelineModel, seq: number): Bar | Instant | undefined {
  return model.bySeq.get(seq);
}

/** Bars still running. */
export function openBars(model: TimelineModel): Bar[] {
  const out: Bar[] = [];
  for (const bar of [model.run, model.agent, model.retry, model.compaction, model.turn, model.message]) if (bar !== null) out.push(bar);
  out.push(...model.tools.values(), ...model.dialogs.values());
  return out;
}

/** The time span covered, for "fit to window"; null before the first entry. */
export function timeExtent(model: TimelineModel): { from: number; to: number } | null {
  return model.firstAt === null ? null : { from: model.droppedBefore ?? model.firstAt, to: model.lastAt };
}
