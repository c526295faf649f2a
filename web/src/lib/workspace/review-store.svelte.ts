// The hunk review of a diff tab (issue #34 item 1): one file's diff as hunks
// from the relay (GET /api/git/diff), and stage / unstage / revert of a hunk,
// an edited hunk, a mode change or the whole file; plus the Changes list's
// actions on files and sections. Every action names what the page showed
// (a hunk's id, a diff's `base`): when the file moved meanwhile the relay
// refuses it (stale_change, or a revert's save conflict) and the diff is
// loaded again, with a sentence saying so. A revert so refused that the
// relay could say what it would make of the file now (a hunk still in the
// file, or a whole text file git tracks) opens the editor's conflict view
// with it (revert-conflict.ts, through `hooks`); then the conflict view alone
// says what happened (a sentence here too would only be found after it).
// "Revert all" goes on past such a file, opens each one's conflict view and
// names them all. Nothing here is Svelte UI.

import type { GitDiffResponse, GitDiffSide, GitReviewRequest } from "@pier/protocol";
import { describeError } from "./describe-error.ts";
import { FilesApiError, type FilesApi } from "./files-api.ts";
import { revertOfferOf, type RevertConflictOutcome, type RevertOffer, type RevertScope } from "./revert-conflict.ts";

export type ReviewApi = Pick<FilesApi, "gitDiff" | "gitStage" | "gitUnstage" | "gitRevert">;
export type ReviewAction = "stage" | "unstage" | "revert";
export type ReviewView = "hunks" | "side";

/** What the editor does around a revert (the workbench wires these to its documents). */
export interface ReviewHooks {
  /** A revert (of a hunk, or of the whole file) met a file changed meanwhile: show the disk's text beside the revert's. */
  revertConflict(path: string, offer: RevertOffer, scope: RevertScope): Promise<RevertConflictOutcome>;
  /** A revert was written: an open file with unsaved edits shows them beside it. */
  reverted(path: string): void;
}

export interface ReviewMessage {
  tone: "info" | "error";
  text: string;
}

/**
 * One diff tab's review. A class with its own signals, so the store's record
 * does not turn a diff of 200 hunks into deep proxies (measured: 130 ms
 * tasks per reload in bench/hunk-review.bench.ts); the diff itself is raw
 * and replaced whole.
 */
export class Review {
  readonly key: string;
  readonly path: string;
  /** A staged rename's old path. */
  readonly from: string | null;
  readonly side: GitDiffSide;
  /** Hunks, or Monaco's side by side (HEAD ↔ working tree). */
  view = $state<ReviewView>("hunks");
  loading = $state(true);
  error = $state<string | null>(null);
  diff = $state.raw<GitDiffResponse | null>(null);
  /** What an action is running for (a hunk id, "file" or "mode"); null when none. */
  busy = $state<string | null>(null);
  message = $state<ReviewMessage | null>(null);

  constructor(key: string, path: string, from: string | null, side: GitDiffSide, view: ReviewView) {
    this.key = key;
    this.path = path;
    this.from = from;
    this.side = side;
    this.view = view;
  }
}

export class ReviewStore {
  reviews = $state<Record<string, Review>>({});
  /** A message for the Changes list (an action on files failed). */
  listMessage = $state<ReviewMessage | null>(null);

  readonly #api: ReviewApi;
  readonly #changed: () => void;
  #loads = new Map<string, number>();

  readonly #isOpen: (key: string) => boolean;
  readonly #hooks: ReviewHooks | null;

  /** `changed`: an action went through (reload git status now rather than wait for the watcher); `isOpen`: is the review's tab still open? */
  constructor(api: ReviewApi, changed: () => void, isOpen: (key: string) => boolean = () => true, hooks: ReviewHooks | null = null) {
    this.#api = api;
    this.#changed = changed;
    this.#isOpen = isOpen;
    this.#hooks = hooks;
  }

  /** The review of a diff tab, made (and loaded) on first use. */
  ensure(key: string, path: string, side: GitDiffSide, from: string | null, view: ReviewView): Review {
    let review = this.reviews[key];
    if (!review) {
      review = new Review(key, path, from, side, view);
      this.reviews[key] = review;
      void this.load(key);
    }
    return review;
  }

  setView(key: string, view: ReviewView): void {
    const review = this.reviews[key];
    if (review) review.view = view;
  }

  async load(key: string): Promise<void> {
    const review = this.reviews[key];
    if (!review) return;
    const request = (this.#loads.get(key) ?? 0) + 1;
    this.#loads.set(key, request);
    try {
      const diff = await this.#api.gitDiff(review.path, review.side === "staged", review.from ?? undefined);
      const target = this.reviews[key];
      if (!target || this.#loads.get(key) !== request) return;
      // The same sides give the same hunks: nothing to draw again (the watcher's echo of our own action).
      if (target.diff?.base !== diff.base || target.diff.side !== diff.side) target.diff = diff;
      target.error = null;
    } catch (error) {
      const target = this.reviews[key];
      if (!target || this.#loads.get(key) !== request) return;
      target.error = describeError(error);
    } finally {
      const target = this.reviews[key];
      if (target && this.#loads.get(key) === request) target.loading = false;
    }
  }

  /** A hunk (by id, `text` for an edited one), the mode change, or the whole file of a review. True when done. */
  async act(key: string, action: ReviewAction, what: { hunk?: string; text?: string; part?: "mode" }): Promise<boolean> {
    const review = this.reviews[key];
    if (!review || review.busy !== null || !review.diff) return false;
    const request: GitReviewRequest = { path: review.path, base: review.diff.base, ...what };
    if (action === "unstage" && review.from !== null) request.from = review.from;
    // The hunk as shown: if the file moved meanwhile, the relay can say what this revert would make of it now.
    const shown = action === "revert" && what.hunk !== undefined ? review.diff.hunks.find((hunk) => hunk.id === what.hunk) : undefined;
    if (shown) request.shown = { header: shown.header, lines: shown.lines };
    review.busy = what.hunk ?? what.part ?? "file";
    review.message = null;
    try {
      await this.#send(action, request);
      this.#changed();
      if (action === "revert") this.#hooks?.reverted(review.path);
      return true;
    } catch (error) {
      const offer = action === "revert" ? revertOfferOf(error) : null;
      const outcome = offer ? (this.#hooks ? await this.#hooks.revertConflict(review.path, offer, what.hunk === undefined ? "file" : "hunk") : "failed") : null;
      const target = this.reviews[key];
      // Opened: the conflict view (now in front) says it all; this tab shows the diff as it is now, with no sentence left behind it.
      if (target) target.message = outcome === "opened" ? null : outcome ? offerText(outcome, review.path) : { tone: "error", text: failureText(error, action) };
      return false;
    } finally {
      const target = this.reviews[key];
      if (target) target.busy = null;
      // Whatever happened, show the file as it is now.
      await this.load(key);
    }
  }

  /** Stage or unstage whole files (a file's button, or a section's "all"). True when done. */
  async files(action: "stage" | "unstage", paths: string[]): Promise<boolean> {
    if (paths.length === 0) return true;
    this.listMessage = null;
    try {
      await this.#send(action, { paths });
      return true;
    } catch (error) {
      this.listMessage = { tone: "error", text: failureText(error, action) };
      return false;
    } finally {
      this.#changed();
    }
  }

  /** The `base` of each file's working-tree diff, read before the person is asked, so a revert never covers what they did not see. */
  async revertBases(paths: string[]): Promise<Map<string, string>> {
    // In the list's order (not the order the answers came in): the files are reverted, and any left named, in that order.
    const read = await Promise.all(paths.map(async (path) => [path, (await this.#api.gitDiff(path, false)).base] as const));
    return new Map(read);
  }

  /**
   * Reverts whole files at the bases read before the question. A file that
   * changed meanwhile is left as it is and the rest go on; each one the relay
   * made an offer for opens in the editor's conflict view (every one, in a
   * tab of its own), and the sentence names them all, then the others left.
   */
  async revertFiles(bases: Map<string, string>): Promise<boolean> {
    this.listMessage = null;
    const opened: string[] = [];
    const failed: string[] = [];
    for (const [path, base] of bases) {
      try {
        await this.#api.gitRevert({ path, base });
        this.#hooks?.reverted(path);
      } catch (error) {
        const offer = revertOfferOf(error);
        const outcome = offer && this.#hooks ? await this.#hooks.revertConflict(path, offer, "file") : null;
        if (outcome === "opened") opened.push(path);
        else if (outcome === "unsaved") failed.push(`${path}: it changed since you asked and has unsaved edits in the editor, so it was not reverted.`);
        else failed.push(`${path}: ${failureText(error, "revert")}`);
      }
    }
    this.#changed();
    const parts: string[] = [];
    if (opened.length > 0) parts.push(openedText(opened));
    if (failed.length > 0) parts.push(failed.slice(0, 3).join(" ") + (failed.length > 3 ? ` (and ${failed.length - 3} more)` : ""));
    if (parts.length > 0) this.listMessage = { tone: failed.length > 0 ? "error" : "info", text: parts.join(" ") };
    return opened.length === 0 && failed.length === 0;
  }

  /** The index or files moved (`git`), or these files changed: open reviews follow. */
  diskChanged(touches: (path: string) => boolean, git: boolean): void {
    for (const review of Object.values(this.reviews)) {
      if (!this.#isOpen(review.key)) {
        this.drop(review.key);
        continue;
      }
      if (git || touches(review.path) || (review.from !== null && touches(review.from))) void this.load(review.key);
    }
  }

  drop(key: string): void {
    delete this.reviews[key];
    this.#loads.delete(key);
  }

  #send(action: ReviewAction, request: GitReviewRequest): Promise<unknown> {
    if (action === "stage") return this.#api.gitStage(request);
    if (action === "unstage") return this.#api.gitUnstage(request);
    return this.#api.gitRevert(request);
  }
}

/** "Revert all": the files left for the person to choose in the conflict view, each named. */
function openedText(paths: string[]): string {
  const names = paths.length <= 10 ? paths.join(", ") : `${paths.slice(0, 10).join(", ")} and ${paths.length - 10} more`;
  if (paths.length === 1) return `${names} changed since you asked, so it was not reverted: the editor shows it as it is now beside the reverted file. Choose there.`;
  return `${paths.length} files changed since you asked, so they were not reverted: ${names}. Each is open in the editor as it is now beside the reverted file: choose in each tab.`;
}

/** The review's sentence once the editor left (or could not show) a revert's offer. */
function offerText(outcome: Exclude<RevertConflictOutcome, "opened">, path: string): ReviewMessage {
  if (outcome === "unsaved")
    return {
      tone: "error",
      text: `${path} changed since this diff was shown and has unsaved edits in the editor, so nothing was reverted. Save or discard them, then revert again from the diff as it is now.`,
    };
  return { tone: "error", text: `${path} changed since this diff was shown, so nothing was reverted; the diff now shows the file as it is.` };
}

function failureText(error: unknown, action: ReviewAction): string {
  if (error instanceof FilesApiError && error.code === "conflict") {
    return "The file changed on disk since this diff was shown, so nothing was reverted; the diff now shows the file as it is.";
  }
  const verb = action === "stage" ? "Staging" : action === "unstage" ? "Unstaging" : "Reverting";
  if (error instanceof FilesApiError && error.code === "stale_change") return error.message;
  return `${verb} failed: ${describeError(error)}`;
}
