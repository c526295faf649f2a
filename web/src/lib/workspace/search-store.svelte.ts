// The Search view's state for one workspace: the query and its toggles, the
// results as they stream in, and replace across files (a preview with a
// checkbox per match, then one confirm). A new search aborts the one before
// (the relay kills its git); typing is debounced lightly.

import { SEARCH_LIMITS, type ReplacePreviewFile, type SearchDoneRecord, type SearchQuery, type SearchRecord } from "@pier/protocol";
import { describeError } from "./describe-error.ts";
import { previewReplace, replaceAcrossFiles, streamSearch } from "./search-api.ts";
import { addMatches, type SearchFileResult } from "./search-results.ts";

const SEARCH_DEBOUNCE_MS = SEARCH_LIMITS.pageDebounceMs;
/** Files changed on disk (an agent writing, a checkout): the shown results are searched again once the burst is over. */
const DISK_REFRESH_MS = 500;

export type SearchStatus = "idle" | "searching" | "done" | "error";

export type ReplacePreview = { files: ReplacePreviewFile[]; truncated: boolean; skipped: { path: string; reason: string }[]; chosen: Set<string> };

const key = (path: string, index: number) => `${index}:${path}`;

export class SearchStore {
  pattern = $state("");
  regex = $state(false);
  caseSensitive = $state(false);
  wholeWord = $state(false);
  include = $state("");
  exclude = $state("");
  ignored = $state(false);
  replacement = $state("");
  showReplace = $state(false);
  showFilters = $state(false);
  /** Bumped when the query box should take the focus (Ctrl+Shift+F). */
  focusTick = $state(0);

  status = $state<SearchStatus>("idle");
  error = $state<string | null>(null);
  files = $state.raw<SearchFileResult[]>([]);
  summary = $state.raw<SearchDoneRecord | null>(null);
  /** Files whose lines are folded away. */
  collapsed = $state.raw<Set<string>>(new Set());

  preview = $state.raw<ReplacePreview | null>(null);
  replacing = $state(false);
  /** What the last replace did, in a sentence (and the files it skipped). */
  replaceReport = $state.raw<{ message: string; skipped: { path: string; reason: string }[] } | null>(null);

  readonly #base: string;
  #controller: AbortController | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #run = 0;
  /** The shown results are the search before's, until this one's first lines (no flicker while typing). */
  #stale = false;
  /** The view is on screen (it says so when it mounts and unmounts). */
  #shown = false;
  /** Files changed while the view was not shown: search again when it is. */
  #outdated = false;

  constructor(base: string) {
    this.#base = base;
  }

  requestFocus(): void {
    this.focusTick++;
  }

  get query(): SearchQuery {
    return {
      pattern: this.pattern,
      regex: this.regex,
      caseSensitive: this.caseSensitive,
      wholeWord: this.wholeWord,
      include: splitGlobs(this.include),
      exclude: splitGlobs(this.exclude),
      ignored: this.ignored,
    };
  }

  get lineCount(): number {
    return this.files.reduce((sum, file) => sum + file.lines.length, 0);
  }

  get matchCount(): number {
    return this.files.reduce((sum, file) => sum + file.matches, 0);
  }

  /** The query changed (typing, a toggle): search again shortly. */
  schedule(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.preview = null;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.search();
    }, SEARCH_DEBOUNCE_MS);
  }

  /** Searches now, abandoning any search under way. */
  async search(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#controller?.abort();
    const run = ++this.#run;
    this.#outdated = false;
    this.error = null;
    if (this.pattern === "") {
      this.files = [];
      this.summary = null;
      this.status = "idle";
      return;
    }
    this.#stale = true;
    const controller = new AbortController();
    this.#controller = controller;
    this.status = "searching";
    try {
      await streamSearch(this.#base, this.query, controller.signal, (records) => {
        if (run !== this.#run) return;
        this.#take(records);
      });
      if (run === this.#run && this.status === "searching") this.status = "done";
    } catch (error) {
      if (run !== this.#run || controller.signal.aborted) return;
      this.#dropStale();
      this.status = "error";
      this.error = describeError(error);
    }
  }

  #take(records: SearchRecord[]): void {
    this.#dropStale();
    const matches = records.filter((record) => record.type === "match");
    if (matches.length > 0) this.files = addMatches(this.files, matches);
    for (const record of records) {
      if (record.type === "done") {
        this.summary = record;
        this.status = "done";
      } else if (record.type === "error") {
        this.status = "error";
        this.error = record.message;
      }
    }
  }

  #dropStale(): void {
    if (!this.#stale) return;
    this.#stale = false;
    this.files = [];
    this.summary = null;
  }

  /**
   * Files changed on disk: results already shown are searched again shortly
   * (a burst of writes makes one search), so they never point at lines that
   * moved. Not while a replace preview is open: its confirm checks each
   * file's version and skips what changed, saying so. A view not shown
   * searches again when it is shown, not in the background.
   */
  diskChanged(): void {
    if (this.pattern === "" || this.status === "idle" || this.preview !== null || this.replacing) return;
    if (!this.#shown) {
      this.#outdated = true;
      return;
    }
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.search();
    }, DISK_REFRESH_MS);
  }

  /** The view is on screen again: results that files changed under are searched again. */
  shown(): void {
    this.#shown = true;
    if (this.#outdated) this.diskChanged();
  }

  hidden(): void {
    this.#shown = false;
  }

  /** Stops a search under way (the page closes the view). */
  cancel(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#controller?.abort();
    this.#run++;
    if (this.status === "searching") this.status = "idle";
  }

  toggleCollapsed(path: string): void {
    const next = new Set(this.collapsed);
    if (!next.delete(path)) next.add(path);
    this.collapsed = next;
  }

  /** Asks the relay for every change a replace would make; every match starts chosen. */
  async startPreview(): Promise<void> {
    if (this.pattern === "") return;
    this.replaceReport = null;
    this.replacing = true;
    try {
      const answer = await previewReplace(this.#base, this.query, this.replacement);
      const chosen = new Set(answer.files.flatMap((file) => file.matches.map((match) => key(file.path, match.index))));
      this.preview = { ...answer, chosen };
    } catch (error) {
      this.replaceReport = { message: describeError(error), skipped: [] };
    } finally {
      this.replacing = false;
    }
  }

  isChosen(path: string, index: number): boolean {
    return this.preview?.chosen.has(key(path, index)) ?? false;
  }

  /** Chooses or drops one match, or (no index) every match of a file. */
  choose(path: string, index: number | null, chosen: boolean): void {
    if (!this.preview) return;
    const next = new Set(this.preview.chosen);
    const file = this.preview.files.find((candidate) => candidate.path === path);
    const indices = index === null ? (file?.matches.map((match) => match.index) ?? []) : [index];
    for (const i of indices) {
      if (chosen) next.add(key(path, i));
      else next.delete(key(path, i));
    }
    this.preview = { ...this.preview, chosen: next };
  }

  get chosenCount(): number {
    return this.preview?.chosen.size ?? 0;
  }

  cancelPreview(): void {
    this.preview = null;
  }

  /** Replaces the chosen matches (one confirm), then searches again. */
  async confirmReplace(): Promise<void> {
    const preview = this.preview;
    if (!preview) return;
    const files = preview.files
      .map((file) => ({ path: file.path, version: file.version, matches: file.matches.filter((match) => preview.chosen.has(key(file.path, match.index))).map((match) => match.index) }))
      .filter((file) => file.matches.length > 0);
    this.replacing = true;
    try {
      const answer = await replaceAcrossFiles(this.#base, { query: this.query, replacement: this.replacement, files });
      const count = answer.replaced.reduce((sum, file) => sum + file.matches, 0);
      const fileCount = answer.replaced.length;
      this.replaceReport = {
        message: `Replaced ${count} ${count === 1 ? "match" : "matches"} in ${fileCount} ${fileCount === 1 ? "file" : "files"}.`,
        skipped: answer.skipped,
      };
      this.preview = null;
      void this.search();
    } catch (error) {
      this.replaceReport = { message: describeError(error), skipped: [] };
    } finally {
      this.replacing = false;
    }
  }
}

function splitGlobs(text: string): string[] {
  return text
    .split(",")
    .map((glob) => glob.trim())
    .filter((glob) => glob !== "");
}
