// Expert warnings: records that break what pi's protocol promises, flagged
// for the inspector (like Wireshark's expert info). Fed every wire entry in
// order (checkEntry), it keeps warnings by the record's seq:
//
// - a response whose id no command sent, a second response to one id, a
//   command of this page never answered (after a bound, not at once);
// - a line ended by CR LF (pi writes LF only; the decoder strips the CR), a
//   line that is not JSON;
// - an event that belongs inside a run arriving outside one, a run that never
//   reached agent_settled (pi exited, or a new run started over it);
// - an extension dialog never answered (its timeout passed, or its run
//   settled without it) or answered twice (an answer the relay refused,
//   already_answered, never reached pi: it is not a second answer);
// - a record type or a top-level field the running pi version does not send
//   (known-records.ts, from the protocol types).
//
// Cost: O(1) per entry, and no allocation on the happy path (a delta in a
// 20,000-delta stream costs a few lookups; issue #35 counts the garbage).
// Objects are made for commands, dialogs and warnings only, and all of it is
// bounded (pending ids, remembered ids, warnings).
//
// What it must not flag (Pier's real runs are checked for zero warnings): a
// relay replay (between hello and replay_end) repeats pi's output since it
// started, with answers to commands of pages long gone; another browser's
// read-only answers go to that browser only (response-router.ts), and the
// relay's own board commands (`board-N`) are answered on the shared stream.
//
// Taps and replays. Under `pier tap` (the hello's `tap`) the commands are the
// tap's client's, and all their answers come on the stream this page sees, so
// they are awaited as this page's own would be. A replayed capture has no
// "later": nothing arrives after its last record, so a bound that had not
// passed by then would never be judged. The end of the capture is the end:
// whoever plays it to its last record calls endOfCapture, and what is still
// awaited then (a command, a dialog) is flagged as never answered in the
// capture. A relay's replay (between hello and replay_end) is not judged for
// answers, except for the dialogs its hello says still wait (`dialogs`).

import { EXTENSION_UI_DIALOG_METHODS } from "@pier/protocol";
import { KNOWN_RECORDS, KNOWN_RESPONSE_COMMANDS, versionNumber } from "./known-records.ts";
import { asRecord, clientIdOfCommandId, recordType, stringField, type JsonRecord, type WireEntry } from "./wire-entry.ts";

export type WarningKind =
  | "unknown-response-id"
  | "duplicate-response"
  | "unanswered-command"
  | "crlf"
  | "not-json"
  | "event-outside-run"
  | "run-not-settled"
  | "dialog-unanswered"
  | "dialog-answered-twice"
  | "unknown-record-type"
  | "unknown-field";

export interface ExpertWarning {
  kind: WarningKind;
  /** The record it is about. */
  seq: number;
  /** Its arrival time (for the timeline's mark). */
  at: number;
  /** Why, in one or two plain sentences. */
  text: string;
  /** Where pi's docs explain what is expected ("rpc.md#framing"). */
  docs: string;
}

export interface ExpertChecksOptions {
  /** Commands and dialogs awaited at most (the oldest are forgotten, unflagged). */
  maxPending?: number;
  /** Records with warnings kept (the oldest are forgotten). */
  maxWarnings?: number;
  /** A quick command (get_state …) unanswered this long is flagged. */
  quickMs?: number;
  /** A command that may wait on a run, a dialog or a shell (prompt, bash, compact, abort …). */
  slowMs?: number;
}

interface Awaited {
  id: string;
  seq: number;
  at: number;
  type: string;
  /** Flag it when a record arrives after this time (null: only when its run settles). */
  deadline: number | null;
  /** For a dialog: the run it was asked in (0: none). */
  run: number;
}

/** Commands and dialogs awaited, in the order they went out, with O(1) look at the oldest. */
interface AwaitQueue {
  byId: Map<string, Awaited>;
  order: Awaited[];
  head: number;
}

type RunState = "unknown" | "idle" | "running";

export interface ExpertChecks {
  readonly maxPending: number;
  readonly maxWarnings: number;
  readonly quickMs: number;
  readonly slowMs: number;
  /** Warnings by record seq (insertion order: the oldest go first). */
  warnings: Map<number, ExpertWarning[]>;
  /** Bumps when a warning is added (views look again). */
  count: number;
  /** pi's version (versionNumber), from the hello; null: not known (every version's fields pass). */
  piVersion: number | null;
  /** This page's client ids (one per connection): a Pier id with another's is not this page's to judge. */
  ownClients: Set<string>;
  /** Between hello and replay_end: pi's output again, answers to anyone. */
  inReplay: boolean;
  /** A `pier tap` page: the commands are the tap's client's, answered on this stream. */
  tap: boolean;
  /** Dialogs the hello said still wait for an answer: awaited from the replay on. */
  waitingDialogs: Set<string>;
  /** Dialog id → the seq flagged as its second answer (retracted if the relay refused one of its answers). */
  twiceFlagged: Map<string, number>;
  /** Ids of commands seen (any browser's), and of those answered; bounded. */
  sent: Map<string, number>;
  answered: Map<string, number>;
  quick: AwaitQueue;
  slow: AwaitQueue;
  dialogs: AwaitQueue;
  answeredDialogs: Map<string, number>;
  /** "unknown" until the stream is known from its start (a hello whose replay is whole, a new pi) or a run edge is seen. */
  run: RunState;
  runNo: number;
  runStartSeq: number;
  runStartAt: number;
}

const DIALOG_METHODS: ReadonlySet<string> = new Set(EXTENSION_UI_DIALOG_METHODS);
/** Commands that may legitimately wait long: on the run (abort), on dialogs of an extension command (prompt), on a shell (bash), on the model (compact), on session hooks. */
const SLOW_COMMANDS: ReadonlySet<string> = new Set(["prompt", "steer", "follow_up", "abort", "bash", "compact", "new_session", "switch_session", "fork", "clone", "export_html"]);
/** Events that only a run sends: outside one they are out of place. */
const RUN_EVENTS: ReadonlySet<string> = new Set(["message_update", "turn_start", "turn_end", "tool_execution_start", "tool_execution_update", "tool_execution_end", "agent_end"]);

/** Where pi's docs explain each expectation (pages and anchors of pi 0.87.1's and 1.6.0's docs alike: a unit test checks). */
export const WARNING_DOCS = {
  ids: "rpc.md#correlate-commands-and-responses",
  framing: "rpc.md#framing",
  run: "rpc.md#run-lifecycle",
  events: "json.md#event-sequence",
  dialogs: "rpc-extension-ui.md#responses-to-pi",
  responses: "rpc-commands.md",
  extensionUi: "rpc-extension-ui.md#requests-from-pi",
  types: "json.md#typescript-types",
} as const;

function queue(): AwaitQueue {
  return { byId: new Map(), order: [], head: 0 };
}

export function createExpertChecks(options: ExpertChecksOptions = {}): ExpertChecks {
  return {
    maxPending: Math.max(1, options.maxPending ?? 256),
    maxWarnings: Math.max(1, options.maxWarnings ?? 2000),
    quickMs: options.quickMs ?? 30_000,
    slowMs: options.slowMs ?? 10 * 60_000,
    warnings: new Map(),
    count: 0,
    piVersion: null,
    ownClients: new Set(),
    inReplay: false,
    tap: false,
    waitingDialogs: new Set(),
    twiceFlagged: new Map(),
    sent: new Map(),
    answered: new Map(),
    quick: queue(),
    slow: queue(),
    dialogs: queue(),
    answeredDialogs: new Map(),
    run: "unknown",
    runNo: 0,
    runStartSeq: 0,
    runStartAt: 0,
  };
}

/**
 * Feed one wire entry, in arrival order. `crlf`: the line of an "in" entry
 * ended with CR LF (the bytes view knows: RawLine.crlf).
 */
export function checkEntry(checks: ExpertChecks, entry: WireEntry, crlf = false): void {
  expire(checks, entry.at);
  if (entry.direction === "in") onStdout(checks, entry, crlf);
  else if (entry.direction === "out") onSent(checks, entry);
  else onRelay(checks, entry);
}

/**
 * A replayed capture was played to its last record (`at`: its time): nothing
 * will answer what is still awaited, so each is flagged as never answered in
 * the capture. Idempotent: what is flagged is no longer awaited.
 */
export function endOfCapture(checks: ExpertChecks, at: number): void {
  for (const q of [checks.quick, checks.slow]) {
    for (const item of q.byId.values()) {
      const waited = Math.round((at - item.at) / 1000);
      warn(
        checks,
        "unanswered-command",
        item.seq,
        item.at,
        `The capture ends ${waited} s after this ${item.type} with no response to it. Every command gets exactly one response with its id.`,
        WARNING_DOCS.ids,
      );
    }
    clearQueue(q);
  }
  for (const item of checks.dialogs.byId.values()) dialogUnanswered(checks, item, "the capture ends without one");
  clearQueue(checks.dialogs);
}

/** The warnings about one record, if any. */
export function warningsOf(checks: ExpertChecks, seq: number): readonly ExpertWarning[] | undefined {
  return checks.warnings.get(seq);
}

/** Seqs of the records with warnings, oldest first. O(w log w), w ≤ maxWarnings. */
export function warningSeqs(checks: ExpertChecks): number[] {
  return [...checks.warnings.keys()].sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------

function warn(checks: ExpertChecks, kind: WarningKind, seq: number, at: number, text: string, docs: string): void {
  let list = checks.warnings.get(seq);
  if (list === undefined) {
    checks.warnings.set(seq, (list = []));
    if (checks.warnings.size > checks.maxWarnings) checks.warnings.delete(checks.warnings.keys().next().value!);
  }
  list.push({ kind, seq, at, text, docs });
  checks.count++;
}

function remember(ids: Map<string, number>, id: string, seq: number, max: number): void {
  ids.delete(id);
  ids.set(id, seq);
  if (ids.size > max) ids.delete(ids.keys().next().value!);
}

function enqueue(checks: ExpertChecks, q: AwaitQueue, item: Awaited): void {
  q.byId.set(item.id, item);
  q.order.push(item);
  // Bounded: the oldest awaited is forgotten (not flagged: nothing is known about it yet).
  while (q.byId.size > checks.maxPending) {
    const oldest = q.order[q.head++];
    if (oldest !== undefined && q.byId.get(oldest.id) === oldest) q.byId.delete(oldest.id);
  }
  compact(q);
}

/** Take an awaited item out; true when it was awaited. */
function settle(q: AwaitQueue, id: string): Awaited | undefined {
  const item = q.byId.get(id);
  if (item !== undefined) q.byId.delete(id);
  return item;
}

function compact(q: AwaitQueue): void {
  // Skip the front that was answered already (amortised O(1)).
  while (q.head < q.order.length && q.byId.get(q.order[q.head]!.id) !== q.order[q.head]) q.head++;
  if (q.head > 64 && q.head * 2 > q.order.length) {
    q.order = q.order.slice(q.head);
    q.head = 0;
  }
}

function clearQueue(q: AwaitQueue): void {
  q.byId.clear();
  q.order = [];
  q.head = 0;
}

/** Commands and dialogs past their bound: flagged now. Looks at each queue's oldest only. */
function expire(checks: ExpertChecks, now: number): void {
  expireQueue(checks, checks.quick, now);
  expireQueue(checks, checks.slow, now);
  expireQueue(checks, checks.dialogs, now);
}

function expireQueue(checks: ExpertChecks, q: AwaitQueue, now: number): void {
  compact(q);
  // Deadlines within one queue grow with the order (one bound per queue), except dialogs' own timeouts: an early one waits behind a later one, flagged a little late.
  for (let item = q.order[q.head]; item !== undefined && item.deadline !== null && now > item.deadline; item = q.order[q.head]) {
    q.byId.delete(item.id);
    q.head++;
    if (q === checks.dialogs) dialogUnanswered(checks, item, "its timeout passed without an answer, so pi went on with its default");
    else {
      const waited = Math.round((now - item.at) / 1000);
      warn(checks, "unanswered-command", item.seq, item.at, `pi has not answered this ${item.type} after ${waited} s. Every command gets exactly one response with its id.`, WARNING_DOCS.ids);
    }
  }
}

function dialogUnanswered(checks: ExpertChecks, item: Awaited, why: string): void {
  warn(
    checks,
    "dialog-unanswered",
    item.seq,
    item.at,
    `This ${item.type} dialog was never answered: ${why}. A client answers every dialog once, with an extension_ui_response carrying its id.`,
    WARNING_DOCS.dialogs,
  );
}

// ---------------------------------------------------------------------------
// Commands (and dialog answers) going to pi

function onSent(checks: ExpertChecks, entry: WireEntry): void {
  const record = asRecord(entry.value);
  const type = recordType(record);
  if (type === null || type.startsWith("pier.")) return;
  const id = stringField(record, "id");
  if (type === "extension_ui_response") {
    if (id !== null) onDialogAnswer(checks, entry, id);
    return;
  }
  if (id === null) return;
  remember(checks.sent, id, entry.seq, checks.maxPending * 4);
  // Another browser's reads are answered to it alone: only this page's commands are awaited (under a tap, the client's).
  if (!checks.tap && entry.sender !== undefined && entry.sender.clientId !== "self") return;
  const slow = SLOW_COMMANDS.has(type);
  enqueue(checks, slow ? checks.slow : checks.quick, { id, seq: entry.seq, at: entry.at, type, deadline: entry.at + (slow ? checks.slowMs : checks.quickMs), run: 0 });
}

function onDialogAnswer(checks: ExpertChecks, entry: WireEntry, id: string): void {
  if (settle(checks.dialogs, id) !== undefined) {
    remember(checks.answeredDialogs, id, entry.seq, checks.maxPending * 4);
    return;
  }
  if (checks.answeredDialogs.has(id)) {
    remember(checks.twiceFlagged, id, entry.seq, checks.maxPending * 4);
    warn(
      checks,
      "dialog-answered-twice",
      entry.seq,
      entry.at,
      "This dialog was answered already. pi takes the first answer only (the relay refuses later ones); a client answers each dialog once.",
      WARNING_DOCS.dialogs,
    );
  }
}

// ---------------------------------------------------------------------------
// pi's stdout

function onStdout(checks: ExpertChecks, entry: WireEntry, crlf: boolean): void {
  if (crlf)
    warn(checks, "crlf", entry.seq, entry.at, "This line ended with CR LF. pi ends records with LF alone; a reader strips one CR before the LF, so the record still counts.", WARNING_DOCS.framing);
  const record = asRecord(entry.value);
  if (record === null) {
    if (entry.value === undefined)
      warn(
        checks,
        "not-json",
        entry.seq,
        entry.at,
        "This line of pi's stdout is not JSON. Stdout carries only protocol records, one JSON object per line; diagnostics belong on stderr.",
        WARNING_DOCS.framing,
      );
    else warn(checks, "unknown-record-type", entry.seq, entry.at, "This line is JSON but not an object. Every record is one JSON object with a type.", WARNING_DOCS.framing);
    return;
  }
  const type = recordType(record);
  const fields = type === null ? undefined : KNOWN_RECORDS.get(type);
  if (type === null || fields === undefined) {
    warn(
      checks,
      "unknown-record-type",
      entry.seq,
      entry.at,
      `${type === null ? "This record has no type" : `pi ${versionWords(checks)}does not define a record of type "${type}"`}. A client skips records it does not know.`,
      WARNING_DOCS.types,
    );
    return;
  }
  checkFields(checks, entry, record, type, fields);
  switch (type) {
    case "response":
      onResponse(checks, entry, record);
      return;
    case "extension_ui_request":
      onDialogRequest(checks, entry, record);
      return;
    case "agent_start":
      if (checks.run !== "running") {
        checks.run = "running";
        checks.runNo++;
        checks.runStartSeq = entry.seq;
        checks.runStartAt = entry.at;
      }
      return;
    case "agent_settled":
      if (checks.run === "idle")
        warn(checks, "event-outside-run", entry.seq, entry.at, "agent_settled arrived with no run going on (no agent_start since the last one). It ends a run: one per run.", WARNING_DOCS.run);
      else if (checks.run === "running") endRun(checks);
      checks.run = "idle";
      return;
    default:
      if (checks.run === "idle" && RUN_EVENTS.has(type)) {
        warn(
          checks,
          "event-outside-run",
          entry.seq,
          entry.at,
          `${type} arrived outside a run: no agent_start came before it since the last agent_settled. Such events belong between agent_start and agent_settled.`,
          WARNING_DOCS.events,
        );
      }
  }
}

/** "1.6.0 " for the running pi, "" when not known (the sentence then says "pi does not …"). */
function versionWords(checks: ExpertChecks): string {
  return checks.piVersion === null ? "" : `${versionText(checks.piVersion)} `;
}

function versionText(v: number): string {
  return `${Math.floor(v / 1_000_000)}.${Math.floor(v / 1000) % 1000}.${v % 1000}`;
}

function checkFields(checks: ExpertChecks, entry: WireEntry, record: JsonRecord, type: string, fields: ReadonlyMap<string, number>): void {
  const version = checks.piVersion;
  for (const key in record) {
    const since = fields.get(key);
    if (since !== undefined && (since === 0 || version === null || version >= since)) continue;
    const docs = type === "response" ? WARNING_DOCS.responses : type === "extension_ui_request" ? WARNING_DOCS.extensionUi : WARNING_DOCS.types;
    const text =
      since === undefined
        ? `pi ${versionWords(checks)}does not define a "${key}" field on ${type}. A client ignores fields it does not know.`
        : `"${key}" on ${type} is sent by pi ${versionText(since)} and later, but the running pi is ${versionWords(checks).trim()}.`;
    warn(checks, "unknown-field", entry.seq, entry.at, text, docs);
  }
  if (type === "response") {
    const command = stringField(record, "command");
    if (command !== null && !KNOWN_RESPONSE_COMMANDS.has(command) && record["success"] !== false) {
      warn(checks, "unknown-field", entry.seq, entry.at, `pi ${versionWords(checks)}has no command "${command}", yet this response says it succeeded.`, WARNING_DOCS.responses);
    }
  }
}

function onResponse(checks: ExpertChecks, entry: WireEntry, record: JsonRecord): void {
  const id = stringField(record, "id");
  if (id === null) return;
  const awaited = settle(checks.quick, id) ?? settle(checks.slow, id);
  // A replay repeats pi's answers to anyone since it started: not news, but it answers what this page still awaited.
  if (checks.inReplay) {
    remember(checks.answered, id, entry.seq, checks.maxPending * 4);
    return;
  }
  if (awaited === undefined && checks.answered.has(id)) {
    warn(checks, "duplicate-response", entry.seq, entry.at, `A second response to id "${id}". pi answers each command exactly once.`, WARNING_DOCS.ids);
    return;
  }
  if (awaited === undefined && !checks.sent.has(id) && ownsId(checks, id)) {
    warn(checks, "unknown-response-id", entry.seq, entry.at, `No command sent the id "${id}" that this response carries. A response repeats the id of the command it answers.`, WARNING_DOCS.ids);
  }
  remember(checks.answered, id, entry.seq, checks.maxPending * 4);
}

/** Whether an unknown id is this page's to judge: not another browser's (Pier's `client:n`) nor the relay board's. */
function ownsId(checks: ExpertChecks, id: string): boolean {
  if (id.startsWith("board-")) return false;
  const client = clientIdOfCommandId(id);
  return client === null || checks.ownClients.has(client);
}

function onDialogRequest(checks: ExpertChecks, entry: WireEntry, record: JsonRecord): void {
  const method = stringField(record, "method");
  const id = stringField(record, "id");
  if (method === null || id === null || !DIALOG_METHODS.has(method)) return;
  // A replay repeats dialogs answered long ago (answers are not replayed): only live ones, and those the hello says wait, are awaited.
  if (checks.inReplay && !checks.waitingDialogs.has(id)) return;
  const timeout = record["timeout"];
  const deadline = typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0 ? entry.at + timeout : null;
  enqueue(checks, checks.dialogs, { id, seq: entry.seq, at: entry.at, type: method, deadline, run: checks.run === "running" ? checks.runNo : 0 });
}

/** The run settled: dialogs it asked and nobody answered are over (pi resolved them itself). */
function endRun(checks: ExpertChecks): void {
  const q = checks.dialogs;
  if (q.byId.size === 0) return;
  for (const item of q.byId.values()) {
    if (item.run !== checks.runNo) continue;
    q.byId.delete(item.id);
    dialogUnanswered(checks, item, "its run ended without one");
  }
  compact(q);
}

// ---------------------------------------------------------------------------
// Relay frames

function onRelay(checks: ExpertChecks, entry: WireEntry): void {
  const record = asRecord(entry.value);
  switch (recordType(record)) {
    case "hello": {
      const clientId = stringField(record, "clientId");
      if (clientId !== null) {
        checks.ownClients.add(clientId);
        if (checks.ownClients.size > 16) checks.ownClients.delete(checks.ownClients.values().next().value!);
      }
      checks.piVersion = versionNumber(stringField(asRecord(record?.["pi"]), "version"));
      checks.inReplay = true;
      checks.tap = asRecord(record?.["tap"]) !== null;
      checks.waitingDialogs = waitingDialogIds(record);
      // What this page awaited may come in the replay, or went with the old connection: nobody's fault.
      forgetAwaited(checks);
      // The replay starts at pi's first byte unless it was cut.
      checks.run = asRecord(record?.["replay"])?.["truncated"] === true ? "unknown" : "idle";
      return;
    }
    case "replay_end":
      checks.inReplay = false;
      checks.waitingDialogs.clear();
      return;
    case "child_started":
      forgetAwaited(checks);
      checks.run = "idle";
      return;
    case "child_exited":
      if (checks.run === "running") {
        warn(
          checks,
          "run-not-settled",
          checks.runStartSeq,
          checks.runStartAt,
          "This run never reached agent_settled: pi exited while it went on. A run is over only at agent_settled.",
          WARNING_DOCS.run,
        );
      }
      forgetAwaited(checks);
      checks.run = "unknown";
      return;
    case "error": {
      // The relay refused a command: pi never saw it, the refusal is its answer.
      const id = stringField(asRecord(record?.["command"]), "id");
      if (id !== null) {
        settle(checks.quick, id);
        settle(checks.slow, id);
        settle(checks.dialogs, id);
        // A dialog answer refused (another answered first): one of the answers seen never reached pi, so no second one did.
        if (stringField(asRecord(record?.["command"]), "type") === "extension_ui_response") retractTwice(checks, id);
      }
      return;
    }
    default:
      return;
  }
}

/** The ids of the dialogs a hello says still wait (absent from older relays and captures: none). */
function waitingDialogIds(hello: JsonRecord | null): Set<string> {
  const ids = new Set<string>();
  const waiting = asRecord(hello?.["dialogs"])?.["waiting"];
  if (!Array.isArray(waiting)) return ids;
  for (const item of waiting) {
    const id = stringField(asRecord(item), "id");
    if (id !== null) ids.add(id);
  }
  return ids;
}

/** Takes back the "answered twice" flagged for dialog `id`, if any. */
function retractTwice(checks: ExpertChecks, id: string): void {
  const seq = checks.twiceFlagged.get(id);
  if (seq === undefined) return;
  checks.twiceFlagged.delete(id);
  const list = checks.warnings.get(seq);
  if (list === undefined) return;
  const at = list.findIndex((w) => w.kind === "dialog-answered-twice");
  if (at === -1) return;
  list.splice(at, 1);
  if (list.length === 0) checks.warnings.delete(seq);
  checks.count++;
}

function forgetAwaited(checks: ExpertChecks): void {
  clearQueue(checks.quick);
  clearQueue(checks.slow);
  clearQueue(checks.dialogs);
}
