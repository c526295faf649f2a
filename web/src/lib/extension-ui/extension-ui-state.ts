// What pi's extensions asked the UI to show, rebuilt from extension_ui_request
// records. Pure data and functions, no Svelte: the session reducer dispatches
// every extension_ui_request here (applyExtensionUiRequest) and components
// read the result and call the small mutators below.
//
// Two kinds of request (see @pier/protocol extension-ui.ts):
// - dialogs (select, confirm, input, editor) wait for an answer; they queue
//   here until answered, dismissed or timed out;
// - fire-and-forget updates: status entries and widgets by key and the title
//   are persistent state (the latest value wins); notify toasts and
//   set_editor_text are one-shot actions.
//
// Notifications (notify, extension_error, Pier's own toasts) also go into a
// bounded history, the bell's list, with an unread count: a toast vanishes
// after seconds and at most MAX_TOASTS show at once; the history keeps the
// last MAX_NOTICES of this pi run.
//
// The relay replays pi's stdout (bounded) to a browser that connects late,
// and a reload starts from that replay. Persistent state rebuilds from it for
// free. One-shot actions in the replay already happened: they are ignored
// while `live` is false (the connection's replay phase; see markLive) —
// except notifications. What an extension says as pi starts (session_start)
// reaches even the first browser only through the replay, since pi starts
// before any page connects; so replayed notifications (notify and
// extension_error alike) go into the history, and those this browser never
// showed (by key, remembered in localStorage: shown-notices.ts) pop up as
// toasts when the replay ends. A reload shows none twice.
//
// Stale dialogs. pi never says that a dialog went away: it resolves the
// default silently on timeout or abort and ignores an answer to an id it no
// longer waits for (rpc-mode.js: unknown ids are dropped). Hiding a dialog pi
// still waits for is the expensive mistake (an `editor` has no timeout, and a
// `/command` prompt answers only after its dialogs do); showing one that is
// already settled only costs a click. So the rule is:
//  1. answered or dismissed in this browser → removed at once; the caller
//     remembers the id so a reload does not bring it back (markLive);
//  2. a dialog with a `timeout` is removed once arrival + timeout has passed
//     (pi resolved the default). A replayed dialog's real arrival is unknown,
//     so the time it was replayed is used: an upper bound;
//  3. a dialog read from the replay is dropped when the records after it in
//     the replay show that pi moved past it (settledInReplay): a later
//     `prompt` response (pi answers an extension command's prompt only after
//     its handler returned), and, if the dialog opened during a run, that
//     run's `agent_settled` too (a tool_call hook holds the run until it is
//     answered; a steer answered mid-run proves nothing about it, and a
//     /command run mid-run can outlive the run, hence both). Strong evidence,
//     not proof (another browser's prompt can answer meanwhile), so it is
//     applied to replayed dialogs only, never to live ones;
//  4. any other replayed dialog does not pop up: it is `replayed` and listed
//     quietly ("asked before this page connected — may already be answered
//     elsewhere") with Answer (moves it into the dialog queue) and Dismiss
//     (local only);
//  5. a new pi child or a reconnect starts from a fresh state;
//  6. a live dialog the same evidence shows pi moved past is marked
//     `withdrawn` (dialog-evidence.ts), not removed: the extension stopped
//     waiting (its AbortSignal), and an answer would go nowhere;
//  7. from a relay that says (hello.dialogs), a replayed dialog someone
//     answered is not shown at all, and one the relay knows is still
//     waiting is shown as a live dialog whose countdown runs from when the
//     relay passed it on (not from the reload).

import type { ExtensionUiDialogRequest, ExtensionUiRequest, ExtensionUiResponse } from "@pier/protocol";

export { keepAnswering, noteDialogEvidence } from "./dialog-evidence.ts";

export type NotifyLevel = "info" | "warning" | "error";
export type WidgetPlacement = "aboveEditor" | "belowEditor";

/** A dialog waiting for an answer. */
export interface PendingDialog {
  id: string;
  request: ExtensionUiDialogRequest;
  /** When this browser read the request (ms since the epoch). */
  arrivedAt: number;
  /** When pi resolves it by itself (arrivedAt + timeout), or null without a timeout. */
  deadline: number | null;
  /** Read from the relay's replay: it may already be answered elsewhere. */
  replayed: boolean;
  /** pi moved past it (dialog-evidence.ts): the extension stopped waiting. Why, or null while it waits. */
  withdrawn: "run-ended" | "command-finished" | null;
  /** The person chose to answer it although it was marked withdrawn: never marked again. */
  keptOpen: boolean;
  /** What pi did since it opened, for `withdrawn`. */
  evidence: DialogEvidence;
}

/** Where a dialog came from and what pi did since (dialog-evidence.ts). */
export interface DialogEvidence {
  /** A run was going on when it opened. */
  openedInRun: boolean;
  /** Ids of this page's prompts still unanswered when it opened (a /command of ours may have asked it). */
  ownPrompts: readonly string[];
  runSettled: boolean;
  promptAnswered: boolean;
  ownPromptAnswered: boolean;
}

export interface StatusEntry {
  key: string;
  text: string;
}

export interface ExtensionWidget {
  key: string;
  lines: string[];
  placement: WidgetPlacement;
}

export interface ExtensionToast {
  /** Unique within the state: a stable key for rendering. */
  seq: number;
  level: NotifyLevel;
  /** Set for toasts Pier writes itself (extension errors). */
  title: string | null;
  message: string;
  at: number;
}

/** One line of the notification history (the bell's list). */
export interface ExtensionNotice {
  seq: number;
  level: NotifyLevel;
  title: string | null;
  message: string;
  /** When this browser read it (for a replayed one: when it was replayed). */
  at: number;
  /**
   * Names it across reloads, to show it once per browser: `notify:<pi's id>`
   * or `error:<extension>\0<event>\0<error>`; null for Pier's own toasts
   * (never replayed).
   */
  key: string | null;
  /** Read from the relay's replay: sent before this page connected. */
  earlier: boolean;
}

export interface ExtensionUiState {
  /** False while the connection replays pi's past output (one-shot actions are skipped). */
  live: boolean;
  /** A run is going on (agent_start seen, its agent_settled not yet): dialog-evidence.ts. */
  running: boolean;
  /** Dialogs in arrival order. */
  dialogs: PendingDialog[];
  /** Status-bar entries in the order their keys first appeared. */
  statuses: StatusEntry[];
  widgets: ExtensionWidget[];
  /** Window title an extension set, or null for Pier's own. */
  title: string | null;
  /** Text an extension wants in the prompt box, not yet taken by it. */
  editorText: { text: string; seq: number } | null;
  toasts: ExtensionToast[];
  /** The notification history, oldest first (at most MAX_NOTICES). */
  notices: ExtensionNotice[];
  /** Notices added since the bell's list was last opened. */
  unread: number;
  /** Replayed notices not yet sorted into "shown before" and "new here" (markLive). */
  replayedNotices: ExtensionNotice[];
  /**
   * What the relay said in its hello about this child's dialogs (rule 7):
   * those still waiting (with when the relay passed them on) and those
   * already answered (by whom). Null from an older relay or a capture.
   */
  relayDialogs: RelayDialogs | null;
  seq: number;
}

/** hello.dialogs, by id. */
export type RelayDialogs = { waiting: Map<string, number>; answered: Map<string, { by: string; at: number }> };

/** hello.dialogs (untrusted: malformed entries are left out) as the state keeps it. */
export function relayDialogsOf(dialogs: unknown): RelayDialogs | null {
  if (typeof dialogs !== "object" || dialogs === null) return null;
  const { waiting, answered } = dialogs as Record<string, unknown>;
  const result: RelayDialogs = { waiting: new Map(), answered: new Map() };
  if (Array.isArray(waiting)) {
    for (const entry of waiting) {
      const { id, since } = (entry ?? {}) as Record<string, unknown>;
      if (typeof id === "string" && typeof since === "number" && Number.isFinite(since)) result.waiting.set(id, since);
    }
  }
  if (Array.isArray(answered)) {
    for (const entry of answered) {
      const { id, by, at } = (entry ?? {}) as Record<string, unknown>;
      if (typeof id === "string" && typeof by === "string" && typeof at === "number") result.answered.set(id, { by, at });
    }
  }
  return result;
}

export const MAX_TOASTS = 4;
/** How many notifications the bell keeps (this pi run). */
export const MAX_NOTICES = 50;
/** pi could ask for dialogs without end; the oldest beyond this are dropped. */
export const MAX_DIALOGS = 50;

export function createExtensionUiState(): ExtensionUiState {
  return {
    live: true,
    running: false,
    dialogs: [],
    statuses: [],
    widgets: [],
    title: null,
    editorText: null,
    toasts: [],
    notices: [],
    unread: 0,
    replayedNotices: [],
    relayDialogs: null,
    seq: 0,
  };
}

// ── incoming requests ────────────────────────────────────────────────────

/**
 * Apply one extension_ui_request record. Malformed requests are ignored.
 * `ownPrompts`: ids of this page's prompts pi has not answered yet (evidence
 * of where a dialog came from, dialog-evidence.ts).
 */
export function applyExtensionUiRequest(ui: ExtensionUiState, value: unknown, now: number, ownPrompts: readonly string[] = []): void {
  if (typeof value !== "object" || value === null) return;
  const record = value as Partial<ExtensionUiRequest> & Record<string, unknown>;
  if (typeof record.id !== "string") return;
  switch (record.method) {
    case "select":
      if (typeof record.title !== "string" || !Array.isArray(record.options)) return;
      addDialog(
        ui,
        {
          type: "extension_ui_request",
          id: record.id,
          method: "select",
          title: record.title,
          options: record.options.filter((o): o is string => typeof o === "string"),
          ...timeoutOf(record),
        },
        now,
        ownPrompts,
      );
      return;
    case "confirm":
      if (typeof record.title !== "string") return;
      addDialog(
        ui,
        {
          type: "extension_ui_request",
          id: record.id,
          method: "confirm",
          title: record.title,
          message: typeof record.message === "string" ? record.message : "",
          ...timeoutOf(record),
        },
        now,
        ownPrompts,
      );
      return;
    case "input":
      if (typeof record.title !== "string") return;
      addDialog(
        ui,
        {
          type: "extension_ui_request",
          id: record.id,
          method: "input",
          title: record.title,
          ...(typeof record.placeholder === "string" ? { placeholder: record.placeholder } : {}),
          ...timeoutOf(record),
        },
        now,
        ownPrompts,
      );
      return;
    case "editor":
      if (typeof record.title !== "string") return;
      addDialog(
        ui,
        {
          type: "extension_ui_request",
          id: record.id,
          method: "editor",
          title: record.title,
          ...(typeof record.prefill === "string" ? { prefill: record.prefill } : {}),
        },
        now,
        ownPrompts,
      );
      return;
    case "notify": {
      if (typeof record.message !== "string") return;
      const level = record.notifyType === "warning" || record.notifyType === "error" ? record.notifyType : "info";
      addNotice(ui, level, null, record.message, now, `notify:${record.id}`);
      return;
    }
    case "setStatus":
      if (typeof record.statusKey !== "string") return;
      setStatus(ui, record.statusKey, typeof record.statusText === "string" ? stripAnsi(record.statusText) : "");
      return;
    case "setWidget":
      if (typeof record.widgetKey !== "string") return;
      setWidget(
        ui,
        record.widgetKey,
        Array.isArray(record.widgetLines) ? record.widgetLines.map((l) => stripAnsi(String(l))) : [],
        record.widgetPlacement === "belowEditor" ? "belowEditor" : "aboveEditor",
      );
      return;
    case "setTitle":
      if (typeof record.title !== "string") return;
      ui.title = record.title.trim() === "" ? null : stripAnsi(record.title);
      return;
    case "set_editor_text":
      if (!ui.live || typeof record.text !== "string") return;
      ui.editorText = { text: record.text, seq: ++ui.seq };
      return;
    default:
      return;
  }
}

function timeoutOf(record: Record<string, unknown>): { timeout?: number } {
  const timeout = record["timeout"];
  return typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0 ? { timeout } : {};
}

function addDialog(ui: ExtensionUiState, request: ExtensionUiDialogRequest, now: number, ownPrompts: readonly string[]): void {
  if (ui.dialogs.some((d) => d.id === request.id)) return;
  // Rule 7: in a replay, the relay's word decides: answered → not shown; still waiting → a live dialog, its countdown from when it was asked.
  const relay = ui.live ? null : ui.relayDialogs;
  if (relay?.answered.has(request.id)) return;
  const waitingSince = relay?.waiting.get(request.id);
  const arrivedAt = waitingSince ?? now;
  const timeout = "timeout" in request ? request.timeout : undefined;
  ui.dialogs.push({
    id: request.id,
    request,
    arrivedAt,
    deadline: timeout === undefined ? null : arrivedAt + timeout,
    replayed: !ui.live && waitingSince === undefined,
    withdrawn: null,
    keptOpen: false,
    evidence: { openedInRun: ui.running, ownPrompts: [...ownPrompts], runSettled: false, promptAnswered: false, ownPromptAnswered: false },
  });
  if (ui.dialogs.length > MAX_DIALOGS) ui.dialogs.splice(0, ui.dialogs.length - MAX_DIALOGS);
}

/** An empty text clears the entry (pi sends no statusText to clear). */
function setStatus(ui: ExtensionUiState, key: string, text: string): void {
  const index = ui.statuses.findIndex((s) => s.key === key);
  if (text === "") {
    if (index !== -1) ui.statuses.splice(index, 1);
  } else if (index === -1) {
    ui.statuses.push({ key, text });
  } else {
    ui.statuses[index]!.text = text;
  }
}

/** No lines clears the widget (pi sends no widgetLines to clear). */
function setWidget(ui: ExtensionUiState, key: string, lines: string[], placement: WidgetPlacement): void {
  const index = ui.widgets.findIndex((w) => w.key === key);
  if (lines.length === 0) {
    if (index !== -1) ui.widgets.splice(index, 1);
  } else if (index === -1) {
    ui.widgets.push({ key, lines, placement });
  } else {
    ui.widgets[index] = { key, lines, placement };
  }
}

const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** Extensions written for the terminal may colour their text; the browser shows it plain. */
export function stripAnsi(text: string): string {
  return text.includes("\u001b") ? text.replace(ANSI, "") : text;
}

// ── replay ───────────────────────────────────────────────────────────────

/** The connection starts replaying pi's past output: one-shot actions are history from now on. */
export function markReplaying(ui: ExtensionUiState): void {
  ui.live = false;
}

/**
 * The replay is over: records are live again. Replayed dialogs this browser
 * already answered or dismissed (by id) are dropped; the others stay
 * `replayed` (rule 3 above).
 */
export function markLive(ui: ExtensionUiState, answeredHere: (id: string) => boolean = () => false, replayedRecords: readonly unknown[] = [], shownHere: (key: string) => boolean = () => false): void {
  ui.live = true;
  // Replayed notifications this browser never showed are news to it (those sent as pi started, above all).
  for (const notice of ui.replayedNotices.splice(0)) {
    if (notice.key !== null && shownHere(notice.key)) continue;
    ui.unread++;
    showToast(ui, notice);
  }
  const settled = settledInReplay(replayedRecords);
  for (let i = ui.dialogs.length - 1; i >= 0; i--) {
    const dialog = ui.dialogs[i]!;
    if (dialog.replayed && (answeredHere(dialog.id) || settled.has(dialog.id))) ui.dialogs.splice(i, 1);
  }
}

/**
 * Ids of dialogs the records after them show pi has moved past (rule 3): a
 * later `prompt` response, and — for a dialog opened during a run — that
 * run's `agent_settled` as well. `records` are pi's stdout records in order.
 */
export function settledInReplay(records: readonly unknown[]): Set<string> {
  const settled = new Set<string>();
  const open = new Map<string, { needsSettle: boolean; sawPrompt: boolean }>();
  let running = false;
  const sweep = () => {
    for (const [id, dialog] of open) {
      if (dialog.sawPrompt && !dialog.needsSettle) {
        settled.add(id);
        open.delete(id);
      }
    }
  };
  for (const value of records) {
    if (typeof value !== "object" || value === null) continue;
    const record = value as Record<string, unknown>;
    switch (record["type"]) {
      case "agent_start":
        running = true;
        break;
      case "agent_settled":
        running = false;
        for (const dialog of open.values()) dialog.needsSettle = false;
        sweep();
        break;
      case "response":
        if (record["command"] !== "prompt") break;
        for (const dialog of open.values()) dialog.sawPrompt = true;
        sweep();
        break;
      case "extension_ui_request": {
        const method = record["method"];
        const id = record["id"];
        if (typeof id !== "string") break;
        if (method === "select" || method === "confirm" || method === "input" || method === "editor") {
          open.set(id, { needsSettle: running, sawPrompt: false });
        }
        break;
      }
      default:
        break;
    }
  }
  return settled;
}

// ── dialogs ──────────────────────────────────────────────────────────────

/**
 * The dialog to show now: the first one that is not a replayed leftover, and
 * one pi still waits for before one it no longer does (withdrawn).
 */
export function activeDialog(ui: ExtensionUiState): PendingDialog | null {
  return ui.dialogs.find((d) => !d.replayed && d.withdrawn === null) ?? ui.dialogs.find((d) => !d.replayed) ?? null;
}

/** Dialogs pi still waits for, queued behind the active one. */
export function waitingCount(ui: ExtensionUiState): number {
  const active = activeDialog(ui);
  let count = 0;
  for (const dialog of ui.dialogs) if (!dialog.replayed && dialog.withdrawn === null && dialog !== active) count++;
  return count;
}

/** Replayed dialogs that may or may not still be waiting. */
export function replayedDialogs(ui: ExtensionUiState): PendingDialog[] {
  return ui.dialogs.filter((d) => d.replayed);
}

/** The user chose to answer a replayed dialog: it joins the queue (in arrival order). */
export function reviveDialog(ui: ExtensionUiState, id: string): void {
  const dialog = ui.dialogs.find((d) => d.id === id);
  if (dialog) dialog.replayed = false;
}

/** Remove a dialog (answered, cancelled or dismissed). Returns whether it was there. */
export function removeDialog(ui: ExtensionUiState, id: string): boolean {
  const index = ui.dialogs.findIndex((d) => d.id === id);
  if (index === -1) return false;
  ui.dialogs.splice(index, 1);
  return true;
}

/** Remove dialogs whose pi-side timeout has passed. Returns the ids removed. */
export function expireDialogs(ui: ExtensionUiState, now: number): string[] {
  const expired: string[] = [];
  for (let i = ui.dialogs.length - 1; i >= 0; i--) {
    const deadline = ui.dialogs[i]!.deadline;
    if (deadline !== null && deadline <= now) expired.unshift(ui.dialogs.splice(i, 1)[0]!.id);
  }
  return expired;
}

/** Milliseconds until pi resolves the dialog itself, or null without a timeout. */
export function remainingMs(dialog: PendingDialog, now: number): number | null {
  return dialog.deadline === null ? null : Math.max(0, dialog.deadline - now);
}

/** The record that answers a dialog. */
export function valueResponse(id: string, value: string): ExtensionUiResponse {
  return { type: "extension_ui_response", id, value };
}

export function confirmResponse(id: string, confirmed: boolean): ExtensionUiResponse {
  return { type: "extension_ui_response", id, confirmed };
}

export function cancelResponse(id: string): ExtensionUiResponse {
  return { type: "extension_ui_response", id, cancelled: true };
}

// ── one-shot actions ─────────────────────────────────────────────────────

/** Pier's own notification (not from pi's stream): a toast, and a line in the history. */
export function pushToast(ui: ExtensionUiState, level: NotifyLevel, title: string | null, message: string, now: number): void {
  addNotice(ui, level, title, message, now, null);
}

/** An extension_error record: an error toast and a line in the history, like a notify (replayed ones too). */
export function applyExtensionError(ui: ExtensionUiState, error: { extensionPath: string; event: string; error: string }, now: number): void {
  addNotice(ui, "error", `Extension error · ${error.event}`, `${error.extensionPath}\n${error.error}`, now, `error:${error.extensionPath}\u0000${error.event}\u0000${error.error}`);
}

/** Into the history; live ones toast at once, replayed ones wait for markLive to tell if this browser saw them. */
function addNotice(ui: ExtensionUiState, level: NotifyLevel, title: string | null, message: string, now: number, key: string | null): void {
  const notice: ExtensionNotice = { seq: ++ui.seq, level, title, message: stripAnsi(message), at: now, key, earlier: !ui.live };
  ui.notices.push(notice);
  if (ui.notices.length > MAX_NOTICES) ui.notices.splice(0, ui.notices.length - MAX_NOTICES);
  if (!ui.live) {
    ui.replayedNotices.push(notice);
    // A long replay of notices: only the newest could still be news (and be toasted).
    if (ui.replayedNotices.length > MAX_NOTICES) ui.replayedNotices.splice(0, ui.replayedNotices.length - MAX_NOTICES);
    return;
  }
  ui.unread++;
  showToast(ui, notice);
}

function showToast(ui: ExtensionUiState, notice: ExtensionNotice): void {
  ui.toasts.push({ seq: notice.seq, level: notice.level, title: notice.title, message: notice.message, at: notice.at });
  if (ui.toasts.length > MAX_TOASTS) ui.toasts.splice(0, ui.toasts.length - MAX_TOASTS);
}

/** The bell's list was opened: everything in it is read. */
export function markNoticesRead(ui: ExtensionUiState): void {
  ui.unread = 0;
}

/** Empty the history (the bell's "Clear"). */
export function clearNotices(ui: ExtensionUiState): void {
  ui.notices.splice(0);
  ui.unread = 0;
}

export function dismissToast(ui: ExtensionUiState, seq: number): void {
  const index = ui.toasts.findIndex((t) => t.seq === seq);
  if (index !== -1) ui.toasts.splice(index, 1);
}

/** Take the text an extension put in the prompt box (once). */
export function takeEditorText(ui: ExtensionUiState): string | null {
  const pending = ui.editorText;
  if (pending === null) return null;
  ui.editorText = null;
  return pending.text;
}

/** Widgets for one placement, in the order their keys first appeared. */
export function widgetsAt(ui: ExtensionUiState, placement: WidgetPlacement): ExtensionWidget[] {
  return ui.widgets.filter((w) => w.placement === placement);
}
