// The page's connection to the relay, as components see it: the runes
// fields they read (phase, the reduced session, hello, room, the record
// log, alerts…) and the commands they send. Nothing else touches the
// socket. The work is done by the parts behind it, each in a file of its
// own:
//   socket-link.ts            the WebSocket: open, heartbeat death, backoff, the 401 probe
//   inbound-queue.ts          what arrives, applied in order, a time-boxed slice per frame
//   call-matcher.ts           call()s waiting for their answers
//   session-loader.ts         get_entries / get_messages, the entry cursor
//   connection-listeners.ts   record / workspace listeners, wire taps, recorders
//   alerts.svelte.ts          the alert stack
// What stays here is what ties them together: relay frames and pi's
// records as they are applied (what each means for the others), command
// ids, and replay.
//
// Replay (replay-feed.ts): the same queue can be fed from a capture file
// instead of the socket. Everything downstream (framing, reducer, record log,
// wire taps, relay frames) is the code a live page runs, so the page
// reconstructs exactly; the connection is read-only then: the commands it
// would send by itself (get_state, get_entries…) only take their ids, which
// match the recorded answers, and nothing leaves the page.

import { CLOSE_REVOKED, READ_ONLY_COMMANDS, type ChildStatus, type DemoInfo, type ExtensionUiResponse, type RelayFrame, type RelayRequest } from "@pier/protocol";
import type { ConversationMessage, RpcResponse } from "../pi-types.ts";
import { applyInvalidLine, applyRecord, noteCommandSent } from "../pi-state/reduce-record.ts";
import { activePath, compactedHistory, type EntryIndex } from "../pi-state/entry-index.ts";
import { branchCustomEntries, type BranchItem } from "../pi-state/custom-entries.ts";
import { expirePending } from "../pi-state/pending-commands.ts";
import { relayDialogsOf, removeDialog } from "../extension-ui/extension-ui-state.ts";
import { settleItems, settleRecord } from "./settle-records.ts";
import { resetSessionState, type SessionState } from "../pi-state/session-state.ts";
import { createSessionStore } from "../pi-state/session-store.svelte.ts";
import { deferLiveText, flushLiveText } from "../pi-state/assistant-stream.ts";
import { appendLog, appendParsedLog, createRecordLog, resetLog, type LogDirection, type LogEntry, type LogSender, type RecordLog } from "../pi-state/record-log.ts";
import type { WireTap } from "./wire-tap.ts";
import type { ReplayItem, WireRecorder } from "./replay-feed.ts";
import { Room } from "../room/room.svelte.ts";
import { WorkspaceTrustStore } from "../workspace/workspace-trust.svelte.ts";
import { Attribution } from "../room/attribution.svelte.ts";
import { AlertStore, type Alert } from "./alerts.svelte.ts";
import { CallMatcher, localFailure } from "./call-matcher.ts";
import { ConnectionListeners, type RecordListener, type WorkspaceChangeListener } from "./connection-listeners.ts";
import { InboundQueue, type InboundLine, type Queued } from "./inbound-queue.ts";
import type { OutgoingCommand } from "./outgoing.ts";
import { SessionLoader } from "./session-loader.ts";
import { relayPaths, SocketLink, type SocketLike } from "./socket-link.ts";

export type { Alert } from "./alerts.svelte.ts";
export type { RecordListener, WorkspaceChangeListener } from "./connection-listeners.ts";
export type { OutgoingCommand } from "./outgoing.ts";

export type ConnectionPhase = "connecting" | "connected" | "reconnecting" | "unauthorized";

export type HelloFrame = Extract<RelayFrame, { type: "hello" }>;

/** Close code the relay uses for a socket without a valid session cookie. */
export const UNAUTHORIZED_CLOSE_CODE = 4401;

/** After this long without an answer a command is shown as overdue or timed out. */
const PENDING_TIMEOUT_MS = 15_000;
const MAX_STDERR_LINES = 500;
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

/** What a viewer's page answers itself when asked to send pi a command. */
export const VIEWER_REFUSAL = "Viewers watch: only a driver can send pi commands — ask the driver.";

/** How long `call()` waits for pi's answer before giving up. */
const CALL_TIMEOUT_MS = 30_000;

const READ_ONLY = "Replay — read-only: nothing is sent.";

export interface ConnectionOptions {
  /**
   * URL path prefix of everything this connection reaches on the relay: its
   * socket and the HTTP paths it builds. "" (the default) is today's single
   * session (the socket at /ws); a live session's own prefix comes later.
   */
  prefix?: string;
  /** Make the WebSocket (tests; default `new WebSocket(url)`). */
  createSocket?: (url: string) => SocketLike;
}

export class RelayConnection {
  phase = $state<ConnectionPhase>("connecting");
  /** Reduced pi session (deep reactive: pi-state/session-store.svelte.ts, the store the reducer bench measures). */
  readonly session: SessionState = createSessionStore();
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
  stderr = $state<string[]>([]);
  lastRelayError = $state<Extract<RelayFrame, { type: "error" }> | null>(null);
  /** The link this page was opened with was revoked (the relay closed the socket with CLOSE_REVOKED). */
  revoked = $state(false);
  /** Attempts since the last successful hello (for the status bar). */
  reconnectAttempt = $state(0);
  /** Bumped (at most once per applied slice, so once per frame) when `log` changes; the log itself is not reactive. */
  logVersion = $state(0);
  readonly log: RecordLog = createRecordLog();
  /** Bumped when `entries` changes. */
  entriesVersion = $state(0);
  /** pi's session is being loaded into the page (a get_entries for it is waiting): a long one takes seconds. */
  loadingSession = $state(false);
  /** Messages the latest compaction took out of the model's context (shown collapsed above it). */
  compactedHistory = $state.raw<ConversationMessage[]>([]);
  /** The extension entries on pi's active branch and the messages before them (custom-entries.ts); usually empty. */
  branchEntries = $state.raw<BranchItem[]>([]);
  /** Bumped when the relay says session files changed on disk. */
  sessionsListVersion = $state(0);
  /** Bumped when the relay says the session's real shells changed (opened, closed, shared…). */
  terminalsListVersion = $state(0);
  /** The URL path prefix this connection's socket and HTTP paths are under ("" today). */
  readonly prefix: string;

  readonly #alerts = new AlertStore();
  readonly #calls = new CallMatcher();
  readonly #listeners = new ConnectionListeners();
  readonly #link: SocketLink;
  readonly #inbound: InboundQueue;
  readonly #loader: SessionLoader;
  #pendingTimer: ReturnType<typeof setInterval> | null = null;
  #commandSeq = 0;
  #stopped = false;
  /** Bytes of pi's stream handed to the decoder since the hello (where the hello's logged prompts went to pi is counted in these). */
  #streamBytes = 0;
  #logChanged = false;
  /** The first line of a truncated replay may start mid-record. */
  #replayHeadMayBeCut = false;

  constructor(options: ConnectionOptions = {}) {
    this.prefix = options.prefix ?? "";
    const link: ConstructorParameters<typeof SocketLink>[0] = {
      paths: relayPaths(this.prefix),
      onText: (text, at) => this.#enqueue({ kind: "text", text, at }),
      onBytes: (bytes, at) => this.#enqueue({ kind: "bytes", bytes, at }),
      // After whatever arrived before it.
      onClosed: (code, opened) => this.#enqueue({ kind: "closed", code, opened }),
      onRetry: () => this.connect(),
    };
    if (options.createSocket !== undefined) link.createSocket = options.createSocket;
    this.#link = new SocketLink(link);
    deferLiveText(this.session);
    this.#inbound = new InboundQueue({
      chunk: (bytes, at) => {
        if (this.#listeners.tapping) this.#listeners.tapChunk(bytes, at);
      },
      streamReached: (length) => this.#streamReached(length),
      line: (line, at) => this.#onLine(line, at),
      // A slice of a long answer (a session's entries), a task of its own: settled as it comes, not all at once after.
      longItems: (field, items) => settleItems(field, items),
      text: (text, at) => this.#onTextFrame(text, at),
      out: (item) => {
        this.attribution.own(item.value);
        const entry = this.#log("out", item.raw, item.value, item.at, { clientId: this.clientId ?? "", self: true });
        if (this.#listeners.tapping) this.#listeners.tapEntry(entry, item.value, this.session);
      },
      replayedOut: (item) => this.#applyReplayedOut(item),
      closed: (code, opened) => void this.#onClose(code, opened),
      idle: () => {
        if (!this.readOnly) return;
        this.caughtUp = true;
        // The capture's last event is applied: its end is the end (the inspector's checks judge what still waits).
        const endAt = this.#captureEndAt;
        this.#captureEndAt = null;
        if (endAt !== null) this.#listeners.tapCaptureEnd(endAt);
      },
      sliceEnd: () => {
        // The text deltas of the slice, written into the state once (Svelte draws after the slice).
        flushLiveText(this.session);
        if (!this.#logChanged) return;
        this.#logChanged = false;
        this.logVersion++;
      },
    });
    // The room tells of a session change when pi confirms it (room.svelte.ts noteRecord).
    this.#listeners.onRecord((event) => {
      if (event.kind === "record") this.room.noteRecord(event.record);
    });
    this.#loader = new SessionLoader({
      send: (command) => this.send(command),
      call: (command) => this.call(command),
      session: () => this.session,
      onEntriesChanged: () => this.#entriesChanged(),
      onLoadingChanged: (loading) => (this.loadingSession = loading),
    });
  }

  get clientId(): string | null {
    return this.hello?.clientId ?? null;
  }

  get connected(): boolean {
    return this.phase === "connected";
  }

  /** The alert stack, oldest first (see notify, dismissAlert). */
  get alerts(): Alert[] {
    return this.#alerts.items;
  }

  /**
   * pi's session entries as far as seen (not reactive: they can be large;
   * `entriesVersion` says when they changed). Kept across reconnects and pi
   * restarts: the cursor that lets this browser catch up with only what it missed.
   */
  get entries(): EntryIndex {
    return this.#loader.entries;
  }

  connect(): void {
    if (this.readOnly) return;
    this.#stopped = false;
    // Commands pi has not answered for a while are shown as overdue.
    this.#pendingTimer ??= setInterval(() => {
      const now = Date.now();
      expirePending(this.session, now, PENDING_TIMEOUT_MS);
      this.#link.checkAlive(now, this.hello?.heartbeatMs ?? 0);
    }, 1000);
    const failure = this.#link.open();
    if (failure !== null) {
      this.#alerts.push("error", "Cannot open connection", failure);
      this.#scheduleReconnect();
    }
  }

  /**
   * Receive at once, but apply nothing before `ready` settles, or `maxMs`
   * passed: what arrives meanwhile waits in the queue, in order. For code
   * that must see every record from the first one on and is still loading
   * (main.ts: the inspector's store), without delaying the socket for it.
   */
  holdUntil(ready: Promise<unknown>, maxMs: number): void {
    this.#inbound.holdUntil(ready, maxMs);
  }

  /** Stop for good (tests, page teardown). */
  close(): void {
    this.#stopped = true;
    if (this.#pendingTimer) clearInterval(this.#pendingTimer);
    this.#pendingTimer = null;
    this.#inbound.clear();
    this.#link.stop();
  }

  /** Try again now (the "Retry" button, or after fixing the cookie). */
  retryNow(): void {
    this.#link.resetBackoff();
    this.#link.drop();
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
    const clientId = this.clientId;
    if (!this.#link.isOpen || clientId === null) {
      this.#alerts.push("warning", "Not connected", `“${command.type}” was not sent: the relay connection is down.`);
      return null;
    }
    const id = `${clientId}:${++this.#commandSeq}`;
    this.#sendCommand(id, command.type, { id, ...command });
    return id;
  }

  /** Only with the link open (checked by the caller). */
  #sendCommand(id: string, type: string, record: Readonly<Record<string, unknown>>): void {
    const raw = JSON.stringify(record);
    noteCommandSent(this.session, id, type, Date.now(), record);
    this.#link.send(raw);
    this.#enqueue({ kind: "out", raw, value: record, at: Date.now() });
  }

  /** Send `value` as it is (no id, nothing pending); false when the link is down. */
  #sendRaw(value: unknown): boolean {
    const raw = JSON.stringify(value);
    if (!this.#link.send(raw)) return false;
    this.#enqueue({ kind: "out", raw, value, at: Date.now() });
    return true;
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
    const clientId = this.clientId;
    if (!this.#link.isOpen || clientId === null) return Promise.resolve(localFailure(type, "Not connected to the relay."));
    const unanswerable = type === "extension_ui_response" || type.startsWith("pier.");
    if (unanswerable || (record["id"] !== undefined && typeof record["id"] !== "string")) {
      this.#sendRaw(record);
      // An id that is not a string cannot be matched with an answer (pi's ids are strings): sent as written, not awaited.
      const note = unanswerable ? undefined : "Sent as written. Its id is not a string, so its answer cannot be awaited: look for it in the records.";
      return Promise.resolve(note === undefined ? ({ type: "response", command: type, success: true } as RpcResponse) : localFailure(type, note));
    }
    const id = typeof record["id"] === "string" ? record["id"] : `${clientId}:${++this.#commandSeq}`;
    const withId = typeof record["id"] === "string" ? record : { id, ...record };
    if (this.#calls.has(id)) return Promise.resolve(localFailure(type, `A command with id “${id}” is still waiting for its answer.`));
    const answer = this.#calls.wait(id, type, timeoutMs);
    this.#sendCommand(id, type, withId);
    return answer;
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
    return this.#calls.wait(id, command.type, timeoutMs);
  }

  /**
   * Answer an extension dialog. Sent as-is: it must carry the request's id,
   * and pi sends no response record for it (so nothing is pending).
   */
  respondToExtension(response: ExtensionUiResponse): boolean {
    if (!this.room.canDrive) return false;
    if (this.readOnly) return false;
    if (this.#sendRaw(response)) return true;
    this.#alerts.push("warning", "Not connected", "The answer to the extension was not sent: the relay connection is down.");
    return false;
  }

  /** Send a relay control request ("pier.*"). */
  request(request: RelayRequest): boolean {
    if (this.readOnly) return false;
    if (this.#sendRaw(request)) return true;
    this.#alerts.push("warning", "Not connected", "The relay connection is down.");
    return false;
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
    return this.#listeners.onWorkspaceChanged(listener);
  }

  /** Subscribe to pi's records (for views that keep their own state, e.g. bash panels). Returns the unsubscribe function. */
  onRecord(listener: RecordListener): () => void {
    return this.#listeners.onRecord(listener);
  }

  /**
   * Listen to everything applied, as it is applied (see wire-tap.ts): for the
   * protocol inspector. Returns the function that removes the tap.
   */
  addWireTap(tap: WireTap): () => void {
    return this.#listeners.addWireTap(tap);
  }

  /**
   * Record what crosses the wire, in arrival order (see replay-feed.ts).
   * Returns the function that stops it.
   */
  addRecorder(recorder: WireRecorder): () => void {
    return this.#listeners.addRecorder(recorder);
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
    const queued: Queued[] = [];
    for (let i = from; i < to; i++) {
      const item = items[i]!;
      queued.push(
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
    this.#captureEndAt = to === items.length ? items[to - 1]!.at : null;
    this.#inbound.pushMany(queued);
  }

  /** Set while a replay's queue ends with the capture's last event: that event's time. */
  #captureEndAt: number | null = null;

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
    this.#inbound.clear();
    this.#inbound.resetDecoder();
    this.#calls.failAll("The page was reset.");
    this.#calls.forgetAbandoned();
    this.#replayHeadMayBeCut = false;
    this.#captureEndAt = null;
    this.#commandSeq = 0;
    resetSessionState(this.session);
    resetLog(this.log);
    this.#loader.reset();
    this.room.reset();
    this.hello = null;
    this.child = null;
    this.demo = null;
    this.peers = 0;
    this.replaying = false;
    this.stderr = [];
    this.#alerts.clear();
    this.lastRelayError = null;
    this.reconnectAttempt = 0;
    this.caughtUp = true;
    this.logVersion++;
    this.#listeners.record({ kind: "reset" });
    this.#listeners.tapReset();
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
      if (type === "get_entries") this.#loader.noteRequest(id, typeof record!["since"] === "string" ? record!["since"] : null);
    }
    const sender: LogSender =
      item.by === undefined ? { clientId: this.clientId ?? "", self: true } : item.by.name === undefined ? { clientId: item.by.clientId } : { clientId: item.by.clientId, name: item.by.name };
    const entry = this.#log("out", item.raw, value, item.at, sender);
    if (this.#listeners.tapping) this.#listeners.tapEntry(entry, value, this.session);
  }

  /** Show a notification in the app's alert stack (for other parts of the UI). */
  notify(level: Alert["level"], title: string, message: string): void {
    this.#alerts.push(level, title, message);
  }

  dismissAlert(id: number): void {
    this.#alerts.dismiss(id);
  }

  // ── incoming ──────────────────────────────────────────────────────────

  #enqueue(item: Queued): void {
    if (this.#listeners.recording && !this.readOnly && (item.kind === "bytes" || item.kind === "text" || item.kind === "out")) this.#listeners.recordWire(item);
    if (this.readOnly) this.caughtUp = false;
    this.#inbound.push(item);
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
      if (this.#listeners.tapping) this.#listeners.tapEntry(entry, undefined, this.session);
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
    if (this.#listeners.tapping) this.#listeners.tapEntry(entry, frame, this.session);
    switch (frame.type) {
      case "hello":
        this.#onHello(frame);
        return true;
      case "replay_end":
        this.#onReplayEnd();
        return true;
      case "child_started":
        this.#calls.failAll("pi restarted before answering.");
        this.#loader.lost();
        this.attribution.forgetLog();
        this.#inbound.resetDecoder();
        resetSessionState(this.session);
        this.#listeners.record({ kind: "reset" });
        this.child = frame.child;
        // A tap's page asks pi nothing (the relay refuses it: pi is another client's).
        if (frame.child.state === "running" && !this.hello?.tap) {
          // pi may have reopened the session it was on (Restart pi): catch up from our entries.
          this.send({ type: "get_state" });
          this.#loader.load(false);
        }
        return false;
      case "child_exited":
        this.#inbound.flushDecoder(at);
        this.#calls.failAll("pi exited before answering.");
        this.#loader.lost();
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
        this.#alerts.push(frame.level, "Relay", frame.message);
        return false;
      case "workspace_changed":
        if (!this.readOnly) this.#listeners.workspaceChanged(frame.paths, frame.git === true);
        return false;
      case "sessions_changed":
        if (!this.readOnly) this.sessionsListVersion++;
        return false;
      case "terminals_changed":
        if (!this.readOnly) this.terminalsListVersion++;
        return false;
      case "error":
        this.#onRelayError(frame);
        return false;
      default:
        return false;
    }
  }

  #onRelayError(frame: Extract<RelayFrame, { type: "error" }>): void {
    this.lastRelayError = frame;
    const refusedId = frame.command?.id;
    if (refusedId !== undefined && refusedId in this.session.pending) delete this.session.pending[refusedId];
    if (refusedId !== undefined && frame.code === "rate_limited") this.#loader.refused(refusedId);
    // A load that waited on the same get_entries pi was answering when it exited: the next pi's load replaces it.
    else if (refusedId !== undefined && frame.code === "pi_not_running" && this.#loader.dropped(refusedId)) return;
    // Its caller shows the refusal where the person acted.
    if (refusedId !== undefined && this.#calls.refuse(refusedId, frame.command?.type ?? "unknown", frame.message)) return;
    if (refusedId !== undefined && this.#calls.takeAbandoned(refusedId)) return;
    // The extension UI closes the dialog and says who answered first (ExtensionUiHost).
    if (frame.code === "already_answered") return;
    // A query nobody awaits (a refresh) refused as a copy of one in flight, or past this page's budget: the one in flight answers it.
    if (frame.code === "rate_limited" && frame.command?.type !== undefined && READ_ONLY_COMMANDS.has(frame.command.type)) return;
    const what = frame.command?.type ? ` (${frame.command.type})` : "";
    const title = `Relay refused a command${what}`;
    const message = `${frame.message} [${frame.code}]`;
    // A viewer told "forbidden" once needs no stack of the same refusal.
    if (frame.code === "forbidden" && this.#alerts.showing(title, message)) return;
    this.#alerts.push("error", title, message);
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
    if (this.#listeners.tapping) this.#listeners.tapEntry(entry, value, this.session);
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
    this.#link.resetBackoff();
    this.#commandSeq = 0;
    this.#calls.failAll("The connection was reset before pi answered.");
    // The replay that follows is the whole (bounded) stdout of this child: start clean.
    this.#inbound.resetDecoder();
    resetSessionState(this.session);
    // Which replayed dialogs still wait, and which were answered (extension-ui-state.ts, rule 7).
    this.session.extensionUi.relayDialogs = relayDialogsOf(hello.dialogs);
    this.#listeners.record({ kind: "reset" });
    this.replaying = true;
    this.#replayHeadMayBeCut = hello.replay.truncated;
    // Who sent the prompts the replay may echo: fed in as the stream reaches each.
    this.attribution.reset(Array.isArray(hello.sent) ? hello.sent : []);
    this.#streamBytes = 0;
    // Changes while we were away were not announced (a replay shows none: its files are not here).
    if (wasConnectedBefore && !this.readOnly) this.#listeners.workspaceChanged(null, true);
  }

  #onReplayEnd(): void {
    this.replaying = false;
    this.#replayHeadMayBeCut = false;
    // pier tap: the page has what the replay gives it; its reads would be refused (pi is another client's).
    if (this.child?.state !== "running" || this.hello?.tap) return;
    // The replay holds only what pi printed since it started (and maybe not
    // all of that): a session pi loaded at start (`--continue`, `--session`)
    // or the head of a cut replay is only in pi's session. With entries from
    // before (a reconnect, a restart on the same session) only the ones after
    // them are asked for.
    this.session.needsMessages = false;
    this.send({ type: "get_state" });
    this.#loader.load(false);
  }

  #entriesChanged(): void {
    const entries = this.#loader.entries;
    if (this.entriesVersion === entries.version) return;
    this.entriesVersion = entries.version;
    this.compactedHistory = compactedHistory(entries);
    this.branchEntries = branchCustomEntries(activePath(entries));
  }

  /** Entries (for fork, the tree, history) up to date with what pi holds now; the failure in words, or null. */
  refreshEntries(): Promise<string | null> {
    return this.#loader.refresh();
  }

  #fetchMessagesIfNeeded(): void {
    if (!this.session.needsMessages) return;
    this.session.needsMessages = false;
    this.send({ type: "get_messages" });
  }

  #onLine(line: InboundLine, at: number): void {
    const cutHead = this.#replayHeadMayBeCut;
    this.#replayHeadMayBeCut = false;
    if (line.kind === "invalid") {
      const entry = this.#log("in", line.raw, undefined, at);
      // A truncated replay can begin inside a record: that fragment is not pi's fault.
      if (!cutHead) applyInvalidLine(this.session, line.raw, line.error, at);
      if (this.#listeners.tapping) this.#listeners.tapEntry(entry, undefined, this.session);
      return;
    }
    const entry = line.kind === "long" ? this.#logParsed(line.length, line.value, at) : this.#log("in", line.raw, line.value, at);
    const record = line.value as { type?: unknown; id?: unknown; command?: unknown; success?: unknown };
    if (record.type === "message_update") {
      // A streaming step, thousands a second while pi writes: it grows the
      // live message and nothing else (no response, failure, load or entry),
      // so none of the checks below, each a read of the session's $state,
      // can see anything change. Attribution looks only at message_end and
      // responses.
      settleRecord(line.value);
      applyRecord(this.session, line.value, at);
      if (this.#listeners.tapping) this.#listeners.tapEntry(entry, line.value, this.session);
      this.#listeners.record({ kind: "record", record: line.value, replaying: this.replaying });
      return;
    }
    // The newest failure, not the count: the list is bounded, and once full a new one leaves its length as it was.
    const lastFailureBefore = this.session.failures.at(-1);
    const pendingType = typeof record.id === "string" ? this.session.pending[record.id]?.type : undefined;

    // A response someone awaits via call() is shown by that caller, where the
    // person acted; only failures nobody awaits go to the global alerts.
    const awaited = record.type === "response" && typeof record.id === "string" && this.#calls.has(record.id);

    const entriesRequest = record.type === "response" && typeof record.id === "string" ? this.#loader.take(record.id) : undefined;

    // Finished messages, tool results…: out of Svelte's deep reactivity (settle-records.ts). A long line's big array came settled (longItems).
    settleRecord(line.value, line.kind === "long" && line.sliced);
    // Times are the record's arrival, not this slice's: a replay shows the ones it had live.
    applyRecord(this.session, line.value, at);
    this.attribution.record(line.value, this.session, this.replaying);
    // Right after the reducer: the inspector describes what the record did from the state it left.
    if (this.#listeners.tapping) this.#listeners.tapEntry(entry, line.value, this.session);
    this.#listeners.record({ kind: "record", record: line.value, replaying: this.replaying });
    if (awaited) this.#calls.settle(record.id as string, line.value as RpcResponse);
    if (record.type === "response" && record.command === "get_state" && record.success === true) {
      this.#loader.noteSessionId((line.value as { data?: { sessionId?: unknown } }).data?.sessionId);
    }
    if (entriesRequest !== undefined) this.#loader.answer(entriesRequest, line.value as RpcResponse, line.kind === "long" && line.checked);

    const failure = this.session.failures.at(-1);
    if (failure !== undefined && failure !== lastFailureBefore && !awaited) {
      const title = failure.command === "parse" ? "pi could not parse a command" : `“${failure.command}” failed`;
      this.#alerts.push("error", title, failure.error);
    }
    if (this.replaying) return;
    // Someone (this browser, another, an extension) moved pi to another
    // session: show that one, in every browser.
    if (this.session.needsSessionLoad) {
      this.send({ type: "get_state" });
      this.#loader.load(true);
    }
    // The stream alone cannot say which messages pi kept after a compaction,
    // nor the stored form of an RPC bash: the reducer asks for get_messages.
    this.#fetchMessagesIfNeeded();
    if (record.type === "agent_settled") this.send({ type: "get_state" });
    else if (record.type === "response" && record.success === true && pendingType === undefined && typeof record.command === "string" && CHANGES_STATE.has(record.command)) {
      this.send({ type: "get_state" });
    }
    if (typeof record.type === "string" && ADDS_ENTRIES.has(record.type)) this.#loader.advance();
    else if (record.type === "response" && record.command === "bash" && record.success === true) this.#loader.advance();
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
    this.#calls.failAll("The connection to the relay closed before pi answered.");
    if (this.#stopped) return;
    this.replaying = false;
    if (code === CLOSE_REVOKED) {
      // Its cookie no longer works either: reconnecting would only be refused.
      this.revoked = true;
      this.phase = "unauthorized";
      return;
    }
    if (code === UNAUTHORIZED_CLOSE_CODE || (!opened && (await this.#link.probeUnauthorized()))) {
      this.phase = "unauthorized";
      return;
    }
    this.phase = this.hello ? "reconnecting" : "connecting";
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#stopped) return;
    if (this.#link.retryLater()) this.reconnectAttempt++;
  }

  /** A long line parsed off the thread (inbound-queue.ts): logged parsed, with its length on the wire. */
  #logParsed(length: number, value: unknown, at: number): LogEntry {
    this.#logChanged = true;
    return appendParsedLog(this.log, "in", length, value, at);
  }

  /** Only while draining: the version is bumped once, at the end of the slice. */
  #log(direction: LogDirection, raw: string, value: unknown, at: number, sender?: LogSender): LogEntry {
    this.#logChanged = true;
    return appendLog(this.log, direction, raw, value, at, sender);
  }
}

/** The socket URL of today's single session (the default of a connection without a prefix). */
export function defaultSocketUrl(): string {
  return relayPaths().socketUrl;
}
