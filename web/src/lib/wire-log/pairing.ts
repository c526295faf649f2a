// Pairs every command with pi's response to it, and every prompt with the run
// it started: the inspector's "request ↔ response" and "run span" views.
//
// Incremental and O(1) per entry: feed entries in arrival order with
// applyPairing. Memory is bounded: beyond `maxPairs` the oldest pairs are
// forgotten, beyond `maxRuns` the oldest runs.
//
// Pairs:
// - a command ("out", with an id) and the "in" response with the same id; a
//   command without an id is matched with the next id-less response to the
//   same command type (pi answers in order for those, and Pier always sends
//   ids anyway);
// - a response whose command this browser never saw (sent before it
//   connected, or by a client the relay did not announce) becomes a pair
//   without a command; its sender is read from the id when it has Pier's
//   `${clientId}:${n}` shape;
// - a relay `error` frame naming a command's id answers it: the relay refused
//   it and pi never saw it ("refused");
// - a new pi child (child_started / child_exited) will never answer what the
//   old one was asked: pending commands become "lost";
// - an extension dialog (extension_ui_request select/confirm/input/editor)
//   and the extension_ui_response that answers it (kind "dialog": the
//   request is pi's, in `commandSeq`; the answer is a browser's, in
//   `responseSeq`).
//
// Runs: a run is pi working on its own from an accepted prompt to the
// agent_settled that ends that work; retries, compactions and follow-ups
// inside stay inside it.
// - pi ≥ 0.99 says what became of a prompt (`data.disposition`): "started"
//   opens a run at the response, "queued" joins the run going on, "handled"
//   starts none (an extension consumed it). Steer and follow_up are "queued"
//   or "handled".
// - pi 0.87.1 says nothing: a prompt answered while no run goes on starts one,
//   one answered during a run joins it. Such a run is tentative until its
//   agent_start arrives: an extension command (/name) is answered like a
//   prompt but may start no run, so a tentative run that sees another
//   prompt's answer before any agent_start is given up (its prompt gets
//   `runId: null`).
// - steer / follow_up answered while no run goes on wait in pi's queue: they
//   join the next run that starts.
// - an agent_start with no run open opens one with no command (an
//   extension's own message, or a prompt whose answer this browser missed).

import { EXTENSION_UI_DIALOG_METHODS } from "@pier/protocol";
import { asRecord, clientIdOfCommandId, recordType, stringField, type JsonRecord, type WireEntry, type WireSender } from "./wire-entry.ts";

export type PairOutcome =
  /** Waiting for pi. */
  | "pending"
  /** pi answered success: true (or, for a dialog, a browser answered). */
  | "ok"
  /** pi answered success: false. */
  | "failed"
  /** The relay refused the command; pi never saw it. */
  | "refused"
  /** pi went away (a new child) before answering; or the id was reused before an answer. */
  | "lost";

export type Disposition = "started" | "queued" | "handled";

export interface CommandPair {
  /** Unique, increasing: the order pairs were created in. */
  readonly key: number;
  readonly kind: "command" | "dialog";
  /** The command's id (the dialog's request id); null for an id-less command. */
  readonly id: string | null;
  /** The command type (for a response without its command: the response's `command`); for a dialog: its method. */
  commandType: string;
  /** Who sent the command (for a dialog: who answered). */
  sender: WireSender | null;
  /** `sender` was read from a Pier command id, not announced. */
  senderInferred: boolean;
  /** The command ("out"), or for a dialog pi's request ("in"); null when not seen. */
  commandSeq: number | null;
  commandAt: number | null;
  /** pi's response, the relay's refusal, or for a dialog the browser's answer; null while pending. */
  responseSeq: number | null;
  responseAt: number | null;
  /** Response time minus command time; null unless both were seen. */
  latencyMs: number | null;
  outcome: PairOutcome;
  /** null while pending; true for "ok". */
  ok: boolean | null;
  /** pi's error, the relay's refusal, or why it was lost. */
  error?: string;
  /** pi ≥ 0.99: what became of a prompt, steer or follow_up. */
  disposition?: Disposition;
  /** The run this command started or joined. */
  runId: number | null;
  runRole: "started" | "joined" | null;
  /** The response arrived in a relay replay (between hello and replay_end). */
  replayed: boolean;
  /** For a dialog: its timeout (ms), and whether the answer came after it (pi ignored it). */
  timeoutMs?: number;
  late?: boolean;
}

export interface RunSpan {
  readonly runId: number;
  /** Key of the pair whose response opened the run; null when it opened at an agent_start. */
  startedBy: number | null;
  /** The acknowledgement (prompt response) or agent_start that opened it. */
  startSeq: number;
  startAt: number;
  /** agent_start seen: the run really began (a 0.87.1 run is tentative until then). */
  confirmed: boolean;
  agentStarts: number;
  retries: number;
  compactions: number;
  /** Keys of pairs that joined (queued prompts, steers, follow-ups). Capped at MAX_JOINED. */
  joined: number[];
  /** agent_settled, or the record that made the run end without one. */
  endSeq: number | null;
  endAt: number | null;
  endedBy: "settled" | "pi-exited" | "reconnected" | null;
  /** pi ≥ 1.1 agent_settled.aborted; null when pi did not say. */
  aborted: boolean | null;
  replayed: boolean;
}

export interface PairingOptions {
  maxPairs?: number;
  maxRuns?: number;
}

export interface PairingState {
  readonly maxPairs: number;
  readonly maxRuns: number;
  nextKey: number;
  nextRunId: number;
  /** Oldest first (Map keeps insertion order, so eviction is O(1)). */
  pairs: Map<number, CommandPair>;
  /** Command seq and response seq → pair key. */
  bySeq: Map<number, number>;
  /** Open pairs by id (commands and dialogs have separate id spaces). */
  openById: Map<string, number>;
  openDialogs: Map<string, number>;
  /** Id-less commands awaiting an answer, per type, oldest first. */
  idless: Map<string, number[]>;
  /** Pending pairs, for pendingPairs() in O(pending). */
  open: Set<number>;
  /** Ids already answered, to recognise responses repeated by a replay. Bounded with the pairs. */
  answeredIds: Map<string, number>;
  /** Runs, oldest first, from `runsHead` on. */
  runs: RunSpan[];
  runsHead: number;
  current: RunSpan | null;
  /** Steers and follow-ups queued while no run went on (keys): they join the next run. */
  waitingForRun: number[];
  inReplay: boolean;
  /** Responses a replay repeated (already paired), and agent_settled records with no run open. */
  duplicateResponses: number;
  straySettles: number;
}

export const DEFAULT_MAX_PAIRS = 5000;
export const DEFAULT_MAX_RUNS = 1000;
const MAX_JOINED = 100;
const DIALOG_METHODS: ReadonlySet<string> = new Set(EXTENSION_UI_DIALOG_METHODS);
const DISPOSITIONS: ReadonlySet<string> = new Set(["started", "queued", "handled"]);

export function createPairing(options: PairingOptions = {}): PairingState {
  return {
    maxPairs: Math.max(1, options.maxPairs ?? DEFAULT_MAX_PAIRS),
    maxRuns: Math.max(1, options.maxRuns ?? DEFAULT_MAX_RUNS),
    nextKey: 1,
    nextRunId: 1,
    pairs: new Map(),
    bySeq: new Map(),
    openById: new Map(),
    openDialogs: new Map(),
    idless: new Map(),
    open: new Set(),
    answeredIds: new Map(),
    runs: [],
    runsHead: 0,
    current: null,
    waitingForRun: [],
    inReplay: false,
    duplicateResponses: 0,
    straySettles: 0,
  };
}

/** Feed one entry (in arrival order). */
export function applyPairing(state: PairingState, entry: WireEntry): void {
  const record = asRecord(entry.value);
  if (record === null) return;
  const type = recordType(record);
  if (type === null) return;
  if (entry.direction === "out") onSent(state, entry, record, type);
  else if (entry.direction === "in") onStdout(state, entry, record, type);
  else onRelayFrame(state, entry, record, type);
}

// ---------------------------------------------------------------------------
// Commands and responses
// ---------------------------------------------------------------------------

function newPair(state: PairingState, kind: CommandPair["kind"], id: string | null, commandType: string): CommandPair {
  const pair: CommandPair = {
    key: state.nextKey++,
    kind,
    id,
    commandType,
    sender: null,
    senderInferred: false,
    commandSeq: null,
    commandAt: null,
    responseSeq: null,
    responseAt: null,
    latencyMs: null,
    outcome: "pending",
    ok: null,
    runId: null,
    runRole: null,
    replayed: false,
  };
  state.pairs.set(pair.key, pair);
  if (state.pairs.size > state.maxPairs) evictOldestPair(state);
  return pair;
}

function evictOldestPair(state: PairingState): void {
  const oldest = state.pairs.values().next().value;
  if (oldest === undefined) return;
  state.pairs.delete(oldest.key);
  state.open.delete(oldest.key);
  if (oldest.commandSeq !== null) state.bySeq.delete(oldest.commandSeq);
  if (oldest.responseSeq !== null) state.bySeq.delete(oldest.responseSeq);
  if (oldest.id !== null) {
    const ids = oldest.kind === "dialog" ? state.openDialogs : state.openById;
    if (ids.get(oldest.id) === oldest.key) ids.delete(oldest.id);
    if (state.answeredIds.get(oldest.id) === oldest.key) state.answeredIds.delete(oldest.id);
  }
  // Id-less queues and run lists may still name the key: readers skip keys that are gone.
}

function onSent(state: PairingState, entry: WireEntry, record: JsonRecord, type: string): void {
  if (type === "extension_ui_response") {
    answerDialog(state, entry, stringField(record, "id"));
    return;
  }
  // pier.* requests go to the relay, not pi: nothing answers them by id.
  if (type.startsWith("pier.")) return;
  const id = stringField(record, "id");
  if (id !== null) {
    const previous = state.openById.get(id);
    if (previous !== undefined) {
      // Reused before an answer: the answer will go to the newer one.
      const old = state.pairs.get(previous);
      if (old !== undefined) close(state, old, "lost", null, null, "the id was reused before pi answered");
    }
  }
  const pair = newPair(state, "command", id, type);
  pair.commandSeq = entry.seq;
  pair.commandAt = entry.at;
  pair.sender = entry.sender ?? null;
  state.bySeq.set(entry.seq, pair.key);
  state.open.add(pair.key);
  if (id !== null) state.openById.set(id, pair.key);
  else {
    let queue = state.idless.get(type);
    if (queue === undefined) state.idless.set(type, (queue = []));
    queue.push(pair.key);
    // Never answered and long forgotten: do not let the queue grow for ever.
    if (queue.length > state.maxPairs) queue.shift();
  }
}

function close(state: PairingState, pair: CommandPair, outcome: Exclude<PairOutcome, "pending">, seq: number | null, at: number | null, error?: string): void {
  pair.outcome = outcome;
  pair.ok = outcome === "ok";
  if (error !== undefined) pair.error = error;
  if (seq !== null) {
    pair.responseSeq = seq;
    pair.responseAt = at;
    state.bySeq.set(seq, pair.key);
    if (pair.commandAt !== null && at !== null) pair.latencyMs = Math.max(0, at - pair.commandAt);
  }
  state.open.delete(pair.key);
  if (pair.id !== null) {
    const ids = pair.kind === "dialog" ? state.openDialogs : state.openById;
    if (ids.get(pair.id) === pair.key) ids.delete(pair.id);
    if (pair.kind === "command") state.answeredIds.set(pair.id, pair.key);
  }
}

/** The oldest still-open id-less command of this type. */
function takeIdless(state: PairingState, type: string): CommandPair | null {
  const queue = state.idless.get(type);
  while (queue !== undefined && queue.length > 0) {
    const pair = state.pairs.get(queue.shift()!);
    if (pair !== undefined && pair.outcome === "pending") return pair;
  }
  return null;
}

function onResponse(state: PairingState, entry: WireEntry, record: JsonRecord): void {
  const id = stringField(record, "id");
  const command = stringField(record, "command") ?? "?";
  const success = record["success"] === true;
  let pair: CommandPair | null = null;
  if (id !== null) {
    const key = state.openById.get(id);
    pair = key === undefined ? null : (state.pairs.get(key) ?? null);
    // A replay repeats responses this page already paired: not news.
    if (pair === null && state.inReplay && state.answeredIds.has(id)) {
      state.duplicateResponses++;
      return;
    }
  } else if (command !== "parse") {
    pair = takeIdless(state, command);
  }
  if (pair === null) {
    pair = newPair(state, "command", id, command);
    const clientId = id === null ? null : clientIdOfCommandId(id);
    if (clientId !== null) {
      pair.sender = { clientId };
      pair.senderInferred = true;
    }
  }
  pair.replayed = state.inReplay;
  const error = success ? undefined : String(record["error"] ?? "unknown error");
  close(state, pair, success ? "ok" : "failed", entry.seq, entry.at, error);
  if (success && (command === "prompt" || command === "steer" || command === "follow_up")) {
    const disposition = stringField(asRecord(record["data"]), "disposition");
    if (disposition !== null && DISPOSITIONS.has(disposition)) pair.disposition = disposition as Disposition;
    attributeToRun(state, pair, command, entry);
  }
}

// ---------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------

function openRun(state: PairingState, entry: WireEntry, startedBy: CommandPair | null): RunSpan {
  const run: RunSpan = {
    runId: state.nextRunId++,
    startedBy: startedBy?.key ?? null,
    startSeq: entry.seq,
    startAt: entry.at,
    confirmed: false,
    agentStarts: 0,
    retries: 0,
    compactions: 0,
    joined: [],
    endSeq: null,
    endAt: null,
    endedBy: null,
    aborted: null,
    replayed: state.inReplay,
  };
  if (startedBy !== null) {
    startedBy.runId = run.runId;
    startedBy.runRole = "started";
  }
  state.runs.push(run);
  if (state.runs.length - state.runsHead > state.maxRuns) {
    state.runsHead++;
    // Compact now and then: amortised O(1).
    if (state.runsHead > 1024 && state.runsHead * 2 > state.runs.length) {
      state.runs = state.runs.slice(state.runsHead);
      state.runsHead = 0;
    }
  }
  state.current = run;
  for (const key of state.waitingForRun) {
    const waiting = state.pairs.get(key);
    if (waiting !== undefined) join(run, waiting);
  }
  state.waitingForRun = [];
  return run;
}

function join(run: RunSpan, pair: CommandPair): void {
  pair.runId = run.runId;
  pair.runRole = "joined";
  if (run.joined.length < MAX_JOINED) run.joined.push(pair.key);
}

function attributeToRun(state: PairingState, pair: CommandPair, command: string, entry: WireEntry): void {
  const disposition = pair.disposition;
  if (disposition === "handled") return;
  let current = state.current;
  if (command === "prompt") {
    if (disposition === "started") {
      if (current !== null && !current.confirmed) abandonTentative(state, current);
      openRun(state, entry, pair);
      return;
    }
    if (disposition === undefined) {
      // pi 0.87.1. A tentative run with no agent_start yet was probably an
      // extension command that started nothing: this prompt takes over.
      if (current !== null && !current.confirmed) {
        abandonTentative(state, current);
        current = null;
      }
      if (current === null) {
        openRun(state, entry, pair);
        return;
      }
    }
  }
  // Queued (said so, or implied by a run in progress).
  if (current !== null) join(current, pair);
  else state.waitingForRun.push(pair.key);
}

function abandonTentative(state: PairingState, run: RunSpan): void {
  const starter = run.startedBy === null ? undefined : state.pairs.get(run.startedBy);
  if (starter !== undefined) {
    starter.runId = null;
    starter.runRole = null;
  }
  // Whatever joined it waits for the next run instead.
  for (const key of run.joined) {
    const pair = state.pairs.get(key);
    if (pair === undefined) continue;
    pair.runId = null;
    pair.runRole = null;
    state.waitingForRun.push(key);
  }
  // Drop it: a run that never ran is noise on a timeline.
  if (state.runs[state.runs.length - 1] === run) {
    state.runs.pop();
    state.runsHead = Math.min(state.runsHead, state.runs.length);
  }
  if (state.current === run) state.current = null;
}

function endRun(state: PairingState, entry: WireEntry, endedBy: NonNullable<RunSpan["endedBy"]>, aborted: boolean | null): void {
  const run = state.current;
  if (run === null) return;
  if (!run.confirmed && endedBy !== "settled") {
    abandonTentative(state, run);
    return;
  }
  run.endSeq = entry.seq;
  run.endAt = entry.at;
  run.endedBy = endedBy;
  run.aborted = aborted;
  state.current = null;
}

function onStdout(state: PairingState, entry: WireEntry, record: JsonRecord, type: string): void {
  switch (type) {
    case "response":
      onResponse(state, entry, record);
      return;
    case "extension_ui_request":
      onDialogRequest(state, entry, record);
      return;
    case "agent_start": {
      const run = state.current ?? openRun(state, entry, null);
      run.confirmed = true;
      run.agentStarts++;
      return;
    }
    case "agent_settled": {
      if (state.current === null) {
        state.straySettles++;
        return;
      }
      const aborted = record["aborted"];
      endRun(state, entry, "settled", typeof aborted === "boolean" ? aborted : null);
      return;
    }
    case "auto_retry_start":
      if (state.current !== null) state.current.retries++;
      return;
    case "compaction_start":
      if (state.current !== null) state.current.compactions++;
      return;
    default:
      return;
  }
}

// ---------------------------------------------------------------------------
// Extension dialogs
// ---------------------------------------------------------------------------

function onDialogRequest(state: PairingState, entry: WireEntry, record: JsonRecord): void {
  const method = stringField(record, "method");
  const id = stringField(record, "id");
  if (method === null || id === null || !DIALOG_METHODS.has(method)) return;
  const pair = newPair(state, "dialog", id, method);
  pair.commandSeq = entry.seq;
  pair.commandAt = entry.at;
  pair.replayed = state.inReplay;
  const timeout = record["timeout"];
  if (typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0) pair.timeoutMs = timeout;
  state.bySeq.set(entry.seq, pair.key);
  state.open.add(pair.key);
  state.openDialogs.set(id, pair.key);
}

function answerDialog(state: PairingState, entry: WireEntry, id: string | null): void {
  const key = id === null ? undefined : state.openDialogs.get(id);
  const pair = key === undefined ? undefined : state.pairs.get(key);
  if (pair === undefined) {
    // An answer to a dialog this page never saw asked: keep it visible.
    const orphan = newPair(state, "dialog", id, "?");
    orphan.sender = entry.sender ?? null;
    close(state, orphan, "ok", entry.seq, entry.at);
    return;
  }
  pair.sender = entry.sender ?? null;
  if (pair.timeoutMs !== undefined && pair.commandAt !== null && entry.at > pair.commandAt + pair.timeoutMs) pair.late = true;
  close(state, pair, "ok", entry.seq, entry.at);
}

// ---------------------------------------------------------------------------
// Relay frames
// ---------------------------------------------------------------------------

function loseEverythingPending(state: PairingState, entry: WireEntry, why: string): void {
  for (const key of [...state.open]) {
    const pair = state.pairs.get(key);
    if (pair !== undefined) close(state, pair, "lost", null, null, why);
  }
  state.idless.clear();
  state.waitingForRun = [];
  endRun(state, entry, "pi-exited", null);
}

function onRelayFrame(state: PairingState, entry: WireEntry, record: JsonRecord, type: string): void {
  switch (type) {
    case "hello":
      // A (re)connection: a replay of pi's output follows. A run this page
      // was following may have ended while it was away; the replay shows it again.
      if (state.current !== null) endRun(state, entry, "reconnected", null);
      state.inReplay = true;
      return;
    case "replay_end":
      state.inReplay = false;
      return;
    case "child_started":
    case "child_exited":
      loseEverythingPending(state, entry, type === "child_exited" ? "pi exited before answering" : "pi was restarted before answering");
      return;
    case "error": {
      const command = asRecord(record["command"]);
      const id = stringField(command, "id");
      const key = id === null ? undefined : state.openById.get(id);
      const pair = key === undefined ? undefined : state.pairs.get(key);
      if (pair !== undefined) {
        const code = stringField(record, "code") ?? "error";
        close(state, pair, "refused", entry.seq, entry.at, `${code}: ${stringField(record, "message") ?? ""}`.trim());
      }
      return;
    }
    default:
      return;
  }
}

// ---------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------

/** The pair an entry belongs to (its command or its response; a dialog's request or answer). */
export function pairOf(state: PairingState, seq: number): CommandPair | undefined {
  const key = state.bySeq.get(seq);
  return key === undefined ? undefined : state.pairs.get(key);
}

/** A pair by key (e.g. RunSpan.startedBy), while it is kept. */
export function pairByKey(state: PairingState, key: number): CommandPair | undefined {
  return state.pairs.get(key);
}

/** Runs kept, oldest first. */
export function listRuns(state: PairingState): readonly RunSpan[] {
  return state.runsHead === 0 ? state.runs : state.runs.slice(state.runsHead);
}

/** Pairs kept, oldest first. */
export function listPairs(state: PairingState): CommandPair[] {
  return [...state.pairs.values()];
}

/** The run a command or response belongs to, or the run whose span contains the entry. O(log runs). */
export function runOf(state: PairingState, seq: number): RunSpan | undefined {
  const pair = pairOf(state, seq);
  if (pair !== undefined && pair.kind === "command") {
    if (pair.runId === null) return undefined;
    return runById(state, pair.runId);
  }
  // Runs never overlap and are kept in start order: binary search by seq.
  const runs = state.runs;
  let lo = state.runsHead;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const run = runs[mid]!;
    if (seq < run.startSeq) hi = mid - 1;
    else if (run.endSeq !== null && seq > run.endSeq) lo = mid + 1;
    else return run;
  }
  return undefined;
}

/** A run by id, while it is kept. O(log runs): run ids increase with position. */
export function runById(state: PairingState, runId: number): RunSpan | undefined {
  const runs = state.runs;
  let lo = state.runsHead;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const id = runs[mid]!.runId;
    if (id === runId) return runs[mid];
    if (id < runId) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

export interface PendingPair {
  pair: CommandPair;
  /** How long it has waited. */
  ageMs: number;
  /** A dialog whose timeout has passed: pi has resolved its default by itself. */
  expired: boolean;
}

/** Everything still waiting (commands and dialogs), oldest first, with its age. O(pending). */
export function pendingPairs(state: PairingState, now: number): PendingPair[] {
  const out: PendingPair[] = [];
  for (const key of state.open) {
    const pair = state.pairs.get(key);
    if (pair === undefined || pair.commandAt === null) continue;
    const ageMs = Math.max(0, now - pair.commandAt);
    out.push({ pair, ageMs, expired: pair.timeoutMs !== undefined && ageMs > pair.timeoutMs });
  }
  return out;
}

/** Responses whose command was never seen (sent before this page connected, or by an unannounced client). */
export function unmatchedResponses(state: PairingState): CommandPair[] {
  const out: CommandPair[] = [];
  for (const pair of state.pairs.values()) if (pair.commandSeq === null && pair.responseSeq !== null) out.push(pair);
  return out;
}
