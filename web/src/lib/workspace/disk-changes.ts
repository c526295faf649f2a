// Files changed on disk (the relay's workspace_changed): which open things
// that touches, and bringing an open document up to date. A clean buffer
// takes the new text (as an undoable edit); a dirty one keeps the person's
// text and is marked, so they choose (document-saving.ts).

import { isNotFound } from "./describe-error.ts";
import type { DocumentsStore } from "./documents-store.svelte.ts";
import { normalizePath } from "./file-tree.ts";

/**
 * Does a change of `paths` concern `path`? Null means "anything may have
 * changed"; a changed folder concerns what is in it, and a changed file the
 * folders above it.
 */
export function changeTouches(paths: string[] | null): (path: string) => boolean {
  const changed = paths?.map(normalizePath) ?? null;
  return (path) => changed === null || changed.some((p) => p === path || p === "" || path.startsWith(`${p}/`) || p.startsWith(`${path}/`));
}

/** Re-reads an open file after a disk change and updates its document. */
export async function refreshDocument(store: DocumentsStore, path: string): Promise<void> {
  const doc = store.docs[path];
  if (!doc) return;
  const buffer = store.buffer(path);
  if (doc.saving) {
    if (buffer) buffer.refreshAfterSave = true;
    return;
  }
  if (doc.status === "loading") return;
  if (doc.status === "error" || doc.status === "readonly" || !buffer) {
    // Maybe it exists now, or became editable: load it afresh.
    doc.status = "loading";
    doc.error = null;
    doc.reason = null;
    await store.load(path);
    return;
  }
  let file;
  try {
    file = await store.api.read(path);
  } catch (error) {
    const current = store.docs[path];
    if (isNotFound(error) && current) {
      current.deletedOnDisk = true;
      if (current.conflict) {
        current.conflict.version = null;
        current.conflict.content = "";
      }
    }
    return;
  }
  const current = store.docs[path];
  if (!current || current.saving) return;
  if (file.readOnly) {
    if (!current.dirty) {
      current.status = "readonly";
      current.reason = file.reason;
      current.version = file.version;
    }
    return;
  }
  current.deletedOnDisk = false;
  if (current.conflict) {
    current.conflict.content = file.content;
    current.conflict.version = file.version;
    return;
  }
  if (file.version === current.version) {
    current.diskChanged = null;
    return;
  }
  const model = buffer.model;
  const mine = model && !model.isDisposed() ? model.getValue() : (buffer.pendingText ?? buffer.baseText);
  if (!current.dirty || mine === file.content) {
    store.replaceBuffer(path, file.content, file.version);
    current.diskChanged = null;
  } else {
    current.diskChanged = { content: file.content, version: file.version };
  }
}
