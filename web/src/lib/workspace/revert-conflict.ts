// A revert from the hunk review meets the editor (issue #34, item 1), in the
// save's conflict view (ConflictView.svelte), so nothing is lost either way:
//
// - The file changed between the diff shown and a hunk's or a whole file's
//   Revert (one file's, or each of "Revert all"'s): the relay refused it and
//   said what the revert would make of the file now
//   (GitRevertConflictResponse; for a whole file, the index's text). The file opens with that text as an unsaved,
//   undoable edit beside the disk's: keeping the disk's is "take theirs",
//   taking the revert is a save at the version the refusal named (the same
//   no-clobber rule as any save), or the person edits and saves.
// - A revert went through while the file had unsaved edits in the editor:
//   the disk now holds the revert's result, the buffer the edits; the
//   conflict view opens at once (rather than only the "changed on disk" bar).

import type { GitRevertConflictResponse } from "@pier/protocol";
import { refreshDocument } from "./disk-changes.ts";
import type { DocumentsStore } from "./documents-store.svelte.ts";
import { FilesApiError } from "./files-api.ts";
import { fileTabId } from "./tabs.ts";

export type RevertOffer = GitRevertConflictResponse["revert"];
/** What was reverted: the conflict view words its choice for it. */
export type RevertScope = "hunk" | "file";

/** "opened": the conflict view shows it; "unsaved": the file has unsaved edits, left alone; "failed": it could not be opened as editable text. */
export type RevertConflictOutcome = "opened" | "unsaved" | "failed";

/** The offer a refused revert carries, if it is one (a stale_change with `revert`). */
export function revertOfferOf(error: unknown): RevertOffer | null {
  if (!(error instanceof FilesApiError) || error.code !== "stale_change") return null;
  const body = error.body as { revert?: unknown } | null;
  const offer = body?.revert as RevertOffer | undefined;
  if (typeof offer !== "object" || offer === null || typeof offer.reverted !== "string") return null;
  if (typeof offer.current?.content !== "string" || typeof offer.current.version !== "string") return null;
  return offer;
}

/** Opens `path` in the editor's conflict view: the disk's text (left) and the revert's (right, unsaved). */
export async function openRevertConflict(store: DocumentsStore, path: string, offer: RevertOffer, scope: RevertScope = "hunk"): Promise<RevertConflictOutcome> {
  const wasOpen = store.docs[path] !== undefined;
  // Unsaved edits are the person's work: a revert's text never replaces them (the diff is shown again instead).
  if (wasOpen && (store.docs[path]!.dirty || store.docs[path]!.conflict !== null)) return "unsaved";
  store.open(path);
  await store.loaded(path);
  const doc = store.docs[path];
  if (!doc || doc.status !== "ready" || !store.buffer(path)) return "failed";
  if (doc.dirty || doc.conflict !== null) return "unsaved";
  store.setUnsaved(path, offer.reverted);
  doc.conflict = { content: offer.current.content, version: offer.current.version, merging: false, origin: scope === "file" ? "revert-file" : "revert" };
  doc.diskChanged = null;
  store.activate(fileTabId(path));
  return "opened";
}

/** After a revert went through: a file open with unsaved edits shows them beside the disk's new text. */
export async function showRevertOverUnsaved(store: DocumentsStore, path: string): Promise<void> {
  const doc = store.docs[path];
  if (!doc?.dirty) return;
  await refreshDocument(store, path);
  const current = store.docs[path];
  if (!current) return;
  if (current.diskChanged) {
    current.conflict = { ...current.diskChanged, merging: false, origin: "reverted" };
    current.diskChanged = null;
  } else if (!current.conflict) return;
  store.activate(fileTabId(path));
}
