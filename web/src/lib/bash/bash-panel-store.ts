// Terminal panels for pi's RPC `bash` command: records in, panels out. Pure
// (no Svelte, no DOM), so it is unit-tested in Node and rebuilt from the
// relay's replay after a reload exactly as it was built live.
//
// What pi 0.87.1 does, verified against a real child (see
// web/test/bash-panels.contract.test.ts):
// - Output streams as {type:"bash_execution_update", id, delta}; the `bash`
//   response (same id) carries the result. pi strips ANSI escapes and `\r`
//   from both before they reach us, so colours never arrive.
// - Several RPC bash commands run at once. `abort_bash` has no target: it
//   cancels every running one (each answers with cancelled:true, no exitCode).
// - pi emits no message_start/entry_appended for the bashExecution message it
//   records, so the command text is known only to the browser that sent it
//   (remembered in sessionStorage by the caller: `CommandLookup`).
// - Context: the recorded message joins the model's context with the next
//   prompt unless excludeFromContext. While a run is active pi holds it back
//   until the run is over (agent_settled: retries and follow-ups continue past
//   agent_end); so a panel counts as sent at the first user message_start after
//   it finished (and, if it finished mid-run, after that run's agent_settled).
//   A session switch (new_session, switch_session, fork, clone) leaves it behind.

import type { BashResult } from "@pier/protocol";

export type PanelStatus = "running" | "done" | "failed";

/**
 * Where a panel's output stands with the model:
 * - pending: will join the context with the next prompt (or is still running)
 * - sent: was part of the context of a prompt pi started
 * - excluded: run with excludeFromContext, stored but never sent
 * - none: nothing was recorded (the command failed) or the session changed first
 */
export type ContextState = "pending" | "sent" | "excluded" | "none";

export interface BashPanel {
  /** The `bash` command's id (`${clientId}:${n}`). */
  id: string;
  /** The command line; null when this browser does not know it (another window ran it). */
  command: string | null;
  excludeFromContext: boolean;
  status: PanelStatus;
  /** Streamed output, possibly missing its head (see droppedChars). */
  output: string;
  /** Characters cut from the head of `output` to bound memory. */
  droppedChars: number;
  /** The response's data once pi answered successfully. */
  result: BashResult | null;
  /** The response's error when pi answered success:false. */
  error: string | null;
  context: ContextState;
  /** Finished while the agent was running: pi holds the message until the run settles. */
  heldUntilAgentEnd: boolean;
  /** Monotonic order of first appearance. */
  seq: number;
  /** When it was sent / answered; null when not known (first seen in a replay). */
  startedAt: number | null;
  endedAt: number | null;
  /** Panels are listed by this: when the command was sent, as far as known. */
  sortKey: number;
}

export interface KnownCommand {
  command: string;
  excludeFromContext?: boolean;
  /** When this tab sent it, and when pi answered (so a replay shows real times). */
  sentAt?: number;
  endedAt?: number;
}

export interface BashPanelStoreOptions {
  /** Command text for an id first seen in records (e.g. replayed after a reload). */
  lookup?: (id: string) => KnownCommand | undefined;
  /** Ids the user closed: records for them never bring the panel back. */
  isClosed?: (id: string) => boolean;
  /** A panel got its answer (the caller may remember `endedAt` for replays). */
  onFinished?: (panel: BashPanel) => void;
  maxPanels?: number;
  maxOutputChars?: number;
  now?: () => number;
}

export const MAX_PANELS = 30;
export const MAX_OUTPUT_CHARS = 2_000_000;

const SESSION_SWITCHING = new Set(["new_session", "switch_session", "fork", "clone"]);

interface RecordShape {
  type?: unknown;
  id?: unknown;
  command?: unknown;
  success?: unknown;
  error?: unknown;
  data?: unknown;
  delta?: unknown;
  message?: { role?: unknown } | null;
}

export class BashPanelStore {
  #panels = new Map<string, BashPanel>();
  #seq = 0;
  #agentRunning = false;
  #lookup: (id: string) => KnownCommand | undefined;
  #isClosed: (id: string) => boolean;
  #onFinished: (panel: BashPanel) => void;
  /** False while applying replayed records: their arrival time is not when they happened. */
  #live = true;
  #maxPanels: number;
  #maxOutputChars: number;
  #now: () => number;

  constructor(options: BashPanelStoreOptions = {}) {
    this.#lookup = options.lookup ?? (() => undefined);
    this.#isClosed = options.isClosed ?? (() => false);
    this.#onFinished = options.onFinished ?? (() => {});
    this.#maxPanels = options.maxPanels ?? MAX_PANELS;
    this.#maxOutputChars = options.maxOutputChars ?? MAX_OUTPUT_CHARS;
    this.#now = options.now ?? Date.now;
  }

  /** Panels in the order they were sent, as far as known (oldest first). */
  get panels(): BashPanel[] {
    return [...this.#panels.values()].sort((a, b) => a.sortKey - b.sortKey || a.seq - b.seq);
  }

  get(id: string): BashPanel | undefined {
    return this.#panels.get(id);
  }

  get running(): BashPanel[] {
    return this.panels.filter((p) => p.status === "running");
  }

  /** True while pi is in a run (agent_start … agent_settled), as seen in the records. */
  get agentRunning(): boolean {
    return this.#agentRunning;
  }

  /** This browser sent a `bash` command: show its panel before any output. */
  started(id: string, command: string, excludeFromContext = false, sentAt = this.#now()): BashPanel {
    const existing = this.#panels.get(id);
    if (existing) {
      existing.command = command;
      existing.excludeFromContext = excludeFromContext;
      if (excludeFromContext) existing.context = "excluded";
      return existing;
    }
    return this.#create(id, { command, excludeFromContext, sentAt });
  }

  /** The relay refused the command or it could not be sent: it never ran. */
  failed(id: string, error: string): void {
    const panel = this.#panels.get(id);
    if (!panel || panel.status !== "running") return;
    panel.status = "failed";
    panel.error = error;
    panel.context = "none";
    panel.endedAt = this.#now();
    this.#onFinished(panel);
  }

  close(id: string): void {
    this.#panels.delete(id);
  }

  /** Forget everything (a full replay follows, or pi restarted). */
  reset(): void {
    this.#panels.clear();
    this.#agentRunning = false;
  }

  /**
   * Applies one pi stdout record. `live` is false for records the relay
   * replays after a (re)connect. Returns true when any panel changed.
   */
  apply(value: unknown, live = true): boolean {
    if (typeof value !== "object" || value === null) return false;
    this.#live = live;
    const record = value as RecordShape;
    switch (record.type) {
      case "bash_execution_update":
        return this.#onUpdate(record);
      case "response":
        if (record.command === "bash") return this.#onBashResponse(record);
        if (record.success === true && typeof record.command === "string" && SESSION_SWITCHING.has(record.command)) {
          return this.#onSessionSwitched(record);
        }
        return false;
      case "agent_start":
        this.#agentRunning = true;
        return false;
      case "agent_settled":
        return this.#onAgentSettled();
      case "message_start":
        if (record.message?.role === "user") return this.#onUserMessage();
        return false;
      default:
        return false;
    }
  }

  #panelFor(id: unknown): BashPanel | null {
    if (typeof id !== "string" || id === "") return null;
    const existing = this.#panels.get(id);
    if (existing) return existing;
    if (this.#isClosed(id)) return null;
    return this.#create(id, this.#lookup(id));
  }

  #create(id: string, known: KnownCommand | undefined): BashPanel {
    const excludeFromContext = known?.excludeFromContext === true;
    const startedAt = known?.sentAt ?? (this.#live ? this.#now() : null);
    let previousKey = 0;
    for (const other of this.#panels.values()) previousKey = Math.max(previousKey, other.sortKey);
    const panel: BashPanel = {
      id,
      command: known?.command ?? null,
      excludeFromContext,
      status: "running",
      output: "",
      droppedChars: 0,
      result: null,
      error: null,
      context: excludeFromContext ? "excluded" : "pending",
      heldUntilAgentEnd: false,
      seq: ++this.#seq,
      startedAt,
      endedAt: null,
      // Unknown send time: keep it after whatever appeared before it.
      sortKey: startedAt ?? previousKey,
    };
    this.#panels.set(id, panel);
    this.#evict();
    return panel;
  }

  /** Drops the oldest finished panels beyond the limit (running ones stay). */
  #evict(): void {
    let excess = this.#panels.size - this.#maxPanels;
    if (excess <= 0) return;
    for (const panel of this.#panels.values()) {
      if (excess <= 0) break;
      if (panel.status === "running") continue;
      this.#panels.delete(panel.id);
      excess--;
    }
  }

  #onUpdate(record: RecordShape): boolean {
    if (typeof record.delta !== "string") return false;
    const panel = this.#panelFor(record.id);
    if (!panel) return false;
    this.#append(panel, record.delta);
    return true;
  }

  #append(panel: BashPanel, text: string): void {
    panel.output += text;
    const over = panel.output.length - this.#maxOutputChars;
    if (over > 0) {
      // Cut a little more than needed so this does not happen on every delta.
      const cut = Math.min(panel.output.length, over + Math.floor(this.#maxOutputChars / 4));
      panel.output = panel.output.slice(cut);
      panel.droppedChars += cut;
    }
  }

  #onBashResponse(record: RecordShape): boolean {
    const panel = this.#panelFor(record.id);
    if (!panel) return false;
    panel.endedAt = this.#live ? this.#now() : (this.#lookup(panel.id)?.endedAt ?? null);
    if (record.success !== true) {
      panel.status = "failed";
      panel.error = typeof record.error === "string" ? record.error : "pi could not run the command";
      panel.context = "none";
      this.#onFinished(panel);
      return true;
    }
    const result = (record.data ?? {}) as BashResult;
    panel.status = "done";
    panel.result = result;
    // Nothing streamed (an extension answered user_bash, or the replay lost the
    // head): the result's output is the best we have.
    if (panel.output === "" && panel.droppedChars === 0 && typeof result.output === "string") panel.output = result.output;
    if (panel.context === "pending") panel.heldUntilAgentEnd = this.#agentRunning;
    this.#onFinished(panel);
    return true;
  }

  #onAgentSettled(): boolean {
    this.#agentRunning = false;
    let changed = false;
    for (const panel of this.#panels.values()) {
      if (panel.heldUntilAgentEnd) {
        panel.heldUntilAgentEnd = false;
        changed = true;
      }
    }
    return changed;
  }

  #onUserMessage(): boolean {
    let changed = false;
    for (const panel of this.#panels.values()) {
      if (panel.status === "done" && panel.context === "pending" && !panel.heldUntilAgentEnd) {
        panel.context = "sent";
        changed = true;
      }
    }
    return changed;
  }

  #onSessionSwitched(record: RecordShape): boolean {
    const data = record.data as { cancelled?: unknown } | undefined;
    if (data?.cancelled === true) return false;
    let changed = false;
    for (const panel of this.#panels.values()) {
      // A running command records into whichever session is current when it ends.
      if (panel.status === "done" && panel.context === "pending") {
        panel.context = "none";
        panel.heldUntilAgentEnd = false;
        changed = true;
      }
    }
    return changed;
  }
}

/** A one-line state for the panel header. */
export function panelStateLabel(panel: BashPanel): string {
  if (panel.status === "running") return "running";
  if (panel.status === "failed") return "failed";
  if (panel.result?.cancelled) return "cancelled";
  if (typeof panel.result?.exitCode === "number") return `exit ${panel.result.exitCode}`;
  return "killed";
}

export function panelTone(panel: BashPanel): "running" | "ok" | "error" | "warn" {
  if (panel.status === "running") return "running";
  if (panel.status === "failed") return "error";
  if (panel.result?.cancelled) return "warn";
  return panel.result?.exitCode === 0 ? "ok" : "error";
}
