// The protocol inspector's state in the page: its models (fed from the
// connection's wire tap from the moment this module is first loaded, and
// from the record log for what came before), the tab, the selected record,
// and the actions the panel offers (show in transcript, inspect an element,
// export, compose). Loaded before the page connects (main.ts), so that the
// panel, whenever it is first opened, finds every record described; the
// panel's own code (views, composer, Monaco) loads only when it opens.
//
// The models are plain data and not reactive (thousands of records a
// second go into them); `version` says when to look again, at most every
// REFRESH_MS while records arrive.

import { connections, view } from "../app-context.svelte.ts";
import { PerSession } from "../session-scope.svelte.ts";
import { FrameScheduler } from "../relay/frame-scheduler.ts";
import type { RelayConnection } from "../relay/relay-connection.svelte.ts";
import { entryText, logEntry, type LogEntry } from "../pi-state/record-log.ts";
import { revealInTranscript, transcriptLinks, type LinkTarget } from "../transcript/transcript-links.svelte.ts";
import { recordsFor, targetKey } from "../wire-log/effect-index.ts";
import { createInspectorModels, feedChunk, feedEntry, feedLog, meaningOf, noteTranscript, targetIsCurrent, type InspectorModels } from "../wire-log/inspector-feed.ts";
import { loadInspectorTab, saveInspectorTab, type InspectorTab } from "./inspector-prefs.ts";
import { exportFileName, exportLogLines } from "../wire-log/log-export.ts";
import { endOfCapture, warningSeqs, warningsOf, type ExpertWarning } from "../wire-log/expert-checks.ts";
import { wireTerm, type WireTerm } from "../transcript/wire-terms.ts";
import { downloadBlob } from "../download-blob.ts";

/** Views catch up with the models at most this often (nobody reads a firehose faster). */
export const REFRESH_MS = 100;

/** Records that changed one transcript element (the reverse link), or that a guided walk's note names. */
export interface RelatedRecords {
  /** Null: the records of a note (`label` says so). */
  target: LinkTarget | null;
  /** What the records are, in place of "N records changed <target>". */
  label?: string;
  /** Seqs, oldest first (only records the inspector described while it was loaded). */
  seqs: number[];
}

export interface ComposeResult {
  /** It reached pi (which may still have answered with an error: see `response`). */
  ok: boolean;
  /** Why it did not reach pi or got no answer: the relay's refusal, a timeout, no connection. */
  error?: string;
  /** pi's response record, as it came. */
  response?: unknown;
}

export class InspectorStore {
  readonly conn: RelayConnection;
  models: InspectorModels;
  /** Bumped when the models changed (throttled). */
  version = $state(0);
  tab = $state<InspectorTab>(loadInspectorTab());
  /** The selected record (a record log seq). */
  selected = $state<number | null>(null);
  /** The details pane is shown (for the selected record). */
  detailsOpen = $state(false);
  /** The records that changed the transcript element last inspected. */
  related = $state.raw<RelatedRecords | null>(null);
  /** Edit-and-resend: a command text for the composer to start from; `n` says "again". */
  composeInitial = $state.raw<{ text: string; n: number } | null>(null);
  /** Stops following the live end when the person selects something. */
  followLive = $state(true);
  /** A record type a text named (the demo tour's `message_update`): its lesson, over its records; `n` says "again". */
  lesson = $state.raw<(WireTerm & { n: number }) | null>(null);
  #lessonSeq = 0;

  /** The panel closed to show the transcript (phone): keep its outline. */
  #steppedAside = false;
  #dirty = false;
  #lastRefresh = -Infinity;

  constructor(conn: RelayConnection) {
    this.conn = conn;
    this.models = createInspectorModels(conn.log);
    // What arrived before: from the log (no meaning, no bytes). Then, in the
    // same task, the tap: nothing is missed and nothing is fed twice.
    feedLog(this.models);
    conn.addWireTap({
      chunk: (bytes, at) => {
        feedChunk(this.models, bytes, at);
        this.#changed();
      },
      entry: (entry, value, after) => {
        feedEntry(this.models, entry, value, entry.direction === "in" ? after : null);
        this.#changed();
      },
      captureEnd: (at) => {
        endOfCapture(this.models.checks, at);
        this.#changed();
      },
      reset: () => {
        // A replay went back to its start: the log counts from 1 again.
        this.models = createInspectorModels(conn.log);
        this.selected = null;
        this.detailsOpen = false;
        this.related = null;
        this.followLive = true;
        this.#changed();
      },
    });
  }

  /**
   * The models changed. Called for every record while pi streams, so it only
   * notes it; the views look again once per frame at most, right after one
   * (like the transcript: frame-scheduler.ts), and at most every REFRESH_MS.
   */
  #changed(): void {
    if (this.#dirty) return;
    this.#dirty = true;
    this.#refresher.schedule();
  }

  readonly #refresher = new FrameScheduler(() => {
    const now = performance.now();
    if (now - this.#lastRefresh < REFRESH_MS) {
      this.#refresher.schedule();
      return;
    }
    this.#dirty = false;
    this.#lastRefresh = now;
    this.version++;
  });

  /** Show the lesson and the records of a term the transcript named (request `seq`, handled once). */
  showLesson(term: string, seq: number): void {
    if (seq <= this.#lessonSeq) return;
    this.#lessonSeq = seq;
    const found = wireTerm(term);
    if (found === undefined) return;
    this.lesson = { ...found, n: seq };
    this.setTab("records");
  }

  closeLesson(): void {
    this.lesson = null;
  }

  setTab(tab: InspectorTab): void {
    this.tab = tab;
    saveInspectorTab(tab);
  }

  entry(seq: number | null): LogEntry | undefined {
    return seq === null ? undefined : logEntry(this.conn.log, seq);
  }

  /** Select a record (and, with `details`, show its details); the transcript outlines what it changed. */
  select(seq: number | null, details = this.detailsOpen): void {
    this.selected = seq;
    this.detailsOpen = seq !== null && details;
    if (seq !== null) this.followLive = false;
    this.#outline();
  }

  closeDetails(): void {
    this.detailsOpen = false;
  }

  /** The expert warnings about a record (read with `version`: a command's "never answered" comes later). */
  warningsOf(seq: number): readonly ExpertWarning[] | undefined {
    return warningsOf(this.models.checks, seq);
  }

  /** Seqs of the records with warnings, oldest first. */
  warningSeqs(): number[] {
    return warningSeqs(this.models.checks);
  }

  /** Each record with warnings and its time (the timeline's marks). */
  warningMarks(): { seq: number; at: number }[] {
    return this.warningSeqs().map((seq) => ({ seq, at: this.warningsOf(seq)![0]!.at }));
  }

  /** The transcript element the selected record changed, while the link is good. */
  targetOf(seq: number | null): LinkTarget | null {
    if (seq === null) return null;
    noteTranscript(this.models, this.conn.session);
    const meaning = meaningOf(this.models, seq);
    return meaning !== undefined && targetIsCurrent(this.models, meaning) ? meaning.target : null;
  }

  #outline(): void {
    transcriptLinks.highlight = this.targetOf(this.selected);
  }

  /** The panel closes: forget the outline, unless it closed to show it. */
  detach(): void {
    if (!this.#steppedAside) transcriptLinks.highlight = null;
    this.#steppedAside = false;
  }

  /** Select the records that changed a transcript element (Alt+click, "Inspect records"). */
  inspect(target: LinkTarget): void {
    noteTranscript(this.models, this.conn.session);
    const span = recordsFor(this.models.effects, target);
    const seqs: number[] = [];
    if (span !== undefined) {
      const key = targetKey(target);
      const log = this.conn.log;
      for (let seq = Math.max(span.firstSeq, log.firstSeq); seq <= span.lastSeq; seq++) {
        const t = meaningOf(this.models, seq)?.target;
        if (t === null || t === undefined) continue;
        const own = targetKey(t);
        // A block's records count for its message too.
        if (own === key || (target.kind === "message" && target.block === undefined && t.kind === "message" && t.index === target.index)) seqs.push(seq);
      }
    }
    this.related = { target, seqs };
    this.setTab("records");
    if (seqs.length > 0) this.select(seqs[0]!, true);
    transcriptLinks.highlight = target;
  }

  /** A guided walk's note names these records: all marked, the first selected with its details. */
  markNoted(seqs: readonly number[], label: string): void {
    const held = seqs.filter((seq) => this.entry(seq) !== undefined);
    this.related = { target: null, seqs: held, label };
    this.setTab("records");
    if (held.length > 0) this.select(held[0]!, true);
  }

  clearRelated(): void {
    this.related = null;
    this.#outline();
  }

  /**
   * Scroll the transcript to what a record changed, and flash it. On a phone
   * the inspector is a sheet over the transcript: it steps aside (for this
   * visit only; the status bar brings it back as it was).
   */
  showInTranscript(target: LinkTarget): void {
    transcriptLinks.highlight = target;
    revealInTranscript(target);
    if (typeof matchMedia === "function" && matchMedia("(max-width: 600px)").matches) {
      this.#steppedAside = true;
      view.logOpen = false;
    }
  }

  /** The JSONL file of the records held. */
  exportJsonl(): void {
    downloadBlob(new Blob(exportLogLines(this.conn.log), { type: "application/x-ndjson" }), exportFileName(Date.now()));
  }

  /** Edit-and-resend: open the composer on this command's text. */
  editAndResend(seq: number): void {
    const entry = this.entry(seq);
    if (entry === undefined) return;
    this.composeInitial = { text: prettyCommand(entryText(entry)), n: (this.composeInitial?.n ?? 0) + 1 };
    this.setTab("compose");
  }

  /**
   * The composer's send: the text must be one JSON object (a line of pi's
   * protocol is nothing else); beyond that the relay judges it, as it judges
   * every browser's command, and its refusal or pi's answer comes back.
   */
  async send(commandText: string): Promise<ComposeResult> {
    let value: unknown;
    try {
      value = JSON.parse(commandText) as unknown;
    } catch (error) {
      return { ok: false, error: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, error: "A command is one JSON object ({…}); the relay would refuse anything else." };
    const response = await this.conn.sendRecord(value as Record<string, unknown>);
    // pi's own answers carry the command's id; a failure made here (refused by the relay, no answer, not sent) has none.
    if (typeof (response as { id?: unknown }).id === "string") return { ok: true, response };
    return response.success ? { ok: true } : { ok: false, error: String((response as { error?: unknown }).error ?? `${response.command} failed`) };
  }

  /** This page's earlier commands, oldest first (newest last), from the record log. */
  history(): { seq: number; text: string }[] {
    const log = this.conn.log;
    const out: { seq: number; text: string }[] = [];
    for (let seq = log.firstSeq; seq < log.nextSeq; seq++) {
      const entry = logEntry(log, seq);
      if (entry?.direction === "out" && entry.sender?.self === true) out.push({ seq, text: entryText(entry) });
    }
    return out;
  }
}

/** A command as a person edits it: pretty JSON when it is JSON. */
function prettyCommand(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Each live session's inspector (session-scope.svelte.ts); `inspector` is the shown one's. */
const inspectors = new PerSession(
  (base) => new InspectorStore(connections.of(base)),
  (shown) => (inspector = shown),
);
export let inspector = inspectors.shown;
