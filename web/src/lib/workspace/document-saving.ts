// Saving an open file and settling conflicts. A save names the disk version
// the buffer is based on; when the disk moved on meanwhile the relay refuses
// (409) and the document goes to the conflict view: nothing is overwritten
// silently and the buffer is never discarded.

import { describeError } from "./describe-error.ts";
import { refreshDocument } from "./disk-changes.ts";
import type { DocumentsStore } from "./documents-store.svelte.ts";
import { basename } from "./file-tree.ts";
import { fileTabId } from "./tabs.ts";
import { viewerRefused, type WorkbenchContext } from "./workbench-context.ts";

/** Writes the buffer to disk against its base version. True when the file was written. */
export async function saveDocument(store: DocumentsStore, context: WorkbenchContext, path: string): Promise<boolean> {
  if (viewerRefused(context, "save files")) return false;
  const doc = store.docs[path];
  const buffer = store.buffer(path);
  if (!doc || !buffer?.model || doc.status !== "ready" || doc.saving) return false;
  const model = buffer.model;
  const content = model.getValue();
  const altId = model.getAlternativeVersionId();
  // During a conflict, saving means "mine (as edited in the merge view) over theirs".
  const base = doc.conflict ? doc.conflict.version : doc.deletedOnDisk ? null : doc.version;
  doc.saving = true;
  try {
    const result = await store.api.save(path, content, base);
    if ("kind" in result) {
      // Refused again: the same choice, worded as before (a revert's stays a revert's).
      const origin = doc.conflict?.origin;
      doc.conflict = { content: result.current.content ?? "", version: result.current.version, merging: false, ...(origin ? { origin } : {}) };
      doc.deletedOnDisk = result.current.version === null;
      doc.diskChanged = null;
      store.activate(fileTabId(path));
      return false;
    }
    doc.conflict = null;
    doc.diskChanged = null;
    doc.deletedOnDisk = false;
    doc.size = new TextEncoder().encode(content).length;
    store.markClean(path, content, result.version, altId);
    return true;
  } catch (error) {
    context.notify("error", `Could not save ${basename(path)}`, describeError(error));
    return false;
  } finally {
    doc.saving = false;
    if (buffer.refreshAfterSave) {
      buffer.refreshAfterSave = false;
      void refreshDocument(store, path);
    }
  }
}

/** Conflict or disk change: replace my buffer with the disk text (undo brings mine back). */
export function takeTheirs(store: DocumentsStore, path: string): void {
  const doc = store.docs[path];
  const theirs = doc?.conflict ?? doc?.diskChanged;
  if (!doc || !store.buffer(path) || !theirs) return;
  store.replaceBuffer(path, theirs.content, theirs.version);
  doc.conflict = null;
  doc.diskChanged = null;
}

/** Conflict: make the right side of the diff editable to merge by hand. */
export function startMerge(store: DocumentsStore, path: string): void {
  const doc = store.docs[path];
  if (doc?.conflict) doc.conflict.merging = true;
}

/** Disk changed under unsaved edits: show both in the conflict view. */
export function compareWithDisk(store: DocumentsStore, path: string): void {
  const doc = store.docs[path];
  if (!doc?.diskChanged) return;
  doc.conflict = { ...doc.diskChanged, merging: false };
  doc.diskChanged = null;
}

/** Disk changed under unsaved edits: keep editing; the next save will ask. */
export function dismissDiskChange(store: DocumentsStore, path: string): void {
  const doc = store.docs[path];
  if (doc) doc.diskChanged = null;
}
