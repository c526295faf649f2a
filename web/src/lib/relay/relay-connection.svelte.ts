// The one WebSocket to the relay: framing of pi's stdout bytes, the session
// reducer, the record log, relay state (hello, child, peers, stderr), command
// ids, and reconnecting. Components read the runes fields; nothing else
// touches the socket.
//
// What arrives is not applied at once but queued and applied once per
// animation frame (#drain), in arrival order, a time-boxed slice at a time:
// while pi streams, thousands of records a second then cost one re-render
// per frame instead of one per WebSocket message, and a burst that takes
// longer than a frame's budget is spread over several frames instead of
// freezing the page. Text frames, the bytes around them, the commands this
// browser sends (for the log) and the socket closing all go through the same
// queue, so their order is kept.
//
// Replay (replay-feed.ts): the same queue can be fed from a capture file
// instead of the socket. Everything downstream (framing, reducer, record log,
// wire taps, relay frames) is the code a live page runs, so the page
// reconstructs exactly; the connection is read-only then: the commands it
// would send by itself (get_state, get_entries…) only take their ids, which
// match the recorded answers, and nothing leaves the page.

import {
  CLOSE_REVOKED,
  JsonlDecoder,
  READ_ONLY_COMMANDS,
  RELAY_SOCKET_PATH,
  type ChildStatus,
  type DecodedLine,
  type DemoInfo,
  type ExtensionUiResponse,
  type RelayFrame,
  type RelayRequest,
} from "@pier/protocol";
import type { AgentMessage, ConversationMessage, RpcCommand, RpcResponse } from "../pi-types.ts";
import { applyGetMessages, applyInvalidLine, applyRecord, noteCommandSent } from "../session/reduce-record.ts";
import {
  applyEntriesAnswer,
  compactedHistory,
  createEntryIndex,
  lastEntryId,
  plainConversation,
  resetEntryIndex,
  type EntryIndex,
} from "../session/entry-index.ts";
import { expirePending } from "../session/pending-commands.ts";
import { removeDialog } from "../extension-ui/extension-ui-state.ts";
import { FrameScheduler, pageHidden } from "./frame-scheduler.ts";
import { settleRecord } from "./settle-records.ts";

/** After this long without an answer a command is shown as overdue or timed out. */
const PENDING_TIMEOUT_MS = 15_000;
import { createSessionState, resetSessionState, type SessionState } from "../session/session-state.ts";
import { appendLog, createRecordLog, resetLog, type LogDirection, type LogEntry, type LogSender, type RecordLog } from "../session/record-log.ts";
import type { WireTap } from "./wire-tap.ts";
import type { ReplayItem, WireRecorder } from "./replay-feed.ts";
import { Room } from "../room/room.svelte.ts";
import { WorkspaceTrustStore } from "../workspace/workspace-trust.svelte.ts";
import { Attribution } from "../room/attribution.svelte.ts";

export type ConnectionPhase = "connecting" | "connected" | "reconnecting" | "unauthorized";

export type HelloFrame = Extract<RelayFrame, { type: "hello" }>;

/** Called with workspace-relative paths that changed on disk, or null for "possibly anything". */
/** `paths` null: anything may have changed. `git`: the repository moved (commit, checkout…), whatever the paths. */
export type WorkspaceChangeListener = (paths: string[] | null, git: boolean) => void;

/**
 * Every pi stdout record as it is reduced (replay included), and "reset" when
 * what came before no longer counts (a new hello starts a full replay; pi restarted).
 */
export type RecordListener = (event: { kind: "record"; record: unknown; replaying: boolean } | { kind: "reset" }) => void;

export interface Alert {
  id: number;
  level: "error" | "warning" | "info";
  title: string;
  message: string;
  at: number;
}

/** Close code the relay uses for a socket without a valid session cookie. */
export const UNAUTHORIZED_CLOSE_CODE = 4401;

/**
 * How long one slice of queued work may take (decoding and reducing; Svelte's
 * re-render comes on top, in the same task; layout and paint in the next
 * frame, see frame-scheduler.ts). A frame's worth: with half of it (and the
 * full one only once the page was 50 ms behind), every burst of a fast
 * stream left records for a later frame, and the page trailed it by more
 * (bench/stream.bench.ts, 8 rounds side by side: delta → visible p95 147 →
 * 102 ms with the inspector closed, 236 → 186 ms open on its records). The
 * slice and the Svelte update after it are a task of their own, apart from
 * the frame's layout and paint, so that task stays well under 50 ms (the
 * longest measured the same as with the shorter slice).
 */
const SLICE_BUDGET_MS = 16;
/** Bytes decoded in one go (the budget is checked between such slices and between records). */
const DECODE_SLICE_BYTES = 64 * 1024;
const MAX_STDERR_LINES = 500;
const MAX_ALERTS = 6;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10_000;
/**
 * A socket that died without closing (the relay's machine slept, the network
 * went) stays open for many minutes and shows "Connected". The relay sends
 * something at least every hello.heartbeatMs: after this many of those with
 * nothing heard, the connection is taken for dead and the page reconnects.
 */
const SILENT_HEARTBEATS = 3;
/** How long the check of a refused connection's cookie may take (see #probeUnauthorized). */
const PROBE_TIMEOUT_MS = 5_000;
/** The close code this page gives a socket it gave up on for its silence. */
const CLOSE_SILENT = 4000;
/** Before any hello told the relay's interval (its default, relay/src/heartbeat.ts). */
const DEFAULT_HEARTBEAT_MS = 15_000;
/** A connection attempt that is neither open nor refused by then is given up, and tried again. */
const OPEN_TIMEOUT_MS = 15_000;
/** After these, pi's session has new entries: move the entry cursor on. */
const ADDS_ENTRIES = new Set(["agent_settled", "compaction_end"]);
/**
 * Another browser's command that changes what get_state reports. The relay
 * sends a read's answer only to the browser that asked, so this page no
 * longer sees the get_state that browser asks for next: it asks its own.
 */
const CHANGES_STATE = new Set([
  "set_model",
  "cycle_model",
  "set_thinking_level",
  "cycle_thinking_level",
  "set_steering_mode",
  "set_follow_up_mode",
  "set_auto_compaction",
  "set_auto_retry",
  "set_session_name",
]);

/** Something that happened on the socket, waiting in #queue to be applied (`at`: when it happened). */
type Queued =
  /** `tapped`: wire taps have seen these bytes (a big frame is decoded a slice at a time, and tapped once, whole). */
  | { kind: "bytes"; bytes: Uint8Array; at: number; tapped?: true }
  | { kind: "text"; text: string; at: number }
  | { kind: "out"; raw: string; value: unknown; at: number }
  /** A command from a capture (replay): this page (or, with `by`, another) sent it then. */
  | { kind: "replayed_out"; raw: string; at: number; by?: { clientId: string; name?: string } }
  | { kind: "closed"; code: number; opened: boolean };

/** Why a get_entries was sent: to show the session (load), or only to keep the cursor current (advance). */
type EntriesRequest = { since: string | null; purpose: "load" | "advance" };
/** How long a page waits before asking again for entries the relay refused to ask pi for (rate_limited). */
const ENTRIES_RETRY_MS = 1000;

/** A command as the UI builds it: the connection adds the id. */
export type OutgoingCommand = RpcCommand extends infer C ? (C extends { id?: string } ? Omit<C, "id"> : never) : never;

/** What a viewer's page answers itself when asked to send pi a command. */
export const VIEWER_REFUSAL = "Viewers watch: only a driver can send pi commands — ask the driver.";

/** How long `call()` waits for pi's answer before giving up. */
const CALL_TIMEOUT_MS = 30_000;

const READ_ONLY = "Replay — read-only: nothing is sent.";

/** A failure `call()` reports for a command pi never answered (not sent, refused by the relay, timed out). */
function localFailure(command: string, error: string): RpcResponse {
  return { type: "response", command, success: false, error };
}

export class RelayConnection {
  phase = $state<ConnectionPhase>("connecting");
  /** Reduced pi session (deep reactive). */
  session: SessionState = $state(createSessionState());
  hello = $state<HelloFrame | null>(null);
  /** Who is here, their roles, links, suggestions, and what the others did. */
  readonly room = new Room();
  /** Whether the workspace is trusted (the banner for an untrusted folder reads it). */
  readonly workspaceTrust = new WorkspaceTrustStore();
  /** Who wrote each user message, and markers where others changed what everyone sees. */
  readonly attribution = new Attribution();
  child = $state<ChildStatus | null>(null);
  demo = $state<DemoInfo | null>(null);
  peers = $state(0);
  /** True between hello and replay_end. */
  replaying = $state(false);
  /** Fed from a capture file, not a relay: nothing is sent (the UI says "Replay — read-only"). */
  readOnly = $state(false);
  /** While read-only: false until everything fed so far has been applied. */
  caughtUp = $state(true);
  #pendingTimer: ReturnType<typeof setInterval> | null = null;
  stderr = $state<string[]>([]);
  alerts = $state<Alert[]>([]);
  lastRelayError = $state<Extract<RelayFrame, { type: "error" }> | null>(null);
  /** The link this page was opened with was revoked (the relay closed the socket with CLOSE_REVOKED). */
  revoked = $state(false);
  /** Attempts since the last successful hello (for the status bar). */
  reconnectAttempt = $state(0);
  /** Bumped (at most once per applied slice, so once per frame) when `log` changes; the log itself is not reactive. */
  logVersion = $state(0);
  readonly log: RecordLog = createRecordLog();
  /**
   * pi's session entries as far as seen (not reactive: they can be large).
   * Kept across reconnects and pi restarts: it is the cursor that lets this
   * browser catch up with only what it missed.
   */
  readonly entries: EntryIndex = createEntryIndex();
  /** Bumped when `entries` changes. */
  entriesVersion = $state(0);
  /** Messages the latest compaction took out of the model's context (shown collapsed above it). */
  compactedHistory = $state.raw<ConversationMessage[]>([]);
  /** Bumped when the relay says session files changed on disk. */
  sessionsListVersion = $state(0);

  #url: string;
  #ws: WebSocket | null = null;
  #decoder = new JsonlDecoder();
  #commandSeq = 0;
  #alertSeq = 0;
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  #retryDelay = RECONNECT_MIN_MS;
  #opened = false;
  #stopped = false;
  /** When the current socket was made, and when anything last arrived on it. */
  #socketSince = 0;
  #lastHeardAt = 0;
  /** Not yet applied, oldest first from #queueHead. */
  #queue: Queued[] = [];
  #queueHead = 0;
  /** Lines decoded from the bytes being applied, the next one to apply, and when those bytes arrived. */
  #lines: DecodedLine[] = [];
  #lineAt = 0;
  #linesArrivedAt = 0;
  /** Bytes of pi's stream handed to the decoder since the hello (where the hello's logged prompts went to pi is counted in these). */
  #streamBytes = 0;
  #draining = false;
  /** While set, what arrives is queued and not applied (see holdUntil). */
  #held: Promise<unknown> | null = null;
  readonly #drainer = new FrameScheduler(() => this.#drain());
  #logChanged = false;
  /** The first line of a truncated replay may start mid-record. */
  #replayHeadMayBeCut = false;
  /** `call()`s waiting for their response, by command id. */
  #calls = new Map<string, { command: string; settle: (response: RpcResponse) => void }>();
  /**
   * Ids of calls already answered here with a failure (pi exited, restarted,
   * the connection reset): the relay's refusal of one can still arrive after
   * pi's exit, and its caller has already been told, so it is no news.
   */
  #abandonedCalls = new Set<string>();
  #entriesRequests = new Map<string, EntriesRequest>();
  /** An "advance" get_entries is in flight; `#advanceAgain` asks for another after it. */
  #advancing = false;
  #advanceAgain = false;
  #workspaceListeners = new Set<WorkspaceChangeListener>();
  #recordListeners = new Set<RecordListener>();
  /** Usually empty (the inspector's store adds one when it loads): the hot path checks the length only. */
  #taps: WireTap[] = [];
  /** Usually empty (a recording adds one). */
  #recorders: WireRecorder[] = [];

  constructor(url = defaultSocketUrl()) {
    this.#url = url;
  }

  get clientId(): string | null {
    return this.hello?.clientId ?? null;
  }

  get connected(): boolean {
    return this.phase === "connected";
  }

  connect(): void {
    if (this.readOnly) return;
    this.#stopped = false;
    // Commands pi has not answered for a while are shown as overdue.
    this.#pendingTimer ??= setInterval(() => {
      const now = Date.now();
      expirePending(this.session, now, PENDING_TIMEOUT_MS);
      this.#checkAlive(now);
    }, 1000);
    this.#clearRetry();
    this.#opened = false;
    this.#socketSince = this.#lastHeardAt = Date.now();
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.#url);
    } catch (error) {
      this.#pushAlert("error", "Cannot open connection", String(error));
      this.#scheduleReconnect();
      return;
    }
    ws.binaryType = "arraybuffer";
    this.#ws = ws;
    ws.onopen = () => {
      this.#opened = true;
      this.#lastHeardAt = Date.now();
    };
    ws.onmessage = (event: MessageEvent) => {
      if (this.#ws !== ws) return;
      const at = (this.#lastHeardAt = Date.now());
      if (typeof event.data === "string") this.#enqueue({ kind: "text", text: event.data, at });
      else if (event.data instanceof ArrayBuffer) this.#enqueue({ kind: "bytes", bytes: new Uint8Array(event.data), at });
    };
    ws.onclose = (event: CloseEvent) => {
      if (this.#ws !== ws) return;
      this.#ws = null;
      // After whatever arrived before it.
      this.#enqueue({ kind: "closed", code: event.code, opened: this.#opened });
    };
  }

  /**
   * Receive at once, but apply nothing before `ready` settles, or `maxMs`
   * passed: what arrives meanwhile waits in the queue, in order. For code
   * that must see every record from the first one on and is still loading
   * (main.ts: the inspector's store), without delaying the socket for it.
   */
  holdUntil(ready: Promise<unknown>, maxMs: number): void {
    const held = Promise.race([ready, new Promise((resolve) => setTimeout(resolve, maxMs))]).catch(() => undefined);
    this.#held = held;
    void held.then(() => {
      if (this.#held !== held) return;
      this.#held = null;
      if (pageHidden()) this.#drain();
      else this.#drainer.schedule();
    });
  }

  /** Stop for good (tests, page teardown). */
  close(): void {
    this.#stopped = true;
    if (this.#pendingTimer) clearInterval(this.#pendingTimer);
    this.#pendingTimer = null;
    this.#drainer.cancel();
    this.#queue = [];
    this.#queueHead = 0;
    this.#lines = [];
    this.#lineAt = 0;
    this.#clearRetry();
    this.#ws?.close(1000);
    this.#ws = null;
  }

  /**
   * Gives up on a socket that has said nothing for too long (see
   * SILENT_HEARTBEATS), or that never opened: it is closed and dropped, and
   * what follows is what follows any close (calls still waiting are failed,
   * "Reconnecting", a new connection that catches up from the relay's
   * replay). Checked every second; a timer of a tab in the background runs
   * late, which only makes this later.
   */
  #checkAlive(now: number): void {
    const ws = this.#ws;
    if (ws === null) return;
    const heartbeatMs = this.hello !== null && this.hello.heartbeatMs > 0 ? this.hello.heartbeatMs : DEFAULT_HEARTBEAT_MS;
    const silentFor = now - this.#lastHeardAt;
    const dead = this.#opened ? silentFor > SILENT_HEARTBEATS * heartbeatMs : now - this.#socketSince > OPEN_TIMEOUT_MS;
    if (!dead) return;
    this.#ws = null;
    ws.close(CLOSE_SILENT, "no word from the relay");
    this.#enqueue({ kind: "closed", code: CLOSE_SILENT, opened: this.#opened });
  }

  /** Try again now (the "Retry" button, or after fixing the cookie). */
  retryNow(): void {
    this.#retryDelay = RECONNECT_MIN_MS;
    this.#ws?.close(1000);
    this.#ws = null;
    this.phase = this.hello ? "reconnecting" : "connecting";
    this.connect();
  }

  /** Send a pi command; returns its id, or null when it could not be sent. */
  send(command: OutgoingCommand): string | null {
    // A viewer's commands that change something would only be refused: they
    // stay home instead of piling up refusals. Its queries (get_state,
    // get_entries…) go, so it loads the session like a driver.
    if (!this.room.maySend(command.type)) return null;
    // Replay: only the id, the one this page gave the same command live (its recorded answer carries it;
    // the room, rebuilt from the recording, made the same choice above).
    if (this.readOnly) return this.clientId === null ? null : `${this.clientId}:${++this.#commandSeq}`;
    const ws = this.#ws;
    const clientId = this.clientId;
    if (ws === null || ws.readyState !== WebSocket.OPEN || clientId === null) {
      this.#pushAlert("warning", "Not connected", `“${command.type}” was not sent: the relay connection is down.`);
      return null;
    }
    const id = `${clientId}:${++this.#commandSeq}`;
    const record = { id, ...command };
    this.#sendCommand(ws, id, command.type, record);
    return id;
  }

  #sendCommand(ws: WebSocket, id: string, type: string, record: Readonly<Record<string, unknown>>): void {
    const raw = JSON.stringify(record);
    noteCommandSent(this.session, id, type, Date.now(), record);
    ws.send(raw);
    this.#enqueue({ kind: "out", raw, value: record, at: Date.now() });
  }

  /**
   * Send a record written by hand (the inspector's composer) and wait for its
   * answer, like call(). It goes out as the JSON of `record`, with its own
   * `id` when it has a string one (else the connection gives it one); the
   * relay checks it like any command, and its refusal comes back as the
   * failure. An extension_ui_response or a `pier.*` request has no answer:
   * it resolves as soon as it was sent.
   */
  sendRecord(record: Record<string, unknown>, timeoutMs = CALL_TIMEOUT_MS): Promise<RpcResponse> {
    const type = typeof record["type"] === "string" ? record["type"] : "unknown";
    if (this.readOnly) return Promise.resolve(localFailure(type, READ_ONLY));
    const ws = this.#ws;
    const clientId = this.clientId;
    if (ws === null || ws.readyState !== WebSocket.OPEN || clientId === null) return Promise.resolve(localFailure(type, "Not connected to the relay."));
    const unanswerable = type === "extension_ui_response" || type.startsWith("pier.");
    if (unanswerable || (record["id"] !== undefined && typeof record["id"] !== "string")) {
      const raw = JSON.stringify(record);
      ws.send(raw);
      this.#enqueue({ kind: "out", raw, value: record, at: Date.now() });
      // An id that is not a string cannot be matched with an answer (pi's ids are strings): sent as written, not awaited.
      const note = unanswerable ? undefined : "Sent as written. Its id is not a string, so its answer cannot be awaited: look for it in the records.";
      return Promise.resolve(note === undefined ? ({ type: "response", command: type, success: true } as RpcResponse) : localFailure(type, note));
    }
    const id = typeof record["id"] === "string" ? record["id"] : `${clientId}:${++this.#commandSeq}`;
    const withId = typeof record["id"] === "string" ? record : { id, ...record };
    if (this.#calls.has(id)) return Promise.resolve(localFailure(type, `A command with id “${id}” is still waiting for its answer.`));
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#settleCall(id, localFailure(type, `pi did not answer within ${Math.round(timeoutMs / 1000)} s.`)), timeoutMs);
      this.#calls.set(id, {
        command: type,
        settle: (response) => {
          clearTimeout(timer);
          resolve(response);
        },
      });
      this.#sendCommand(ws, id, type, withId);
    });
  }

  /**
   * Send a pi command and wait for its response. Never rejects: a command that
   * could not be sent, was refused by the relay, got no answer in time, or was
   * cut off by a reconnect or pi restart resolves as a `success: false`
   * response whose `error` says so in words.
   */
  call(command: OutgoingCommand, timeoutMs = CALL_TIMEOUT_MS): Promise<RpcResponse> {
    if (!this.room.maySend(command.type)) return Promise.resolve(localFailure(command.type, VIEWER_REFUSAL));
    if (this.readOnly) return Promise.resolve(localFailure(command.type, READ_ONLY));
    const id = this.send(command);
    if (id === null) return Promise.resolve(localFailure(command.type, "Not connected to the relay."));
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => this.#settleCall(id, localFailure(command.type, `pi did not answer within ${Math.round(timeoutMs / 1000)} s.`)),
        timeoutMs,
      );
      this.#calls.set(id, {
        command: command.type,
        settle: (response) => {
          clearTimeout(timer);
          resolve(response);
        },
      });
    });
  }

  #settleCall(id: string, response: RpcResponse): void {
    const call = this.#calls.get(id);
    if (call === undefined) return;
    this.#calls.delete(id);
    call.settle(response);
  }

  /** Answer every waiting `call()` with a failure (their responses can no longer arrive). */
  #failCalls(reason: string): void {
    for (const [id, call] of [...this.#calls]) {
      this.#settleCall(id, localFailure(call.command, reason));
      this.#abandonedCalls.add(id);
    }
    // Bounded: only the most recent few can still have a refusal in flight.
    for (const id of this.#abandonedCalls) {
      if (this.#abandonedCalls.size <= 64) break;
      this.#abandonedCalls.delete(id);
    }
  }

  /**
   * Answer an extension dialog. Sent as-is: it must carry the request's id,
   * and pi sends no response record for it (so nothing is pending).
   */
  respondToExtension(response: ExtensionUiResponse): boolean {
    if (!this.room.canDrive) return false;
    if (this.readOnly) return false;
    const ws = this.#ws;
    if (ws === null || ws.readyState !== WebSocket.OPEN) {
      this.#pushAlert("warning", "Not connected", "The answer to the extension was not sent: the relay connection is down.");
      return false;
    }
    const raw = JSON.stringify(response);
    ws.send(raw);
    this.#enqueue({ kind: "out", raw, value: response, at: Date.now() });
    return true;
  }

  /** Send a relay control request ("pier.*"). */
  request(request: RelayRequest): boolean {
    if (this.readOnly) return false;
    const ws = this.#ws;
    if (ws === null || ws.readyState !== WebSocket.OPEN) {
      this.#pushAlert("warning", "Not connected", "The relay connection is down.");
      return false;
    }
    const raw = JSON.stringify(request);
    ws.send(raw);
    this.#enqueue({ kind: "out", raw, value: request, at: Date.now() });
    return true;
  }

  /** Restart pi on the session it was on (pi writes a session file only after its first answer). */
  restartPi(): void {
    const sessionFile = this.session.sessionFile;
    this.request(sessionFile ? { type: "pier.restart_pi", sessionFile } : { type: "pier.restart_pi" });
  }

  /**
   * Subscribe to files changing on disk. `paths` are workspace-relative; null
   * means "anything may have changed" (after a (re)connect, when frames may
   * have been missed); `git` says the repository's HEAD or index moved.
   * Returns the unsubscribe function.
   */
  onWorkspaceChanged(listener: WorkspaceChangeListener): () => void {
    this.#workspaceListeners.add(listener);
    return () => this.#workspaceListeners.delete(listener);
  }

  /** Subscribe to pi's records (for views that keep their own state, e.g. bash panels). Returns the unsubscribe function. */
  onRecord(listener: RecordListener): () => void {
    this.#recordListeners.add(listener);
    return () => this.#recordListeners.delete(listener);
  }

  /**
   * Listen to everything applied, as it is applied (see wire-tap.ts): for the
   * protocol inspector. Returns the function that removes the tap.
   */
  addWireTap(tap: WireTap): () => void {
    this.#taps = [...this.#taps, tap];
    return () => {
      this.#taps = this.#taps.filter((t) => t !== tap);
    };
  }

  /**
   * Record what crosses the wire, in arrival order (see replay-feed.ts).
   * Returns the function that stops it.
   */
  addRecorder(recorder: WireRecorder): () => void {
    this.#recorders = [...this.#recorders, recorder];
    return () => {
      this.#recorders = this.#recorders.filter((r) => r !== recorder);
    };
  }

  #record(item: Queued): void {
    for (const recorder of this.#recorders) {
      try {
        if (item.kind === "bytes") recorder.bytes(item.bytes, item.at);
        else if (item.kind === "text") recorder.text(item.text, item.at);
        else if (item.kind === "out") recorder.sent(item.raw, item.at);
      } catch (error) {
        console.error("wire recorder failed", error);
      }
    }
  }

  /**
   * Leave the relay and become a player of recorded traffic: the socket is
   * closed (for good, until endReplay), everything shown is forgotten, and
   * from now on only replay() feeds the page.
   */
  beginReplay(): void {
    this.close();
    this.readOnly = true;
    this.#resetAll();
  }

  /** Back to before the first recorded event (to go back in a capture: reset, then feed up to there). */
  restartReplay(): void {
    if (this.readOnly) this.#resetAll();
  }

  /**
   * Recorded events `items[from..to)`, applied like their live counterparts
   * (in order, in time-boxed slices, from the next frame on). Only queued
   * here: a jump across 100,000 events costs this call a few milliseconds.
   */
  replay(items: readonly ReplayItem[], from = 0, to = items.length): void {
    if (!this.readOnly || from >= to) return;
    for (let i = from; i < to; i++) {
      const item = items[i]!;
      this.#queue.push(
        item.kind === "bytes"
          ? { kind: "bytes", bytes: item.bytes, at: item.at }
          : item.kind === "text"
            ? { kind: "text", text: item.text, at: item.at }
            : item.by === undefined
              ? { kind: "replayed_out", raw: item.text, at: item.at }
              : { kind: "replayed_out", raw: item.text, at: item.at, by: item.by },
      );
    }
    this.caughtUp = false;
    if (pageHidden() && !this.#draining) this.#drain();
    else this.#drainer.schedule();
  }

  /** Back to the relay: forget the replay and connect afresh. */
  endReplay(): void {
    if (!this.readOnly) return;
    this.readOnly = false;
    this.#resetAll();
    this.phase = "connecting";
    this.connect();
  }

  /** Forget everything the page was shown: as if it had just loaded. */
  #resetAll(): void {
    this.#drainer.cancel();
    this.#queue = [];
    this.#queueHead = 0;
    this.#lines = [];
    this.#lineAt = 0;
    this.#decoder = new JsonlDecoder();
    this.#failCalls("The page was reset.");
    this.#abandonedCalls.clear();
    this.#entriesRequests.clear();
    this.#advancing = false;
    this.#advanceAgain = false;
    this.#replayHeadMayBeCut = false;
    this.#commandSeq = 0;
    resetSessionState(this.session);
    resetLog(this.log);
    this.#resetEntries(null);
    this.room.reset();
    this.hello = null;
    this.child = null;
    this.demo = null;
    this.peers = 0;
    this.replaying = false;
    this.stderr = [];
    this.alerts = [];
    this.lastRelayError = null;
    this.reconnectAttempt = 0;
    this.caughtUp = true;
    this.logVersion++;
    this.#emitRecord({ kind: "reset" });
    for (const tap of this.#taps) {
      try {
        tap.reset?.();
      } catch (error) {
        console.error("wire tap failed", error);
      }
    }
  }

  /**
   * A command from a capture: what send() did live (pending state, the id
   * counter, an entries request) happens now, then it is logged like one.
   */
  #applyReplayedOut(item: Extract<Queued, { kind: "replayed_out" }>): void {
    let value: unknown;
    try {
      value = JSON.parse(item.raw) as unknown;
    } catch {
      value = undefined;
    }
    const record = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
    const own = item.by === undefined || item.by.clientId === this.clientId;
    const id = record?.["id"];
    const type = record?.["type"];
    // The page closed the dialog it answered (ExtensionUiHost): so does its replay.
    if (own && type === "extension_ui_response" && typeof id === "string") removeDialog(this.session.extensionUi, id);
    if (own && typeof id === "string" && typeof type === "string" && type !== "extension_ui_response" && !type.startsWith("pier.")) {
      noteCommandSent(this.session, id, type, item.at, record!);
      // Keep the counter in step with the recording, so the ids this page
      // gives its own automatic commands are the ones it gave them live.
      const prefix = `${this.clientId}:`;
      if (id.startsWith(prefix)) {
        const n = Number(id.slice(prefix.length));
        if (Number.isInteger(n) && n > this.#commandSeq) this.#commandSeq = n;
      }
      // An entries request this replay did not make by itself (it raced a person's command live): its answer still counts.
      if (type === "get_entries" && !this.#entriesRequests.has(id)) {
        const since = typeof record!["since"] === "string" ? record!["since"] : null;
        this.#entriesRequests.set(id, { since, purpose: since === null ? "load" : "advance" });
      }
    }
    const sender: LogSender =
      item.by === undefined ? { clientId: this.clientId ?? "", self: true } : item.by.name === undefined ? { clientId: item.by.clientId } : { clientId: item.by.clientId, name: item.by.name };
    const entry = this.#log("out", item.raw, value, item.at, sender);
    if (this.#taps.length !== 0) this.#tapEntry(entry, value);
  }

  #tapChunk(bytes: Uint8Array, at: number): void {
    for (const tap of this.#taps) {
      try {
        tap.chunk(bytes, at);
      } catch (error) {
        console.error("wire tap failed", error);
      }
    }
  }

  #tapEntry(entry: LogEntry, value: unknown): void {
    for (const tap of this.#taps) {
      try {
        tap.entry(entry, value, this.session);
      } catch (error) {
        console.error("wire tap failed", error);
      }
    }
  }

  #emitRecord(event: Parameters<RecordListener>[0]): void {
    for (const listener of [...this.#recordListeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error("record listener failed", error);
      }
    }
  }

  /** Show a notification in the app's alert stack (for other parts of the UI). */
  notify(level: Alert["level"], title: string, message: string): void {
    this.#pushAlert(level, title, message);
  }

  dismissAlert(id: number): void {
    const index = this.alerts.findIndex((a) => a.id === id);
    if (index !== -1) this.alerts.splice(index, 1);
  }

  // ── incoming ──────────────────────────────────────────────────────────

  #enqueue(item: Queued): void {
    if (this.#recorders.length !== 0 && !this.readOnly) this.#record(item);
    if (this.readOnly) this.caughtUp = false;
    this.#queue.push(item);
    // A hidden page gets no frames to spread the work over, and nothing to
    // show meanwhile: it keeps up at once.
    if (pageHidden() && !this.#draining) this.#drain();
    else this.#drainer.schedule();
  }

  /**
   * Apply what is queued, in order, until it is all done or this slice's
   * budget is spent (then the rest waits for the next frame). A relay frame
   * that starts or ends a replay ends the slice too: the next record must
   * meet the app after its effects have seen the new phase (they run in the
   * microtask after this task).
   */
  #drain(): void {
    if (this.#draining || this.#held !== null) return;
    this.#draining = true;
    const deadline = pageHidden() ? Infinity : performance.now() + SLICE_BUDGET_MS;
    try {
      for (;;) {
        if (this.#lineAt < this.#lines.length) {
          this.#onLine(this.#lines[this.#lineAt++]!, this.#linesArrivedAt);
        } else {
          const item = this.#queue[this.#queueHead];
          if (item === undefined) break;
          if (item.kind === "bytes" && item.tapped === undefined) {
            item.tapped = true;
            if (this.#taps.length !== 0) this.#tapChunk(item.bytes, item.at);
          }
          if (item.kind === "bytes" && item.bytes.length > DECODE_SLICE_BYTES) {
            // A big frame (replayed output can come a megabyte at once) is
            // decoded a slice at a time, so that the budget can end the
            // work between slices.
            this.#queue[this.#queueHead] = { kind: "bytes", bytes: item.bytes.subarray(DECODE_SLICE_BYTES), at: item.at, tapped: true };
            this.#streamReached(DECODE_SLICE_BYTES);
            this.#lines = this.#decoder.push(item.bytes.subarray(0, DECODE_SLICE_BYTES));
            this.#lineAt = 0;
            this.#linesArrivedAt = item.at;
          } else {
            this.#queue[this.#queueHead++] = undefined as never;
            if (this.#queueHead > 1024 && this.#queueHead * 2 > this.#queue.length) {
              this.#queue = this.#queue.slice(this.#queueHead);
              this.#queueHead = 0;
            }
            if (item.kind === "bytes") {
              this.#streamReached(item.bytes.length);
              this.#lines = this.#decoder.push(item.bytes);
              this.#lineAt = 0;
              this.#linesArrivedAt = item.at;
            } else if (item.kind === "text") {
              if (this.#onTextFrame(item.text, item.at)) {
                this.#drainer.scheduleTask();
                return;
              }
            } else if (item.kind === "out") {
              this.attribution.own(item.value);
              const entry = this.#log("out", item.raw, item.value, item.at, { clientId: this.clientId ?? "", self: true });
              if (this.#taps.length !== 0) this.#tapEntry(entry, item.value);
            } else if (item.kind === "replayed_out") {
              this.#applyReplayedOut(item);
            } else {
              void this.#onClose(item.code, item.opened);
            }
          }
        }
        if (performance.now() > deadline) {
          this.#drainer.schedule();
          return;
        }
      }
      this.#lines = [];
      this.#lineAt = 0;
      this.#queue = [];
      this.#queueHead = 0;
      if (this.readOnly) this.caughtUp = true;
    } finally {
      this.#draining = false;
      if (this.#logChanged) {
        this.#logChanged = false;
        this.logVersion++;
      }
    }
  }

  /** `length` more bytes of pi's stream are about to be decoded: the prompts logged before them count as sent (attribution). */
  #streamReached(length: number): void {
    this.#streamBytes += length;
    if (this.attribution.awaitingStream) this.attribution.streamAt(this.#streamBytes);
  }

  /** Returns true when the frame started or ended a replay. */
  #onTextFrame(text: string, at: number): boolean {
    let frame: RelayFrame;
    try {
      frame = JSON.parse(text) as RelayFrame;
    } catch {
      const entry = this.#log("relay", text, undefined, at);
      if (this.#taps.length !== 0) this.#tapEntry(entry, undefined);
      return false;
    }
    this.room.apply(frame, at);
    this.workspaceTrust.apply(frame);
    if (frame.type === "command_sent") {
      this.attribution.foreign(frame.sender, frame.line, this.session);
      this.#logForeignCommand(frame, at);
      return false;
    }
    const entry = this.#log("relay", text, frame, at);
    if (this.#taps.length !== 0) this.#tapEntry(entry, frame);
    switch (frame.type) {
      case "hello":
        this.#onHello(frame);
        return true;
      case "replay_end":
        this.#onReplayEnd();
        return true;
      case "child_started":
        this.#failCalls("pi restarted before answering.");
        this.attribution.forgetLog();
        this.#decoder = new JsonlDecoder();
        resetSessionState(this.session);
        this.#emitRecord({ kind: "reset" });
        this.child = frame.child;
        if (frame.child.state === "running") {
          // pi may have reopened the session it was on (Restart pi): catch up from our entries.
          this.send({ type: "get_state" });
          this.#loadSession(false);
        }
        return false;
      case "child_exited":
        this.#flushDecoder(at);
        this.#failCalls("pi exited before answering.");
        this.child = frame.child;
        this.session.status = "idle";
        this.session.pending = {};
        return false;
      case "stderr":
        this.stderr.push(frame.line);
        if (this.stderr.length > MAX_STDERR_LINES) this.stderr.splice(0, this.stderr.length - MAX_STDERR_LINES);
        return false;
      case "peers":
        this.peers = frame.count;
        return false;
      case "notice":
        this.#pushAlert(frame.level, "Relay", frame.message);
        return false;
      case "workspace_changed":
        if (!this.readOnly) this.#emitWorkspaceChanged(frame.paths, frame.git === true);
        return false;
      case "sessions_changed":
        if (!this.readOnly) this.sessionsListVersion++;
        return false;
      case "error": {
        this.lastRelayError = frame;
        const refusedId = frame.command?.id;
        if (refusedId !== undefined && refusedId in this.session.pending) delete this.session.pending[refusedId];
        if (refusedId !== undefined && frame.code === "rate_limited") this.#entriesRefused(refusedId);
        if (refusedId !== undefined && this.#calls.has(refusedId)) {
          // Its caller shows the refusal where the person acted.
          this.#settleCall(refusedId, localFailure(frame.command?.type ?? "unknown", frame.message));
          return false;
        }
        if (refusedId !== undefined && this.#abandonedCalls.delete(refusedId)) return false;
        // The extension UI closes the dialog and says who answered first (ExtensionUiHost).
        if (frame.code === "already_answered") return false;
        // A query nobody awaits (a refresh) refused as a copy of one in flight, or past this page's budget: the one in flight answers it.
        if (frame.code === "rate_limited" && frame.command?.type !== undefined && READ_ONLY_COMMANDS.has(frame.command.type)) return false;
        const what = frame.command?.type ? ` (${frame.command.type})` : "";
        const title = `Relay refused a command${what}`;
        const message = `${frame.message} [${frame.code}]`;
        // A viewer told "forbidden" once needs no stack of the same refusal.
        if (frame.code === "forbidden" && this.alerts.some((a) => a.title === title && a.message === message)) return false;
        this.#pushAlert("error", title, message);
        return false;
      }
      default:
        return false;
    }
  }

  /**
   * Another browser's command, as the relay wrote it to pi: logged as what
   * it is, a command to pi ("out"), with its sender, so that it pairs with
   * pi's answer like one of ours.
   */
  #logForeignCommand(frame: Extract<RelayFrame, { type: "command_sent" }>, at: number): void {
    let value: unknown;
    try {
      value = JSON.parse(frame.line) as unknown;
    } catch {
      value = undefined;
    }
    const name: unknown = frame.sender.name;
    const sender: LogSender = typeof name === "string" && name !== "" ? { clientId: frame.sender.clientId, name } : { clientId: frame.sender.clientId };
    const entry = this.#log("out", frame.line, value, at, sender);
    if (this.#taps.length !== 0) this.#tapEntry(entry, value);
  }

  #onHello(hello: HelloFrame): void {
    const wasConnectedBefore = this.hello !== null;
    this.hello = hello;
    this.child = hello.child;
    this.demo = hello.demo;
    this.peers = hello.peers;
    this.stderr = [...hello.recentStderr];
    this.phase = "connected";
    this.revoked = false;
    this.reconnectAttempt = 0;
    this.#retryDelay = RECONNECT_MIN_MS;
    this.#commandSeq = 0;
    this.#failCalls("The connection was reset before pi answered.");
    // The replay that follows is the whole (bounded) stdout of this child: start clean.
    this.#decoder = new JsonlDecoder();
    resetSessionState(this.session);
    this.#emitRecord({ kind: "reset" });
    this.replaying = true;
    this.#replayHeadMayBeCut = hello.replay.truncated;
    // Who sent the prompts the replay may echo: fed in as the stream reaches each.
    this.attribution.reset(Array.isArray(hello.sent) ? hello.sent : []);
    this.#streamBytes = 0;
    // Changes while we were away were not announced (a replay shows none: its files are not here).
    if (wasConnectedBefore && !this.readOnly) this.#emitWorkspaceChanged(null, true);
  }

  #emitWorkspaceChanged(paths: string[] | null, git: boolean): void {
    for (const listener of [...this.#workspaceListeners]) {
      try {
        listener(paths, git);
      } catch (error) {
        console.error("workspace_changed listener failed", error);
      }
    }
  }

  #onReplayEnd(): void {
    this.replaying = false;
    this.#replayHeadMayBeCut = false;
    if (this.child?.state !== "running") return;
    // The replay holds only what pi printed since it started (and maybe not
    // all of that): a session pi loaded at start (`--continue`, `--session`)
    // or the head of a cut replay is only in pi's session. With entries from
    // before (a reconnect, a restart on the same session) only the ones after
    // them are asked for.
    this.session.needsMessages = false;
    this.send({ type: "get_state" });
    this.#loadSession(false);
  }

  /**
   * Show pi's current session: its entries (all of them when `fresh`, or the
   * ones after the last we know), then the transcript from them, or from
   * get_messages when only pi can compute it.
   */
  #loadSession(fresh: boolean): void {
    this.session.needsSessionLoad = false;
    if (fresh) this.#resetEntries(null);
    this.#requestEntries(lastEntryId(this.entries), "load");
  }

  #requestEntries(since: string | null, purpose: EntriesRequest["purpose"]): void {
    const id = this.send(since === null ? { type: "get_entries" } : { type: "get_entries", since });
    if (id !== null) this.#entriesRequests.set(id, { since, purpose });
    else if (purpose === "advance") this.#advancing = false;
  }

  /**
   * A get_entries the relay refused (rate_limited: this page had too many
   * queries waiting): no answer will come, so it is asked again in a moment
   * rather than leaving the entries stuck.
   */
  #entriesRefused(id: string): void {
    const request = this.#entriesRequests.get(id);
    if (request === undefined) return;
    this.#entriesRequests.delete(id);
    if (request.purpose === "advance") this.#advancing = false;
    setTimeout(() => (request.purpose === "advance" ? this.#advanceEntries() : this.#requestEntries(request.since, "load")), ENTRIES_RETRY_MS);
  }

  /** After a run, a compaction or a bash: fetch the new entries (one request at a time). */
  #advanceEntries(): void {
    if (this.#advancing) {
      this.#advanceAgain = true;
      return;
    }
    const since = lastEntryId(this.entries);
    if (since === null) return; // nothing loaded yet: the load in flight covers it
    this.#advancing = true;
    this.#requestEntries(since, "advance");
  }

  #onEntriesAnswer(request: EntriesRequest, response: RpcResponse): void {
    if (request.purpose === "advance") {
      this.#advancing = false;
      if (this.#advanceAgain) {
        this.#advanceAgain = false;
        queueMicrotask(() => this.#advanceEntries());
      }
    }
    const applied = response.success && applyEntriesAnswer(this.entries, (response as { data?: unknown }).data, request.since);
    if (!applied) {
      // The cursor is unknown to pi (another session) or the answer is unusable: start over once.
      this.#resetEntries(this.entries.sessionId);
      if (request.since !== null) this.#requestEntries(null, request.purpose);
      else if (request.purpose === "load") this.send({ type: "get_messages" });
      return;
    }
    this.#entriesChanged();
    if (request.purpose !== "load") return;
    const plain = plainConversation(this.entries);
    if (plain === null) {
      this.send({ type: "get_messages" });
      return;
    }
    const messages: AgentMessage[] = plain.systemPrompt ? [plain.systemPrompt, ...plain.messages] : plain.messages;
    applyGetMessages(this.session, messages);
  }

  #resetEntries(sessionId: string | null): void {
    resetEntryIndex(this.entries, sessionId);
    this.#entriesChanged();
  }

  #entriesChanged(): void {
    if (this.entriesVersion === this.entries.version) return;
    this.entriesVersion = this.entries.version;
    this.compactedHistory = compactedHistory(this.entries);
  }

  /** A get_state answer names the session pi is on: entries of another one are stale. */
  #noteSessionId(sessionId: unknown): void {
    if (typeof sessionId !== "string" || sessionId === this.entries.sessionId) return;
    if (this.entries.sessionId === null) this.entries.sessionId = sessionId;
    else this.#resetEntries(sessionId);
  }

  /** Entries (for fork, the tree, history) up to date with what pi holds now; the failure in words, or null. */
  async refreshEntries(): Promise<string | null> {
    const since = lastEntryId(this.entries);
    const response = await this.call(since === null ? { type: "get_entries" } : { type: "get_entries", since });
    if (!response.success) {
      // A cursor pi does not know (another session): take everything once.
      if (since === null) return String(response.error ?? "pi sent no entries.");
      this.#resetEntries(this.entries.sessionId);
      return this.refreshEntries();
    }
    if (!applyEntriesAnswer(this.entries, (response as { data?: unknown }).data, since)) {
      if (since === null) return "pi's entries could not be read.";
      this.#resetEntries(this.entries.sessionId);
      return this.refreshEntries();
    }
    this.#entriesChanged();
    return null;
  }

  #fetchMessagesIfNeeded(): void {
    if (!this.session.needsMessages) return;
    this.session.needsMessages = false;
    this.send({ type: "get_messages" });
  }

  #flushDecoder(at: number): void {
    for (const line of this.#decoder.end()) this.#onLine(line, at);
  }

  #onLine(line: DecodedLine, at: number): void {
    const cutHead = this.#replayHeadMayBeCut;
    this.#replayHeadMayBeCut = false;
    if (line.kind === "invalid") {
      const entry = this.#log("in", line.raw, undefined, at);
      // A truncated replay can begin inside a record: that fragment is not pi's fault.
      if (!cutHead) applyInvalidLine(this.session, line.raw, line.error, at);
      if (this.#taps.length !== 0) this.#tapEntry(entry, undefined);
      return;
    }
    const entry = this.#log("in", line.raw, line.value, at);
    const record = line.value as { type?: unknown; id?: unknown; command?: unknown; success?: unknown };
    const failuresBefore = this.session.failures.length;
    const pendingType =
      typeof record.id === "string" ? this.session.pending[record.id]?.type : undefined;

    // A response someone awaits via call() is shown by that caller, where the
    // person acted; only failures nobody awaits go to the global alerts.
    const awaited = record.type === "response" && typeof record.id === "string" && this.#calls.has(record.id);

    const entriesRequest = record.type === "response" && typeof record.id === "string" ? this.#entriesRequests.get(record.id) : undefined;
    if (entriesRequest !== undefined) this.#entriesRequests.delete(record.id as string);

    // Finished messages, tool results…: out of Svelte's deep reactivity (settle-records.ts).
    settleRecord(line.value);
    // Times are the record's arrival, not this slice's: a replay shows the ones it had live.
    applyRecord(this.session, line.value, at);
    this.attribution.record(line.value, this.session, this.replaying);
    // Right after the reducer: the inspector describes what the record did from the state it left.
    if (this.#taps.length !== 0) this.#tapEntry(entry, line.value);
    this.#emitRecord({ kind: "record", record: line.value, replaying: this.replaying });
    if (awaited) this.#settleCall(record.id as string, line.value as RpcResponse);
    if (record.type === "response" && record.command === "get_state" && record.success === true) {
      this.#noteSessionId((line.value as { data?: { sessionId?: unknown } }).data?.sessionId);
    }
    if (entriesRequest !== undefined) this.#onEntriesAnswer(entriesRequest, line.value as RpcResponse);

    if (this.session.failures.length > failuresBefore && !awaited) {
      const failure = this.session.failures.at(-1)!;
      const title = failure.command === "parse" ? "pi could not parse a command" : `“${failure.command}” failed`;
      this.#pushAlert("error", title, failure.error);
    }
    if (this.replaying) return;
    // Someone (this browser, another, an extension) moved pi to another
    // session: show that one, in every browser.
    if (this.session.needsSessionLoad) {
      this.send({ type: "get_state" });
      this.#loadSession(true);
    }
    // The stream alone cannot say which messages pi kept after a compaction,
    // nor the stored form of an RPC bash: the reducer asks for get_messages.
    this.#fetchMessagesIfNeeded();
    if (record.type === "agent_settled") this.send({ type: "get_state" });
    else if (record.type === "response" && record.success === true && pendingType === undefined && typeof record.command === "string" && CHANGES_STATE.has(record.command)) {
      this.send({ type: "get_state" });
    }
    if (typeof record.type === "string" && ADDS_ENTRIES.has(record.type)) this.#advanceEntries();
    else if (record.type === "response" && record.command === "bash" && record.success === true) this.#advanceEntries();
    // An extension command may have switched sessions without a run: ask
    // where pi is now (pi ≥ 0.99 says when a run starts, which agent_settled covers).
    // Whoever sent the prompt: a query's answer reaches only its asker, so
    // every page asks for itself.
    if (record.type === "response" && record.command === "prompt" && record.success === true && this.session.status === "idle") {
      const disposition = (line.value as { data?: { disposition?: unknown } }).data?.disposition;
      if (disposition !== "started" && disposition !== "queued") this.send({ type: "get_state" });
    }
  }

  async #onClose(code: number, opened: boolean): Promise<void> {
    this.#failCalls("The connection to the relay closed before pi answered.");
    if (this.#stopped) return;
    this.replaying = false;
    if (code === CLOSE_REVOKED) {
      // Its cookie no longer works either: reconnecting would only be refused.
      this.revoked = true;
      this.phase = "unauthorized";
      return;
    }
    if (code === UNAUTHORIZED_CLOSE_CODE || (!opened && (await this.#probeUnauthorized()))) {
      this.phase = "unauthorized";
      return;
    }
    this.phase = this.hello ? "reconnecting" : "connecting";
    this.#scheduleReconnect();
  }

  /**
   * A refused upgrade (HTTP 401) reaches the page only as close code 1006, so
   * ask the server directly whether our cookie is still accepted.
   */
  async #probeUnauthorized(): Promise<boolean> {
    try {
      // Bounded: a relay that stopped answering would hold the reconnecting up.
      const response = await fetch(location.pathname, { method: "HEAD", cache: "no-store", credentials: "same-origin", signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      return response.status === 401 || response.status === 403;
    } catch {
      return false;
    }
  }

  #scheduleReconnect(): void {
    if (this.#stopped || this.#retryTimer !== null) return;
    this.reconnectAttempt++;
    const delay = this.#retryDelay * (0.8 + Math.random() * 0.4);
    this.#retryDelay = Math.min(this.#retryDelay * 2, RECONNECT_MAX_MS);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.connect();
    }, delay);
  }

  #clearRetry(): void {
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
  }

  // ── helpers ───────────────────────────────────────────────────────────

  #pushAlert(level: Alert["level"], title: string, message: string): void {
    this.alerts.push({ id: ++this.#alertSeq, level, title, message, at: Date.now() });
    if (this.alerts.length > MAX_ALERTS) this.alerts.splice(0, this.alerts.length - MAX_ALERTS);
  }

  /** Only while draining: the version is bumped once, at the end of the slice. */
  #log(direction: LogDirection, raw: string, value: unknown, at: number, sender?: LogSender): LogEntry {
    this.#logChanged = true;
    return appendLog(this.log, direction, raw, value, at, sender);
  }
}

export function defaultSocketUrl(): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${RELAY_SOCKET_PATH}`;
}
