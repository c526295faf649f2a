// What the conversation controls know beyond the reducer's state: the model
// list, the thinking levels the current model offers, the slash commands,
// the session stats and the auto-retry setting (which pi never reports).
// Every request goes through `connection.call()`, so each control can show
// its own failure in words where the user acted.

import type { Model, QueueMode, RpcResponse, RpcSlashCommand, SessionStats, ThinkingLevel } from "@pier/protocol";
import { connections } from "../app-context.svelte.ts";
import { PerSession } from "../session-scope.svelte.ts";
import type { RelayConnection } from "../relay/relay-connection.svelte.ts";
import { modelKey, offeredLevels } from "./model-list.ts";
import { sendNowCommands } from "./queue.ts";

/** The words of a failed response ("Model not found: x/y"), or null on success. */
export function failureText(response: RpcResponse): string | null {
  if (response.success) return null;
  const error = String(response.error ?? "").trim();
  return error === "" ? `pi refused “${response.command}”.` : error;
}

type Data<T> = T | null;

export class ConversationControls {
  models = $state<Data<Model[]>>(null);
  modelsError = $state<string | null>(null);
  modelsLoading = $state(false);
  /** Levels pi offered, and the model (provider/id) they were asked for. */
  levels = $state<{ key: string | null; levels: ThinkingLevel[] } | null>(null);
  levelsLoading = $state(false);
  levelsError = $state<string | null>(null);
  commands = $state<Data<RpcSlashCommand[]>>(null);
  commandsError = $state<string | null>(null);
  commandsLoading = $state(false);
  stats = $state<Data<SessionStats>>(null);
  statsError = $state<string | null>(null);
  statsLoading = $state(false);
  /** pi does not report auto-retry: known only once set from here, for this pi child. */
  autoRetry = $state<boolean | null>(null);

  readonly conn: RelayConnection;
  #started = false;
  #epoch: number | null = null;
  #levelsSeq = 0;
  #statsSeq = 0;
  /** lastUsage when the current run began: live usage must be newer than that. */
  #runBaselineUsage: unknown = undefined;

  constructor(conn: RelayConnection) {
    this.conn = conn;
  }

  /** Connected, caught up with the replay, and pi running (never while a capture plays: it sends nothing). */
  get ready(): boolean {
    const conn = this.conn;
    return conn.phase === "connected" && !conn.replaying && !conn.readOnly && conn.child?.state === "running";
  }

  /** Usage of the response streaming right now, when it has reported any since the run began. */
  get liveUsage() {
    const session = this.conn.session;
    if (session.status !== "streaming" || !session.lastUsage || session.lastUsage === this.#runBaselineUsage) return null;
    return session.lastUsage;
  }

  /** Start the background refreshes once (idempotent; called by each control). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    $effect.root(() => {
      // A new pi child knows nothing of what the previous one answered.
      $effect(() => {
        const epoch = this.conn.child?.epoch ?? null;
        if (epoch === this.#epoch) return;
        this.#epoch = epoch;
        this.models = null;
        this.levels = null;
        this.commands = null;
        this.stats = null;
        this.autoRetry = null;
      });
      // Levels belong to a model: ask again whenever the model changes.
      $effect(() => {
        const key = modelKey(this.conn.session.model);
        if (!this.ready || key === null) return;
        if (this.levels?.key !== key) void this.loadLevels();
      });
      // Stats: once ready, after every settled run, after a compaction, after
      // a model change, and for another session.
      let lastStatus = this.conn.session.status;
      let lastCompacting = this.conn.session.isCompacting;
      let lastKey: string | null = null;
      let lastSessionId = this.conn.session.sessionId;
      $effect(() => {
        const ready = this.ready;
        const status = this.conn.session.status;
        const compacting = this.conn.session.isCompacting;
        const key = modelKey(this.conn.session.model);
        const sessionId = this.conn.session.sessionId;
        const settled = lastStatus === "streaming" && status === "idle";
        const compacted = lastCompacting && !compacting;
        if (status === "streaming" && lastStatus !== "streaming") this.#runBaselineUsage = this.conn.session.lastUsage;
        const modelChanged = key !== lastKey;
        const otherSession = sessionId !== lastSessionId;
        lastSessionId = sessionId;
        lastStatus = status;
        lastCompacting = compacting;
        lastKey = key;
        if (!ready) return;
        if (settled || compacted || modelChanged || otherSession || this.stats === null) void this.loadStats();
      });
    });
  }

  // ── reads ───────────────────────────────────────────────────────────

  async loadModels(): Promise<void> {
    this.modelsLoading = true;
    const response = await this.conn.call({ type: "get_available_models" });
    this.modelsLoading = false;
    this.modelsError = failureText(response);
    if (response.success && response.command === "get_available_models") this.models = response.data.models;
  }

  async loadLevels(): Promise<void> {
    const seq = ++this.#levelsSeq;
    const key = modelKey(this.conn.session.model);
    this.levelsLoading = true;
    const response = await this.conn.call({ type: "get_available_thinking_levels" });
    if (seq !== this.#levelsSeq) return;
    this.levelsLoading = false;
    this.levelsError = failureText(response);
    if (response.success && response.command === "get_available_thinking_levels") {
      this.levels = { key, levels: offeredLevels(response.data.levels) };
    }
  }

  async loadCommands(): Promise<void> {
    this.commandsLoading = true;
    const response = await this.conn.call({ type: "get_commands" });
    this.commandsLoading = false;
    this.commandsError = failureText(response);
    if (response.success && response.command === "get_commands") this.commands = response.data.commands;
  }

  async loadStats(): Promise<void> {
    const seq = ++this.#statsSeq;
    this.statsLoading = true;
    const response = await this.conn.call({ type: "get_session_stats" });
    if (seq !== this.#statsSeq) return;
    this.statsLoading = false;
    this.statsError = failureText(response);
    if (response.success && response.command === "get_session_stats") this.stats = response.data;
  }

  /** Thinking levels the current model offers (empty until pi has said). */
  get currentLevels(): ThinkingLevel[] {
    const key = modelKey(this.conn.session.model);
    return this.levels !== null && this.levels.key === key ? this.levels.levels : [];
  }

  // ── changes: each returns the failure in words, or null ────────────

  async setModel(model: Pick<Model, "provider" | "id">): Promise<string | null> {
    const response = await this.conn.call({ type: "set_model", provider: model.provider, modelId: model.id });
    const error = failureText(response);
    // The thinking level may have been clamped to what the new model offers.
    if (error === null) this.conn.send({ type: "get_state" });
    return error;
  }

  /** Next model. `note` explains a success that changed nothing. */
  async cycleModel(): Promise<{ error: string | null; note: string | null; model: Model | null }> {
    const response = await this.conn.call({ type: "cycle_model" });
    const error = failureText(response);
    if (error !== null) return { error, note: null, model: null };
    const data = response.success && response.command === "cycle_model" ? response.data : null;
    if (!data) return { error: null, note: "Only one model is available.", model: null };
    this.conn.send({ type: "get_state" });
    return { error: null, note: null, model: data.model };
  }

  /** The model's next thinking level (pi picks it among the offered ones); level null: the model has none. */
  async cycleThinkingLevel(): Promise<{ error: string | null; level: ThinkingLevel | null }> {
    const response = await this.conn.call({ type: "cycle_thinking_level" });
    const error = failureText(response);
    if (error !== null) return { error, level: null };
    const data = response.success && response.command === "cycle_thinking_level" ? response.data : null;
    return { error: null, level: data?.level ?? null };
  }

  async setThinkingLevel(level: ThinkingLevel): Promise<string | null> {
    if (!this.currentLevels.includes(level)) return `This model does not offer the “${level}” thinking level.`;
    return failureText(await this.conn.call({ type: "set_thinking_level", level }));
  }

  async setSteeringMode(mode: QueueMode): Promise<string | null> {
    return this.#andRefreshState(await this.conn.call({ type: "set_steering_mode", mode }));
  }

  async setFollowUpMode(mode: QueueMode): Promise<string | null> {
    return this.#andRefreshState(await this.conn.call({ type: "set_follow_up_mode", mode }));
  }

  async setAutoCompaction(enabled: boolean): Promise<string | null> {
    return this.#andRefreshState(await this.conn.call({ type: "set_auto_compaction", enabled }));
  }

  async setAutoRetry(enabled: boolean): Promise<string | null> {
    const error = failureText(await this.conn.call({ type: "set_auto_retry", enabled }));
    if (error === null) this.autoRetry = enabled;
    return error;
  }

  /** Compact now (can take as long as a model call). */
  async compact(customInstructions: string): Promise<{ error: string | null; tokensBefore?: number; estimatedTokensAfter?: number }> {
    const instructions = customInstructions.trim();
    const response = await this.conn.call(instructions ? { type: "compact", customInstructions: instructions } : { type: "compact" }, 10 * 60_000);
    const error = failureText(response);
    if (error !== null) return { error };
    void this.loadStats();
    const data = response.success && response.command === "compact" ? response.data : null;
    return { error: null, tokensBefore: data?.tokensBefore, estimatedTokensAfter: data?.estimatedTokensAfter };
  }

  /** A fresh session (pi keeps the current one on disk). `cancelled`: an extension kept the current one. */
  async newSession(): Promise<{ error: string | null; cancelled: boolean }> {
    const response = await this.conn.call({ type: "new_session" });
    const error = failureText(response);
    if (error !== null) return { error, cancelled: false };
    const data = response.success && response.command === "new_session" ? response.data : null;
    return { error: null, cancelled: data?.cancelled === true };
  }

  async setSessionName(name: string): Promise<string | null> {
    return this.#andRefreshState(await this.conn.call({ type: "set_session_name", name }));
  }

  async abortRetry(): Promise<string | null> {
    return failureText(await this.conn.call({ type: "abort_retry" }));
  }

  /** Empty both queues; answers the texts that were queued. */
  async clearQueue(): Promise<{ error: string | null; cleared: { steering: string[]; followUp: string[] } | null }> {
    const response = await this.conn.call({ type: "clear_queue" });
    const error = failureText(response);
    if (error !== null) return { error, cleared: null };
    const data = response.success && response.command === "clear_queue" ? response.data : null;
    return { error: null, cleared: { steering: data?.steering ?? [], followUp: data?.followUp ?? [] } };
  }

  /**
   * Send what waits in pi's queue now (pi idle): clear it, then send what
   * sendNowCommands plans. On a failure, `unsent` holds the texts that did not
   * go back to pi, for the prompt box (clear_queue already took them).
   */
  async sendQueueNow(): Promise<{ error: string | null; unsent: string[] }> {
    const { error, cleared } = await this.clearQueue();
    if (error !== null || cleared === null) return { error, unsent: [] };
    const commands = sendNowCommands(cleared);
    for (const [i, command] of commands.entries()) {
      const failure = failureText(await this.conn.call(command));
      if (failure !== null) return { error: failure, unsent: commands.slice(i).map((c) => c.message) };
    }
    return { error: null, unsent: [] };
  }

  #andRefreshState(response: RpcResponse): string | null {
    const error = failureText(response);
    if (error === null) this.conn.send({ type: "get_state" });
    return error;
  }
}

/** Each live session's controls (session-scope.svelte.ts); `controls` is the shown one's. */
const perSession = new PerSession(
  (base) => new ConversationControls(connections.of(base)),
  (shown) => (controls = shown),
);
export let controls = perSession.shown;
